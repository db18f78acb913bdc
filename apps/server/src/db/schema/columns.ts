import { customType, integer, timestamp } from 'drizzle-orm/pg-core';

/** Columns every table carries. */
export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

/** The tenant column; every tenant table has it and `tenantDb` filters and stamps it. */
export const companyIdColumn = () => integer('company_id').notNull();

/** A PostgreSQL text-search document, written and read only by SQL (the search indexes). */
export const tsvector = customType<{ data: string; driverData: string }>({
  dataType: () => 'tsvector',
});
