import { count, eq, type SQL } from 'drizzle-orm';
import type { PgInsertValue, PgSelectBase, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type {
  GetSelectTableName,
  GetSelectTableSelection,
} from 'drizzle-orm/query-builders/select.types';
import type { Db } from './client';
import { type announcements, companies, type helps, type invoices, type plans } from './schema';
import { type DbHandle, TenantDb } from './tenant';

/** Tables that belong to the platform, not to one company: reachable by super-user code. */
export type GlobalTable = typeof plans | typeof helps | typeof companies | typeof announcements;
/**
 * What super-user code may also read, never write, across companies: every company's invoices
 * (the super user's Financeiro).
 */
export type GlobalReadable = GlobalTable | typeof invoices;

/** Access to platform tables only; tenant tables are not accepted by its types. */
export class GlobalDb {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  selectFrom<T extends GlobalReadable>(table: T, where?: SQL) {
    const query = this.#db.select().from(table as PgTable) as unknown as PgSelectBase<
      GetSelectTableName<T>,
      GetSelectTableSelection<T>,
      'single'
    >;
    return query.where(where);
  }

  async count<T extends GlobalReadable>(table: T, where?: SQL): Promise<number> {
    const [row] = await this.#db
      .select({ value: count() })
      .from(table as PgTable)
      .where(where);
    return row?.value ?? 0;
  }

  insert<T extends GlobalTable>(table: T, values: NoInfer<T['$inferInsert']>) {
    return this.#db.insert(table).values(values as PgInsertValue<T>);
  }

  update<T extends GlobalTable>(table: T, set: NoInfer<PgUpdateSetSource<T>>, where: SQL) {
    return this.#db.update(table).set(set).where(where);
  }

  delete<T extends GlobalTable>(table: T, where: SQL) {
    return this.#db.delete(table).where(where);
  }

  /**
   * One transaction over platform tables and, through `tenantOf`, the tenant tables of a company
   * being provisioned (sign-up, super-user creation).
   */
  transaction<R>(
    work: (tx: GlobalDb, tenantOf: (companyId: number) => TenantDb) => Promise<R>,
  ): Promise<R> {
    return this.#db.transaction((tx) => {
      const raw = tx as unknown as Db;
      return work(new GlobalDb(raw), (companyId) => new TenantDb(raw, companyId));
    });
  }

  companyById(id: number) {
    return this.#db.query.companies.findFirst({ where: eq(companies.id, id) });
  }
}

export const globalDb = (scope: { db: DbHandle }): GlobalDb =>
  new GlobalDb(scope.db as unknown as Db);
