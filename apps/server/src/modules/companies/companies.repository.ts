import { type Company, type CompanyWithPlanName, DEFAULT_SCHEDULES } from '@atendi/shared';
import { asc, eq, ilike, or } from 'drizzle-orm';
import type { GlobalDb } from '../../db/global';
import { companies, plans } from '../../db/schema';
import { isoRequired, likePattern } from '../../platform/routes';

type CompanyRow = typeof companies.$inferSelect;
type CompanyChanges = Partial<Omit<typeof companies.$inferInsert, 'id' | 'createdAt'>>;

/** A company that never set its hours keeps the default ones. */
const hoursOf = (stored: CompanyRow['schedules']) =>
  stored.length > 0 ? stored : DEFAULT_SCHEDULES;

export const presentCompany = (row: CompanyRow): Company => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  planId: row.planId,
  status: row.status,
  dueDate: row.dueDate,
  recurrence: row.recurrence as Company['recurrence'],
  schedules: hoursOf(row.schedules),
  billingName: row.billingName,
  addressZipCode: row.addressZipCode,
  addressStreet: row.addressStreet,
  addressState: row.addressState,
  addressCity: row.addressCity,
  addressDistrict: row.addressDistrict,
  createdAt: isoRequired(row.createdAt),
  updatedAt: isoRequired(row.updatedAt),
});

/** The company's opening hours (the default week when it never set them). */
export async function companyHours(global: GlobalDb, companyId: number) {
  const [row] = await global.selectFrom(companies, eq(companies.id, companyId));
  return row ? hoursOf(row.schedules) : DEFAULT_SCHEDULES;
}

/** A page of companies by name, matching a search on name or email, and how many match. */
export async function companiesPage(
  db: GlobalDb,
  search: string | undefined,
  options: { limit: number; offset: number },
) {
  const where = search
    ? or(ilike(companies.name, likePattern(search)), ilike(companies.email, likePattern(search)))
    : undefined;
  const [rows, count] = await Promise.all([
    db
      .selectFrom(companies, where)
      .orderBy(asc(companies.name))
      .limit(options.limit)
      .offset(options.offset),
    db.count(companies, where),
  ]);
  return { rows: rows.map(presentCompany), count };
}

/** Every company by name, each with its plan's name and price. */
export async function companiesByName(db: GlobalDb): Promise<CompanyWithPlanName[]> {
  const [rows, planRows] = await Promise.all([
    db.selectFrom(companies).orderBy(asc(companies.name)),
    db.selectFrom(plans),
  ]);
  const byId = new Map(planRows.map((plan) => [plan.id, plan]));
  return rows.map((row) => {
    const plan = byId.get(row.planId);
    return {
      ...presentCompany(row),
      plan: plan ? { id: plan.id, name: plan.name, value: Number(plan.value) } : null,
    };
  });
}

export async function insertCompany(
  db: GlobalDb,
  data: Omit<typeof companies.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>,
) {
  const [company] = await db.insert(companies, data).returning();
  return company!;
}

export async function updateCompany(db: GlobalDb, id: number, changes: CompanyChanges) {
  const [row] = await db
    .update(companies, { ...changes, updatedAt: new Date() }, eq(companies.id, id))
    .returning();
  return row ? presentCompany(row) : undefined;
}

/** Whether a company was there to delete. */
export async function deleteCompany(db: GlobalDb, id: number): Promise<boolean> {
  const deleted = await db.delete(companies, eq(companies.id, id)).returning({ id: companies.id });
  return deleted.length > 0;
}
