import type { Plan } from '@atendi/shared';
import type { GlobalDb } from '../../db/global';
import { lockPlanOfCompany, planById } from './plans.repository';

/**
 * How other modules use a company's plan: its limits on what a company may create, and the
 * plan a company is on. The plans module's repository stays its own.
 */

/** What a plan counts: users, connections and queues. */
export type PlanLimit = 'users' | 'connections' | 'queues';

/**
 * Whether the company may create one more of `kind`: counted (by `count`, in the caller's
 * transaction) under a lock on the company, so concurrent creations take their turns instead of
 * all passing at once. A plan's 0, or no plan, is no limit.
 */
export async function withinPlanLimit(
  global: GlobalDb,
  companyId: number,
  kind: PlanLimit,
  count: () => Promise<number>,
): Promise<boolean> {
  const plan = await lockPlanOfCompany(global, companyId);
  const limit = plan?.[kind] ?? 0;
  return limit <= 0 || (await count()) < limit;
}

/** A plan as the API shows it, or undefined when there is none of that id. */
export async function planOf(db: GlobalDb, id: number): Promise<Plan | undefined> {
  return planById(db, id);
}
