import { eq, type SQL } from 'drizzle-orm';
import type { PgInsertValue, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from './client';
import { companies, helps, plans } from './schema';
import type { DbHandle } from './tenant';

/** Tables that belong to the platform, not to one company: reachable by super-user code. */
export type GlobalTable = typeof plans | typeof helps | typeof companies;

/** Access to platform tables only; tenant tables are not accepted by its types. */
export class GlobalDb {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  selectFrom<T extends GlobalTable>(table: T, where?: SQL) {
    return this.#db.select().from(table as GlobalTable).where(where);
  }

  insert<T extends GlobalTable>(table: T, values: PgInsertValue<T>) {
    return this.#db.insert(table).values(values);
  }

  update<T extends GlobalTable>(table: T, set: PgUpdateSetSource<T>, where: SQL) {
    return this.#db.update(table).set(set).where(where);
  }

  delete<T extends GlobalTable>(table: T, where: SQL) {
    return this.#db.delete(table).where(where);
  }

  companyById(id: number) {
    return this.#db.query.companies.findFirst({ where: eq(companies.id, id) });
  }
}

export const globalDb = (scope: { db: DbHandle }): GlobalDb =>
  new GlobalDb(scope.db as unknown as Db);
