import { SECRET_SETTING_KEYS, type SessionUser, type SettingKey } from '@atendi/shared';
import { asc, eq } from 'drizzle-orm';
import { globalDb } from '../../db/global';
import { plans, queues, settings, userQueues, users } from '../../db/schema';
import { type TenantScope, tenantDb } from '../../db/tenant';
import { iso } from '../../platform/routes';
import { presentPlan } from '../plans/plans.present';

/** The signed-in user as login, refresh and /auth/me answer it. */
export async function loadSessionUser(
  scope: TenantScope,
  userId: number,
): Promise<SessionUser | undefined> {
  const db = tenantDb(scope);
  const [userRows, queueRows, settingRows, company] = await Promise.all([
    db.selectFrom(users, eq(users.id, userId)).limit(1),
    db
      .select({ id: queues.id, name: queues.name, color: queues.color })
      .from(userQueues, eq(userQueues.userId, userId))
      .innerJoin(queues, eq(queues.id, userQueues.queueId))
      .orderBy(asc(queues.orderQueue), asc(queues.name)),
    db.select({ key: settings.key, value: settings.value }).from(settings),
    globalDb(scope).companyById(scope.companyId),
  ]);
  const user = userRows[0];
  if (!user || !company) return undefined;
  const [plan] = await globalDb(scope).selectFrom(plans, eq(plans.id, company.planId));
  if (!plan) return undefined;
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    profile: user.profile,
    super: user.super,
    allTicket: user.allTicket,
    companyId: user.companyId,
    whatsappId: user.whatsappId,
    queues: queueRows.map((queue) => ({ ...queue, UserQueue: { queueId: queue.id, userId } })),
    company: {
      id: company.id,
      name: company.name,
      email: company.email,
      dueDate: company.dueDate,
      trialExpiration: iso(company.trialExpiration),
      status: company.status,
      planId: company.planId,
      plan: presentPlan(plan),
      settings: settingRows.filter((row) => !SECRET_SETTING_KEYS.includes(row.key as SettingKey)),
    },
  };
}
