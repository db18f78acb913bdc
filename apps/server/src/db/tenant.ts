import { createHash } from 'node:crypto';
import { and, count, eq, type SQL, sql } from 'drizzle-orm';
import type {
  PgColumn,
  PgInsertValue,
  PgSelectBase,
  PgTable,
  PgUpdateSetSource,
  SelectedFields,
} from 'drizzle-orm/pg-core';
import type {
  GetSelectTableName,
  GetSelectTableSelection,
} from 'drizzle-orm/query-builders/select.types';
import type { Pool } from 'pg';
import type { Db } from './client';
import type { DbHandle } from './handle';

/**
 * A hand-written statement: its SQL takes the company id as $1, which only
 * `TenantDb.run` supplies. Named, so PostgreSQL parses and plans it once per connection.
 */
export interface TenantStatement {
  name: string;
  text: string;
}

/** A tenant statement whose parameters have names: its input binds by `keys`, as $2... */
export interface NamedStatement<I extends object> extends TenantStatement {
  readonly keys: readonly (keyof I)[];
}

/**
 * A tenant statement whose SQL names its parameters: `build` gets one placeholder per field of
 * the input (`${p.ticketId}` is written `$2`, `${p.body}` `$3`, numbered as first used) and
 * `TenantDb.run` binds an input object by those names. pg binds by position only; written by
 * hand (a Proxy over the input's keys) so a statement of twenty parameters reads by name and
 * cannot shift one, while the text stays one named, once-planned statement.
 */
export function namedStatement<I extends object>(
  name: string,
  build: (p: { readonly [K in keyof I]-?: string }) => string,
): NamedStatement<I> {
  const keys: (keyof I)[] = [];
  const placeholders = new Proxy({} as { readonly [K in keyof I]-?: string }, {
    get: (_, key) => {
      const known = keys.indexOf(key as keyof I);
      const index = known >= 0 ? known : keys.push(key as keyof I) - 1;
      return `$${index + 2}`;
    },
  });
  return { name, text: build(placeholders), keys };
}

/** A table that belongs to one company. */
export type TenantTable = PgTable & { companyId: PgColumn };

export type { DbHandle };
export const toHandle = (db: Db): DbHandle => db as unknown as DbHandle;

export interface TenantScope {
  companyId: number;
  db: DbHandle;
}

type WithoutCompany<T> = Omit<T, 'companyId'>;

/**
 * The only way module code reaches tenant tables. Every read is filtered by the company, every
 * write is stamped with it, and no method accepts a company id from the caller.
 */
export class TenantDb {
  readonly #db: Db;
  readonly companyId: number;

  constructor(db: Db, companyId: number) {
    if (!Number.isInteger(companyId) || companyId <= 0) {
      throw new Error('TenantDb needs a company id');
    }
    this.#db = db;
    this.companyId = companyId;
  }

  /** `company_id = <this company> [and (where)]`, for joins and sub-queries. */
  scope<T extends TenantTable>(table: T, where?: SQL): SQL {
    // Parenthesised: drizzle's `and` does not wrap raw SQL, and a bare `x or y` would reach
    // every company's rows.
    return and(eq(table.companyId, this.companyId), where && sql`(${where})`) as SQL;
  }

  /** All columns of a tenant table; chain orderBy/limit/joins. A second where cannot be set. */
  selectFrom<T extends TenantTable>(table: T, where?: SQL) {
    // drizzle's `from` cannot be called with a generic table; the cast restores its own type.
    const query = this.#db.select().from(table as PgTable) as unknown as PgSelectBase<
      GetSelectTableName<T>,
      GetSelectTableSelection<T>,
      'single'
    >;
    return query.where(this.scope(table, where));
  }

  /** Chosen fields (may reference joined tables) from a tenant table. */
  select<F extends SelectedFields>(fields: F) {
    const db = this.#db;
    const scope = this.scope.bind(this);
    return {
      from: <T extends TenantTable>(table: T, where?: SQL) =>
        (
          db.select(fields).from(table as PgTable) as unknown as PgSelectBase<
            GetSelectTableName<T>,
            F,
            'partial'
          >
        ).where(scope(table, where)),
    };
  }

  async count<T extends TenantTable>(table: T, where?: SQL): Promise<number> {
    const [row] = await this.#db
      .select({ value: count() })
      .from(table as PgTable)
      .where(this.scope(table, where));
    return row?.value ?? 0;
  }

  /** Like `count`, but stops counting at `limit` rows: a bound for searches over many rows. */
  async countUpTo<T extends TenantTable>(table: T, where: SQL | undefined, limit: number) {
    const rows = this.#db
      .select({ one: sql`1` })
      .from(table as PgTable)
      .where(this.scope(table, where))
      .limit(limit)
      .as('counted');
    const [row] = await this.#db.select({ value: count() }).from(rows);
    return row?.value ?? 0;
  }

  insert<T extends TenantTable>(
    table: T,
    values: NoInfer<WithoutCompany<T['$inferInsert']> | WithoutCompany<T['$inferInsert']>[]>,
  ) {
    const stamp = (row: WithoutCompany<T['$inferInsert']>) =>
      ({ ...row, companyId: this.companyId }) as PgInsertValue<T>;
    const rows = Array.isArray(values) ? values.map(stamp) : [stamp(values)];
    const builder = this.#db.insert(table).values(rows);
    // A conflict on an index that spans companies (a user's email) must not update another
    // company's row: the update is limited to this company and cannot move a row.
    const onConflictDoUpdate = builder.onConflictDoUpdate.bind(builder);
    builder.onConflictDoUpdate = (config) => {
      if ('companyId' in config.set) throw new Error('A row cannot move to another company');
      const scoped = eq(table.companyId, this.companyId);
      return onConflictDoUpdate({
        ...config,
        setWhere: config.setWhere ? (and(scoped, sql`(${config.setWhere})`) as SQL) : scoped,
      });
    };
    return builder;
  }

  update<T extends TenantTable>(
    table: T,
    set: NoInfer<WithoutCompany<PgUpdateSetSource<T>>>,
    where: SQL,
  ) {
    if ('companyId' in set) throw new Error('A row cannot move to another company');
    return this.#db
      .update(table)
      .set(set as PgUpdateSetSource<T>)
      .where(this.scope(table, where));
  }

  delete<T extends TenantTable>(table: T, where: SQL) {
    return this.#db.delete(table).where(this.scope(table, where));
  }

  /**
   * Runs a hand-written statement with this company as $1: a named one binds `input` by its
   * fields' names, a plain one takes `params` as $2...
   */
  async run<R extends Record<string, unknown>, I extends object>(
    statement: NamedStatement<I>,
    input: I,
  ): Promise<R[]>;
  async run<R extends Record<string, unknown>>(
    statement: TenantStatement,
    params: unknown[],
  ): Promise<R[]>;
  async run<R extends Record<string, unknown>>(
    statement: TenantStatement | NamedStatement<object>,
    params: unknown[] | object,
  ): Promise<R[]> {
    const client = (this.#db as { $client?: Pick<Pool, 'query'> }).$client;
    if (!client) throw new Error('TenantDb.run is not available inside a transaction');
    const values = Array.isArray(params)
      ? params
      : (statement as NamedStatement<object>).keys.map(
          (key) => (params as Record<PropertyKey, unknown>)[key],
        );
    const result = await client.query({
      name: statement.name,
      text: statement.text,
      values: [this.companyId, ...values],
    });
    return result.rows as R[];
  }

  /** Runs `work` in one transaction, still scoped to this company. */
  transaction<R>(work: (tx: TenantDb) => Promise<R>): Promise<R> {
    return this.#db.transaction((tx) => work(new TenantDb(tx as unknown as Db, this.companyId)));
  }
}

/**
 * Runs a query built on a TenantDb as a named statement, named after its text: each pooled
 * connection parses it once, and PostgreSQL may then keep one plan for it instead of planning
 * every call. For the few heavy statements whose planning costs more than their run; a query
 * whose text varies without bound (one parameter per list item, say) must not come here.
 */
export function runNamed<R>(
  label: string,
  query: { toSQL(): { sql: string }; prepare(name: string): { execute(): Promise<R> } },
): Promise<R> {
  const hash = createHash('sha1').update(query.toSQL().sql).digest('hex').slice(0, 16);
  return query.prepare(`${label}_${hash}`).execute();
}

export const tenantDb = (scope: TenantScope): TenantDb =>
  new TenantDb(scope.db as unknown as Db, scope.companyId);
