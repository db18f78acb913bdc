import { eq } from 'drizzle-orm';
import { type GlobalDb, globalDb } from '../../db/global';
import { companies, plans } from '../../db/schema';
import type { TenantScope } from '../../db/tenant';

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
