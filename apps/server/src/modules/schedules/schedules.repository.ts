import type { ScheduleStatus } from '@atendi/shared';
import {
  and,
  asc,
  eq,
  exists,
  ilike,
  inArray,
  isNull,
  lt,
  lte,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { GlobalDb } from '../../db/global';
import { companies, connections, contacts, messages, schedules, users } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { likePattern } from '../../platform/routes';

export type ScheduleRow = typeof schedules.$inferSelect;
type ScheduleChanges = Partial<
  Pick<
    typeof schedules.$inferInsert,
    | 'body'
    | 'contactId'
    | 'sendAt'
    | 'whatsappId'
    | 'status'
    | 'mediaPath'
    | 'mediaName'
    | 'messageId'
  >
>;

const withContact = {
  schedule: schedules,
  contact: { id: contacts.id, name: contacts.name, number: contacts.number },
};
export type ScheduleWithContact = {
  schedule: ScheduleRow;
  contact: { id: number; name: string; number: string } | null;
};

function selectSchedules(db: TenantDb, where?: SQL) {
  // The composite key (company_id, contact_id) keeps the contact inside the company.
  return db
    .select(withContact)
    .from(schedules, where)
    .leftJoin(contacts, eq(contacts.id, schedules.contactId));
}

/** A page of the company's schedules by send time, of one contact and matching a search. */
export async function schedulesPage(
  db: TenantDb,
  filter: { search?: string; contactId?: number },
  options: { limit: number; offset: number },
) {
  const pattern = filter.search ? likePattern(filter.search) : undefined;
  const where = and(
    filter.contactId ? eq(schedules.contactId, filter.contactId) : undefined,
    pattern
      ? or(
          ilike(schedules.body, pattern),
          inArray(
            schedules.contactId,
            db.select({ id: contacts.id }).from(contacts, ilike(contacts.name, pattern)),
          ),
        )
      : undefined,
  );
  const [rows, count] = await Promise.all([
    selectSchedules(db, where)
      .orderBy(asc(schedules.sendAt), asc(schedules.id))
      .limit(options.limit)
      .offset(options.offset),
    db.count(schedules, where),
  ]);
  return { rows, count };
}

export async function scheduleById(db: TenantDb, id: number) {
  const [row] = await selectSchedules(db, eq(schedules.id, id));
  return row;
}

export async function insertSchedule(
  db: TenantDb,
  data: Pick<
    typeof schedules.$inferInsert,
    'body' | 'contactId' | 'sendAt' | 'whatsappId' | 'userId' | 'mediaPath' | 'mediaName'
  >,
) {
  const [row] = await db.insert(schedules, data).returning({ id: schedules.id });
  return row!.id;
}

/** Changes a schedule that was not sent yet; false when it was (or is gone). */
export async function updateUnsentSchedule(db: TenantDb, id: number, data: ScheduleChanges) {
  const [row] = await db
    .update(
      schedules,
      { ...data, updatedAt: new Date() },
      // Not sent, and not being sent (a message made of it and not given up as an error).
      and(
        eq(schedules.id, id),
        isNull(schedules.sentAt),
        ne(schedules.status, 'ENVIADA'),
        or(isNull(schedules.messageId), eq(schedules.status, 'ERRO')),
      )!,
    )
    .returning({ id: schedules.id });
  return row !== undefined;
}

/** Sets or clears the attached image, sent or not (the sent message keeps its own copy). */
export async function setScheduleMedia(
  db: TenantDb,
  id: number,
  media: { mediaPath: string | null; mediaName: string | null },
) {
  const [row] = await db
    .update(schedules, { ...media, updatedAt: new Date() }, eq(schedules.id, id))
    .returning({ id: schedules.id });
  return row !== undefined;
}

export async function deleteSchedule(db: TenantDb, id: number) {
  await db.delete(schedules, eq(schedules.id, id));
}

export const contactExists = async (db: TenantDb, id: number) =>
  (await db.count(contacts, eq(contacts.id, id))) > 0;

export const connectionExists = async (db: TenantDb, id: number) =>
  (await db.count(connections, eq(connections.id, id))) > 0;

// Sending (see SchedulesService.send).

/**
 * The schedule is taken for sending by exactly one caller, only once it is due and while no
 * message was made of it: two instances, a retried job and the sweep find it taken. The row stays
 * locked until the transaction that makes its message commits.
 */
export async function claimDueSchedule(tx: TenantDb, id: number, now: Date) {
  const [row] = await tx
    .update(
      schedules,
      { updatedAt: now },
      and(
        eq(schedules.id, id),
        eq(schedules.status, 'PENDENTE'),
        lte(schedules.sendAt, now),
        isNull(schedules.messageId),
      )!,
    )
    .returning();
  return row;
}

/** What a claimed schedule goes to: its contact, its connection (else the default one), its user. */
export async function sendingTarget(tx: TenantDb, schedule: ScheduleRow) {
  const [contact] = await tx
    .select({ id: contacts.id, name: contacts.name, isGroup: contacts.isGroup })
    .from(contacts, eq(contacts.id, schedule.contactId));
  const [connection] = await tx
    .select({ id: connections.id, provider: connections.provider })
    .from(
      connections,
      schedule.whatsappId
        ? eq(connections.id, schedule.whatsappId)
        : eq(connections.isDefault, true),
    )
    .orderBy(asc(connections.id))
    .limit(1);
  const [user] = schedule.userId
    ? await tx.select({ id: users.id }).from(users, eq(users.id, schedule.userId))
    : [];
  return { contact, connection, userId: user?.id ?? null };
}

/** The message a claimed schedule became, in the transaction that claimed it. */
export async function recordScheduleMessage(
  tx: TenantDb,
  id: number,
  sending: { ticketId: number; messageId: number; whatsappId: number },
) {
  await tx.update(schedules, sending, eq(schedules.id, id));
}

/** A waiting schedule's end: sent when the network took its message, else an error. */
export async function settleSchedule(
  db: TenantDb,
  id: number,
  outcome: { status: 'ENVIADA'; sentAt: Date } | { status: Extract<ScheduleStatus, 'ERRO'> },
) {
  const [row] = await db
    .update(
      schedules,
      outcome.status === 'ERRO'
        ? { status: 'ERRO', sentAt: null, updatedAt: new Date() }
        : { ...outcome, updatedAt: new Date() },
      and(eq(schedules.id, id), eq(schedules.status, 'PENDENTE'))!,
    )
    .returning({ id: schedules.id });
  return row !== undefined;
}

/** The schedule waiting for this message, marked sent (undefined: none was waiting for it). */
export async function settleScheduleOfMessage(db: TenantDb, messageId: number, sentAt: Date) {
  const [row] = await db
    .update(
      schedules,
      { status: 'ENVIADA', sentAt, updatedAt: sentAt },
      and(eq(schedules.messageId, messageId), eq(schedules.status, 'PENDENTE'))!,
    )
    .returning({ id: schedules.id });
  return row?.id;
}

/** Where the outbound message of a schedule stands (undefined: it was deleted). */
export async function deliveryState(db: TenantDb, messageId: number) {
  const [row] = await db
    .select({ sendState: messages.sendState })
    .from(messages, eq(messages.id, messageId));
  return row?.sendState ?? undefined;
}

const isWaiting = (now: Date) => and(eq(schedules.status, 'PENDENTE'), lte(schedules.sendAt, now));

/** Companies with a schedule due and still waiting (read on schedules_due_idx). */
export async function companiesWithDueSchedules(global: GlobalDb, now: Date) {
  const rows = await global.selectFrom(
    companies,
    sql`exists (select 1 from ${schedules} s where s.company_id = ${companies.id}
        and s.status = 'PENDENTE' and s.send_at <= ${now})`,
  );
  return rows.map((row) => row.id);
}

/**
 * A company's due schedules still waiting, oldest first: those no job sent (lost), and those
 * whose message went out since, or was given up by its sender long enough ago (`settledBefore`)
 * that no retry of its job is still coming.
 */
export async function dueSchedules(db: TenantDb, now: Date, settledBefore: Date, limit: number) {
  return db
    .select({ id: schedules.id, messageId: schedules.messageId })
    .from(
      schedules,
      and(
        isWaiting(now),
        or(
          isNull(schedules.messageId),
          lt(schedules.updatedAt, settledBefore),
          exists(
            db
              .select({ id: messages.id })
              .from(
                messages,
                and(eq(messages.id, schedules.messageId), eq(messages.sendState, 'sent')),
              ),
          ),
        ),
      ),
    )
    .orderBy(asc(schedules.sendAt), asc(schedules.id))
    .limit(limit);
}
