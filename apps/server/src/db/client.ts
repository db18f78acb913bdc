import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { DbHandle } from './handle';
import * as schema from './schema';

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

// Bigint counts come back as strings by default; ours fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function connectDatabase(url: string, max = 20): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    // The API runs many short statements at once. JIT compiling a plan, or starting parallel
    // workers for it, costs more than such a statement's run and takes cores from the others.
    options: '-c jit=off -c max_parallel_workers_per_gather=0',
  });
  // An idle client that loses its connection must not take the process down.
  pool.on('error', () => {});
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}

/** The raw handle behind an opaque one; for db/ and platform/ code only (lint-enforced). */
export const unwrapHandle = (handle: DbHandle): Db => handle as unknown as Db;
