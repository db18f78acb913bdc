import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { GlobalDb } from '../../db/global';
import {
  companies,
  connectionQueues,
  connections,
  contacts,
  messages,
  queueOptions,
  queues,
  tickets,
} from '../../db/schema';
import { namedStatement, type TenantDb } from '../../db/tenant';
import type { BotQueue } from './automations.bot';
import { BOT_TURN_MAY_ACT } from './automations.sql';

/** What a bot turn reads of the ticket: where the bot left it and who the contact is. */
export async function botTicket(db: TenantDb, id: number) {
  const [row] = await db
    .select({
      id: tickets.id,
      status: tickets.status,
      userId: tickets.userId,
      isGroup: tickets.isGroup,
      queueId: tickets.queueId,
      queueOptionId: tickets.queueOptionId,
      chatbot: tickets.chatbot,
      rounds: tickets.amountUsedBotQueues,
      botMessageId: tickets.botMessageId,
      botSince: tickets.botSince,
      outOfHoursUntil: tickets.outOfHoursUntil,
      connectionId: tickets.whatsappId,
      createdAt: tickets.createdAt,
      contactName: contacts.name,
    })
    .from(tickets, eq(tickets.id, id))
    .innerJoin(contacts, eq(contacts.id, tickets.contactId));
  return row;
}
export type BotTicket = NonNullable<Awaited<ReturnType<typeof botTicket>>>;

/** `acts`, whether a bot turn could act on the ticket (no row: it has no connection). */
const botTurnMayActOnTicket = namedStatement<{ ticketId: number }>(
  'bot_turn_may_act_v2',
  (p) => `
select ${BOT_TURN_MAY_ACT} as acts
from tickets t
join connections c on c.company_id = $1 and c.id = t.whatsapp_id
left join queues q on q.company_id = $1 and q.id = t.queue_id
where t.company_id = $1 and t.id = ${p.ticketId}`,
);

/**
 * Whether a bot turn on the ticket could answer or move it at all, in one statement: its
 * connection names a prompt or an integration or offers queues, its queue names a prompt or an
 * integration, or business hours apply to it (the company's, or its queue's once it is in one).
 * Otherwise a turn would say nothing and move nothing but its cursor, so none is asked for.
 */
export async function turnMayAct(db: TenantDb, ticketId: number): Promise<boolean> {
  const [row] = await db.run<{ acts: boolean }, { ticketId: number }>(botTurnMayActOnTicket, {
    ticketId,
  });
  return row?.acts === true;
}

/** The newest message from the contact after `afterId`: the answer of this turn. */
export async function latestAnswer(db: TenantDb, ticketId: number, afterId: number | null) {
  const [row] = await db
    .select({ id: messages.id, body: messages.body })
    .from(
      messages,
      and(
        eq(messages.ticketId, ticketId),
        eq(messages.fromMe, false),
        afterId === null ? undefined : gt(messages.id, afterId),
      ),
    )
    .orderBy(desc(messages.id))
    .limit(1);
  return row;
}

/** The connection's automation fields and its queues in menu order, each with its menu tree. */
export async function connectionMenus(db: TenantDb, connectionId: number) {
  const [connection] = await db
    .select({
      greetingMessage: connections.greetingMessage,
      outOfHoursMessage: connections.outOfHoursMessage,
      maxUseBotQueues: connections.maxUseBotQueues,
    })
    .from(connections, eq(connections.id, connectionId));
  if (!connection) return undefined;
  const queueRows = await db
    .select({
      id: queues.id,
      name: queues.name,
      greetingMessage: queues.greetingMessage,
      outOfHoursMessage: queues.outOfHoursMessage,
      schedules: queues.schedules,
    })
    .from(connectionQueues, eq(connectionQueues.connectionId, connectionId))
    .innerJoin(queues, eq(queues.id, connectionQueues.queueId))
    .orderBy(sql`${queues.orderQueue} asc nulls last`, asc(queues.name));
  const ids = queueRows.map((queue) => queue.id);
  const options = ids.length
    ? await db
        .select({
          id: queueOptions.id,
          queueId: queueOptions.queueId,
          parentId: queueOptions.parentId,
          option: queueOptions.option,
          title: queueOptions.title,
          message: queueOptions.message,
        })
        .from(queueOptions, inArray(queueOptions.queueId, ids))
    : [];
  const menuQueues: (BotQueue &
    Pick<(typeof queueRows)[number], 'outOfHoursMessage' | 'schedules'>)[] = queueRows.map(
    (queue) => ({
      ...queue,
      options: options.filter((option) => option.queueId === queue.id),
    }),
  );
  return { ...connection, queues: menuQueues };
}

/** A queue's out-of-hours fields (a ticket already in a queue, outside the bot). */
export async function queueHours(db: TenantDb, queueId: number) {
  const [row] = await db
    .select({ outOfHoursMessage: queues.outOfHoursMessage, schedules: queues.schedules })
    .from(queues, eq(queues.id, queueId));
  return row;
}

export interface BotWrite {
  queueId?: number | null;
  queueOptionId?: number | null;
  chatbot?: boolean;
  amountUsedBotQueues?: number;
  botSince?: Date | null;
  botAt?: Date | null;
  outOfHoursUntil?: Date | null;
}

/**
 * The turn's claim and its outcome in one statement: applied only if no other turn moved the
 * ticket's cursor since it was read and the ticket still waits without an agent, so two turns
 * never answer the same messages.
 */
export async function advanceBot(
  db: TenantDb,
  ticket: Pick<BotTicket, 'id' | 'botMessageId'>,
  answeredId: number,
  set: BotWrite,
): Promise<boolean> {
  const moved = await db
    .update(
      tickets,
      { ...set, botMessageId: answeredId, updatedAt: sql`${tickets.updatedAt}` },
      and(
        eq(tickets.id, ticket.id),
        ticket.botMessageId === null
          ? isNull(tickets.botMessageId)
          : eq(tickets.botMessageId, ticket.botMessageId),
        eq(tickets.status, 'pending'),
        isNull(tickets.userId),
      )!,
    )
    .returning({ id: tickets.id });
  return moved.length > 0;
}

/** Bot tickets whose contact went quiet before `before` on a connection with a transfer. */
export async function idleBotTickets(db: TenantDb, now: Date) {
  return db
    .select({
      id: tickets.id,
      queueId: tickets.queueId,
      transferQueueId: connections.transferQueueId,
      timeToTransfer: connections.timeToTransfer,
      timeUseBotQueues: connections.timeUseBotQueues,
      botAt: tickets.botAt,
      botSince: tickets.botSince,
    })
    .from(
      tickets,
      and(
        isNotNull(tickets.botAt),
        eq(tickets.status, 'pending'),
        lt(tickets.botAt, new Date(now.getTime() - 60_000)),
        sql`((${connections.timeToTransfer} > 0 and ${connections.transferQueueId} is not null
          and ${tickets.botAt} < ${now}::timestamptz - make_interval(mins => ${connections.timeToTransfer}))
          or (${connections.timeUseBotQueues} > 0
          and ${tickets.botSince} < ${now}::timestamptz - make_interval(mins => ${connections.timeUseBotQueues})))`,
      ),
    )
    .innerJoin(connections, eq(connections.id, tickets.whatsappId))
    .limit(500);
}

/** The bot lets go of a ticket (and, for an idle transfer, hands it to another queue). */
export async function releaseFromBot(
  db: TenantDb,
  id: number,
  botAt: Date,
  queueId: number | null | undefined,
) {
  const moved = await db
    .update(
      tickets,
      {
        chatbot: false,
        botAt: null,
        botSince: null,
        ...(queueId !== undefined ? { queueId, queueOptionId: null } : {}),
        updatedAt: new Date(),
      },
      and(eq(tickets.id, id), eq(tickets.botAt, botAt), eq(tickets.status, 'pending'))!,
    )
    .returning({ id: tickets.id });
  return moved.length > 0;
}

/**
 * Live tickets of connections that close idle tickets, where the company spoke last and the
 * contact has been silent for the connection's `expiresTicket` minutes.
 */
export async function expiredTickets(db: TenantDb, now: Date) {
  const last = sql`(select m.from_me from messages m
    where m.company_id = ${tickets.companyId} and m.ticket_id = ${tickets.id}
    order by m.id desc limit 1)`;
  return db
    .select({
      id: tickets.id,
      status: tickets.status,
      updatedAt: tickets.updatedAt,
      message: connections.expiresInactiveMessage,
    })
    .from(
      tickets,
      and(
        inArray(tickets.status, ['open', 'pending']),
        eq(tickets.isGroup, false),
        sql`${connections.expiresTicket} > 0
          and ${tickets.updatedAt} < ${now}::timestamptz - make_interval(mins => ${connections.expiresTicket})
          and ${last} = true`,
      ),
    )
    .innerJoin(connections, eq(connections.id, tickets.whatsappId))
    .limit(500);
}

/** Ratings asked before `before` and never answered end. */
export async function endStaleRatings(db: TenantDb, before: Date) {
  return db
    .update(
      tickets,
      { ratingRequestedAt: null },
      and(isNotNull(tickets.ratingRequestedAt), lt(tickets.ratingRequestedAt, before))!,
    )
    .returning({ id: tickets.id });
}

/** Companies with something the sweep may act on: a connection with a timer. */
export async function companiesWithTimers(global: GlobalDb) {
  const rows = await global.selectFrom(
    companies,
    sql`exists (select 1 from connections c where c.company_id = ${companies.id}
        and (c.expires_ticket > 0 or c.time_to_transfer > 0 or c.time_use_bot_queues > 0))
        or exists (select 1 from tickets t where t.company_id = ${companies.id}
        and t.rating_requested_at is not null)`,
  );
  return rows.map((row) => row.id);
}
