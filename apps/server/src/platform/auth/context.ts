import { PLAN_FLAGS, type PlanFlag, type Profile } from '@atendi/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type DbHandle, type TenantScope, toHandle } from '../../db/tenant';
import type { AccessClaims } from './tokens';

/** Who is calling, loaded fresh for every request: the first argument of every service. */
export interface RequestContext extends TenantScope {
  companyId: number;
  userId: number;
  sessionId: string;
  name: string;
  profile: Profile;
  super: boolean;
  allTicket: boolean;
  queueIds: number[];
  planFlags: Record<PlanFlag, boolean>;
  db: DbHandle;
}

interface ContextRow extends Record<string, unknown> {
  user_id: number;
  company_id: number;
  name: string;
  profile: Profile;
  super: boolean;
  all_ticket: string;
  queue_ids: number[];
  flags: Record<PlanFlag, boolean>;
}

/**
 * One query: the session must be live, the user must exist in the token's company, and the
 * profile, queues and plan are read now, so a change applies to the next request.
 */
export async function loadContext(db: Db, claims: AccessClaims): Promise<RequestContext | null> {
  const userId = Number(claims.sub);
  if (!Number.isSafeInteger(userId)) return null;
  const result = await db.execute<ContextRow>(sql`
    select u.id as user_id, u.company_id, u.name, u.profile, u.super, u.all_ticket,
      coalesce((select array_agg(uq.queue_id order by uq.queue_id) from user_queues uq
        where uq.user_id = u.id), '{}') as queue_ids,
      json_build_object(
        'useCampaigns', p.use_campaigns, 'useSchedules', p.use_schedules,
        'useInternalChat', p.use_internal_chat, 'useExternalApi', p.use_external_api,
        'useKanban', p.use_kanban, 'useOpenAi', p.use_open_ai,
        'useIntegrations', p.use_integrations) as flags
    from auth_sessions s
    join users u on u.id = s.user_id
    join companies c on c.id = u.company_id
    join plans p on p.id = c.plan_id
    where s.id = ${claims.sid} and s.revoked_at is null and s.expires_at > now()
      and u.id = ${userId} and u.company_id = ${claims.cid}`);
  const row = result.rows[0];
  if (!row) return null;
  return {
    companyId: row.company_id,
    userId: row.user_id,
    sessionId: claims.sid,
    name: row.name,
    profile: row.profile,
    super: row.super,
    allTicket: row.all_ticket === 'enabled',
    queueIds: row.queue_ids,
    planFlags: Object.fromEntries(
      PLAN_FLAGS.map((flag) => [flag, Boolean(row.flags[flag])]),
    ) as Record<PlanFlag, boolean>,
    db: toHandle(db),
  };
}

/** Every plan flag on: the server's own work is not limited by the company's plan. */
const ALL_PLAN_FLAGS: Readonly<Record<PlanFlag, boolean>> = Object.freeze(
  Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, true])) as Record<PlanFlag, boolean>,
);

/** A context for work the server does on a company's behalf (jobs, inbound messages, seeds). */
export function systemContext(db: DbHandle, companyId: number): RequestContext {
  return {
    companyId,
    userId: 0,
    sessionId: 'system',
    name: 'system',
    profile: 'admin',
    super: false,
    allTicket: true,
    queueIds: [],
    // Built once: this runs several times for every inbound message.
    planFlags: ALL_PLAN_FLAGS,
    db,
  };
}
