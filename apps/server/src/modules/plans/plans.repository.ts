import { eq } from 'drizzle-orm';
import { globalDb } from '../../db/global';
import { plans } from '../../db/schema';
import type { TenantScope } from '../../db/tenant';

/** The plan of the caller's company (limits on users, connections and queues). */
export async function planOfCompany(scope: TenantScope) {
  const db = globalDb(scope);
  const company = await db.companyById(scope.companyId);
  if (!company) return undefined;
  const [plan] = await db.selectFrom(plans, eq(plans.id, company.planId));
  return plan;
}
