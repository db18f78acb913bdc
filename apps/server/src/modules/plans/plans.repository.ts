import type { Plan, PlanCreate } from '@atendi/shared';
import { asc, eq } from 'drizzle-orm';
import { type GlobalDb, globalDb } from '../../db/global';
import { companies, plans } from '../../db/schema';
import type { TenantScope } from '../../db/tenant';
import { presentPlan } from './plans.present';

/** The catalogue, cheapest first. */
export async function plansByPrice(db: GlobalDb): Promise<Plan[]> {
  const rows = await db.selectFrom(plans).orderBy(asc(plans.value), asc(plans.id));
  return rows.map(presentPlan);
}

export async function planById(db: GlobalDb, id: number): Promise<Plan | undefined> {
  const [row] = await db.selectFrom(plans, eq(plans.id, id));
  return row ? presentPlan(row) : undefined;
}

export async function insertPlan(db: GlobalDb, data: PlanCreate): Promise<Plan> {
  const [row] = await db.insert(plans, data).returning();
  return presentPlan(row!);
}

export async function updatePlan(db: GlobalDb, id: number, data: Partial<PlanCreate>) {
  const [row] = await db
    .update(plans, { ...data, updatedAt: new Date() }, eq(plans.id, id))
    .returning();
  return row ? presentPlan(row) : undefined;
}

/** Whether a plan was there to delete. */
export async function deletePlan(db: GlobalDb, id: number): Promise<boolean> {
  const deleted = await db.delete(plans, eq(plans.id, id)).returning({ id: plans.id });
  return deleted.length > 0;
}

/** Whether some company is on the plan. */
export async function planInUse(db: GlobalDb, id: number): Promise<boolean> {
  const [inUse] = await db.selectFrom(companies, eq(companies.planId, id)).limit(1);
  return inUse !== undefined;
}

/** The plan of the caller's company (limits on users, connections and queues). */
export async function planOfCompany(scope: TenantScope) {
  const db = globalDb(scope);
  const company = await db.companyById(scope.companyId);
  if (!company) return undefined;
  const [plan] = await db.selectFrom(plans, eq(plans.id, company.planId));
  return plan;
}

/**
 * The plan of a company, with the company row locked until the transaction ends: limit checks
 * made under it count one after another instead of all passing at once. 'no key update' leaves
 * the company's other writes (which only take a key-share lock for their foreign key) unblocked.
 */
export async function lockPlanOfCompany(db: GlobalDb, companyId: number) {
  const [company] = await db
    .selectFrom(companies, eq(companies.id, companyId))
    .for('no key update');
  if (!company) return undefined;
  const [plan] = await db.selectFrom(plans, eq(plans.id, company.planId));
  return plan;
}
