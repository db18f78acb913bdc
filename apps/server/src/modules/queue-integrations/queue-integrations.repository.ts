import {
  type IntegrationDelivery,
  type IntegrationTestError,
  type IntegrationType,
  type QueueIntegration,
  SECRET_MASK,
} from '@atendi/shared';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  connections,
  integrationDeliveries,
  integrationSessions,
  prompts,
  queueIntegrations,
  queues,
  ticketNotes,
  tickets,
} from '../../db/schema';
import { namedStatement, type TenantDb } from '../../db/tenant';
import { iso, isoRequired, likePattern } from '../../platform/routes';
import { TICKET_EVENT_INTEGRATIONS } from './queue-integrations.sql';

export type IntegrationRow = typeof queueIntegrations.$inferSelect;
export type IntegrationChanges = Partial<
  Omit<typeof queueIntegrations.$inferInsert, 'id' | 'companyId'>
>;

export function presentIntegration(row: IntegrationRow): QueueIntegration {
  return {
    id: row.id,
    type: row.type as IntegrationType,
    name: row.name,
    projectName: row.projectName,
    jsonContent: row.jsonContentEncrypted ? `${SECRET_MASK}${row.jsonContentHint ?? ''}` : null,
    language: row.language,
    urlN8N: row.urlN8N,
    typebotSlug: row.typebotSlug,
    typebotExpires: row.typebotExpires,
    typebotDelayMessage: row.typebotDelayMessage,
    typebotKeywordFinish: row.typebotKeywordFinish,
    typebotKeywordRestart: row.typebotKeywordRestart,
    typebotUnknownMessage: row.typebotUnknownMessage,
    typebotRestartMessage: row.typebotRestartMessage,
    secret: row.secretEncrypted ? `${SECRET_MASK}${row.secretHint ?? ''}` : null,
    createdAt: isoRequired(row.createdAt),
    updatedAt: isoRequired(row.updatedAt),
  };
}

export async function integrationsPage(
  db: TenantDb,
  search: string | undefined,
  limit: number,
  offset: number,
) {
  const where = search ? sql`${queueIntegrations.name} ilike ${likePattern(search)}` : undefined;
  const rows = await db
    .selectFrom(queueIntegrations, where)
    .orderBy(asc(queueIntegrations.name), asc(queueIntegrations.id))
    .limit(limit)
    .offset(offset);
  const total = await db.count(queueIntegrations, where);
  return { rows, count: total };
}

export async function integrationById(db: TenantDb, id: number) {
  const [row] = await db.selectFrom(queueIntegrations, eq(queueIntegrations.id, id)).limit(1);
  return row;
}

export async function integrationExists(db: TenantDb, id: number) {
  return (await db.count(queueIntegrations, eq(queueIntegrations.id, id))) > 0;
}

export async function promptExists(db: TenantDb, id: number) {
  return (await db.count(prompts, eq(prompts.id, id))) > 0;
}

export async function insertIntegration(
  db: TenantDb,
  data: IntegrationChanges & Pick<typeof queueIntegrations.$inferInsert, 'type' | 'name'>,
) {
  const [row] = await db.insert(queueIntegrations, data).returning({ id: queueIntegrations.id });
  return row!.id;
}

export async function updateIntegration(db: TenantDb, id: number, changes: IntegrationChanges) {
  const moved = await db
    .update(queueIntegrations, { ...changes, updatedAt: new Date() }, eq(queueIntegrations.id, id))
    .returning({ id: queueIntegrations.id });
  return moved.length > 0;
}

/** Deletes the integration; the queues, connections and tickets that named it go without one. */
export async function deleteIntegration(db: TenantDb, id: number) {
  return db.transaction(async (tx) => {
    await tx.update(queues, { integrationId: null }, eq(queues.integrationId, id));
    await tx.update(connections, { integrationId: null }, eq(connections.integrationId, id));
    await tx.update(
      tickets,
      { integrationId: null, useIntegration: false },
      eq(tickets.integrationId, id),
    );
    const gone = await tx
      .delete(queueIntegrations, eq(queueIntegrations.id, id))
      .returning({ id: queueIntegrations.id });
    return gone.length > 0;
  });
}

/**
 * The integrations a ticket's connection and queue name, each with who named it (the
 * connection's first). A ticket a bot handed to a person has no bot, but still its events.
 */
export async function integrationsOfTicket(
  db: TenantDb,
  row:
    | {
        handedOverAt: Date | null;
        contactId: number;
        connectionIntegrationId: number | null;
        queueIntegrationId: number | null;
      }
    | undefined,
) {
  if (!row) return undefined;
  const ids = [row.connectionIntegrationId, row.queueIntegrationId].filter(
    (id): id is number => id !== null,
  );
  const rows = ids.length
    ? await db.selectFrom(queueIntegrations, inArray(queueIntegrations.id, ids))
    : [];
  const named = (id: number | null) => rows.find((integration) => integration.id === id);
  return {
    handedOverAt: row.handedOverAt,
    contactId: row.contactId,
    connection: named(row.connectionIntegrationId),
    queue: named(row.queueIntegrationId),
  };
}

/** A ticket's event integrations (its queue's alone without a connection). */
const ticketEventIntegrations = namedStatement<{ ticketId: number }>(
  'ticket_event_integrations_v2',
  (p) => `
select ${TICKET_EVENT_INTEGRATIONS} as receivers
from tickets t
left join connections c on c.company_id = $1 and c.id = t.whatsapp_id
left join queues q on q.company_id = $1 and q.id = t.queue_id
where t.company_id = $1 and t.id = ${p.ticketId}`,
);

/**
 * The event receivers (webhook, n8n) the ticket's connection and queue name, the connection's
 * first and each once, in one statement: nothing in the common case of a ticket without them.
 */
export async function eventReceiversOfTicket(db: TenantDb, ticketId: number): Promise<number[]> {
  const [row] = await db.run<{ receivers: number[] }, { ticketId: number }>(
    ticketEventIntegrations,
    { ticketId },
  );
  return row?.receivers ?? [];
}

/** The bot answers this ticket: it is named on the ticket (useIntegration, integrationId). */
export async function markTicketIntegration(db: TenantDb, ticketId: number, integrationId: number) {
  await db.update(
    tickets,
    { useIntegration: true, integrationId, updatedAt: sql`${tickets.updatedAt}` },
    and(
      eq(tickets.id, ticketId),
      sql`(${tickets.integrationId} is distinct from ${integrationId} or not ${tickets.useIntegration})`,
    )!,
  );
}

/** The bot lets go: it does not answer the ticket again, and a note tells the agent why. */
export async function handOverFromBot(
  db: TenantDb,
  ticketId: number,
  contactId: number,
  note: string,
) {
  await db.transaction(async (tx) => {
    await tx.update(
      tickets,
      { useIntegration: false, aiHandedOverAt: new Date() },
      eq(tickets.id, ticketId),
    );
    await tx.delete(integrationSessions, eq(integrationSessions.ticketId, ticketId));
    await tx.insert(ticketNotes, { ticketId, contactId, note, userId: null });
  });
}

export async function sessionOfTicket(db: TenantDb, ticketId: number) {
  const [row] = await db
    .selectFrom(integrationSessions, eq(integrationSessions.ticketId, ticketId))
    .limit(1);
  return row;
}

export async function saveSession(
  db: TenantDb,
  ticketId: number,
  integrationId: number,
  sessionId: string,
) {
  await db.insert(integrationSessions, { ticketId, integrationId, sessionId }).onConflictDoUpdate({
    target: [integrationSessions.companyId, integrationSessions.ticketId],
    set: { integrationId, sessionId, lastActivityAt: new Date() },
  });
}

export async function dropSession(db: TenantDb, ticketId: number) {
  await db.delete(integrationSessions, eq(integrationSessions.ticketId, ticketId));
}

// --- deliveries -------------------------------------------------------------------------------

export type DeliveryRow = typeof integrationDeliveries.$inferSelect;

export const presentDelivery = (row: DeliveryRow): IntegrationDelivery => ({
  id: row.id,
  event: row.event,
  status: row.status as IntegrationDelivery['status'],
  attempts: row.attempts,
  responseStatus: row.responseStatus,
  errorCode: row.errorCode as IntegrationDelivery['errorCode'],
  lastError: row.lastError,
  createdAt: isoRequired(row.createdAt),
  updatedAt: isoRequired(row.updatedAt),
  deliveredAt: iso(row.deliveredAt),
});

export async function insertDelivery(
  db: TenantDb,
  integrationId: number,
  event: string,
  payload: unknown,
) {
  const [row] = await db
    .insert(integrationDeliveries, { integrationId, event, payload })
    .returning({ id: integrationDeliveries.id });
  return row!.id;
}

export async function deliveryById(db: TenantDb, id: number) {
  const [row] = await db
    .select({ delivery: integrationDeliveries, integration: queueIntegrations })
    .from(integrationDeliveries, eq(integrationDeliveries.id, id))
    .innerJoin(
      queueIntegrations,
      and(
        eq(queueIntegrations.companyId, integrationDeliveries.companyId),
        eq(queueIntegrations.id, integrationDeliveries.integrationId),
      ),
    )
    .limit(1);
  return row;
}

export async function recordAttempt(
  db: TenantDb,
  id: number,
  outcome: {
    status: 'pending' | 'delivered' | 'failed';
    responseStatus: number | null;
    errorCode: IntegrationTestError | null;
    lastError: string | null;
  },
) {
  await db.update(
    integrationDeliveries,
    {
      status: outcome.status,
      responseStatus: outcome.responseStatus,
      errorCode: outcome.errorCode,
      lastError: outcome.lastError,
      attempts: sql`${integrationDeliveries.attempts} + 1`,
      ...(outcome.status === 'delivered' ? { deliveredAt: new Date() } : {}),
      updatedAt: new Date(),
    },
    eq(integrationDeliveries.id, id),
  );
}

export async function deliveriesPage(
  db: TenantDb,
  integrationId: number,
  limit: number,
  offset: number,
) {
  return db
    .selectFrom(integrationDeliveries, eq(integrationDeliveries.integrationId, integrationId))
    .orderBy(desc(integrationDeliveries.id))
    .limit(limit)
    .offset(offset);
}
