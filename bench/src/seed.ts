import { parseArgs } from 'node:util';
import { connectDatabase } from '../../apps/server/src/db/client';
import { runMigrations } from '../../apps/server/src/db/migrate';
import { recreateDatabase } from '../../apps/server/test/local';
import { generate } from './generate';

/**
 * `npm run seed -w @atendi/bench -- --database NAME [--scale N]` - a database of its own on
 * DATABASE_URL's server with the benchmark's data (at 1% and at `scale`), kept afterwards, to read
 * query plans with psql: EXPLAIN (ANALYZE, BUFFERS) ...
 */
const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'atendi_bench_seed' },
    scale: { type: 'string', default: '1' },
  },
});
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = values.database!;
const database = connectDatabase(await recreateDatabase(adminUrl, name), 4);
try {
  await runMigrations(database.pool);
  const scale = Number(values.scale);
  for (const [tag, at] of [
    ['small', scale / 100],
    ['large', scale],
  ] as const) {
    const data = await generate(database.pool, at, tag);
    console.log(JSON.stringify({ tag, scale: at, ...data }));
  }
} finally {
  await database.close();
}
