import { type Prompt, type PromptError, SECRET_MASK } from '@atendi/shared';
import { and, asc, count, desc, eq, gt, ilike, isNotNull, ne, sql } from 'drizzle-orm';
import {
  connections,
  messages,
  promptCompletions,
  prompts,
  queues,
  ticketNotes,
  tickets,
} from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { iso, isoRequired, likePattern } from '../../platform/routes';

export type PromptRow = typeof prompts.$inferSelect;
export type PromptChanges = Partial<Omit<typeof prompts.$inferInsert, 'id' | 'companyId'>>;

const withQueue = { prompt: prompts, queueName: queues.name };

export function presentPrompt(row: PromptRow, queueName: string | null): Prompt {
  return {
    id: row.id,
    name: row.name,
    prompt: row.prompt,
    voice: row.voice,
    voiceKey: row.voiceKeyEncrypted ? `${SECRET_MASK}${row.voiceKeyHint ?? ''}` : null,
    voiceRegion: row.voiceRegion,
    maxTokens: row.maxTokens,
    temperature: row.temperature,
    apiKey: row.apiKeyEncrypted ? `${SECRET_MASK}${row.apiKeyHint ?? ''}` : null,
    queueId: row.queueId,
    maxMessages: row.maxMessages,
    queue: queueName === null ? null : { id: row.queueId, name: queueName },
    lastError: (row.lastError as PromptError | null) ?? null,
    lastErrorAt: iso(row.lastErrorAt),
    createdAt: isoRequired(row.createdAt),
    updatedAt: isoRequired(row.updatedAt),
  };
}

export async function promptsPage(
  db: TenantDb,
  search: string | undefined,
  limit: number,
  offset: number,
) {
  const where = search ? ilike(prompts.name, likePattern(search)) : undefined;
  const rows = await db
    .select(withQueue)
    .from(prompts, where)
    .leftJoin(queues, and(eq(queues.companyId, prompts.companyId), eq(queues.id, prompts.queueId)))
    .orderBy(asc(prompts.name), asc(prompts.id))
    .limit(limit)
    .offset(offset);
  const total = await db.count(prompts, where);
  return { rows, count: total };
}

export async function promptById(db: TenantDb, id: number) {
  const [row] = await db
    .select(withQueue)
    .from(prompts, eq(prompts.id, id))
    .leftJoin(queues, and(eq(queues.companyId, prompts.companyId), eq(queues.id, prompts.queueId)))
    .limit(1);
  return row;
}

export async function queueExists(db: TenantDb, id: number) {
  return (await db.count(queues, eq(queues.id, id))) > 0;
}

export async function insertPrompt(
  db: TenantDb,
  data: PromptChanges & Pick<typeof prompts.$inferInsert, 'name' | 'prompt' | 'queueId'>,
) {
  const [row] = await db.insert(prompts, data).returning({ id: prompts.id });
  return row!.id;
}

export async function updatePrompt(db: TenantDb, id: number, changes: PromptChanges) {
  const moved = await db
    .update(prompts, { ...changes, updatedAt: new Date() }, eq(prompts.id, id))
    .returning({ id: prompts.id });
  return moved.length > 0;
}

/**
 * The prompt's queue answers through it (the dialog's queue field is the queue's prompt); a
 * queue it left stops naming it.
 */
export async function assignQueuePrompt(db: TenantDb, promptId: number, queueId: number) {
  await db.transaction(async (tx) => {
    await tx.update(
      queues,
      { promptId: null },
      and(eq(queues.promptId, promptId), ne(queues.id, queueId))!,
    );
    await tx.update(queues, { promptId }, eq(queues.id, queueId));
  });
}

/** The prompt's health: its provider's last failure, or none (written only when it changes). */
export async function recordPromptHealth(db: TenantDb, id: number, error: PromptError | null) {
  await db.update(
    prompts,
    { lastError: error, lastErrorAt: error ? new Date() : null },
    error ? eq(prompts.id, id) : and(eq(prompts.id, id), isNotNull(prompts.lastError))!,
  );
}

/** Deletes the prompt; the queues, connections and tickets that named it answer without one. */
export async function deletePrompt(db: TenantDb, id: number) {
  return db.transaction(async (tx) => {
    await tx.update(queues, { promptId: null }, eq(queues.promptId, id));
    await tx.update(connections, { promptId: null }, eq(connections.promptId, id));
    await tx.update(tickets, { promptId: null }, eq(tickets.promptId, id));
    const gone = await tx.delete(prompts, eq(prompts.id, id)).returning({ id: prompts.id });
    return gone.length > 0;
  });
}

/**
 * The prompt that answers a ticket: its connection's, else its queue's; none once the AI handed
 * the ticket to a person. Says which one named it, since a connection's prompt answers before
 * any menu.
 */
export async function promptOfTicket(
  db: TenantDb,
  row:
    | {
        handedOverAt: Date | null;
        contactId: number;
        connectionPromptId: number | null;
        queuePromptId: number | null;
      }
    | undefined,
) {
  if (!row || row.handedOverAt) return undefined;
  const promptId = row.connectionPromptId ?? row.queuePromptId;
  if (!promptId) return undefined;
  const [prompt] = await db.selectFrom(prompts, eq(prompts.id, promptId)).limit(1);
  if (!prompt) return undefined;
  return {
    prompt,
    contactId: row.contactId,
    by: row.connectionPromptId ? ('connection' as const) : ('queue' as const),
  };
}

/** The last `limit` messages of the ticket, oldest first: what the model reads. */
export async function conversationTail(db: TenantDb, ticketId: number, limit: number) {
  const rows = await db
    .select({
      id: messages.id,
      body: messages.body,
      fromMe: messages.fromMe,
      mediaType: messages.mediaType,
      mediaPath: messages.mediaPath,
      mediaMime: messages.mediaMime,
    })
    .from(messages, and(eq(messages.ticketId, ticketId), eq(messages.isDeleted, false)))
    .orderBy(desc(messages.id))
    .limit(limit);
  return rows.reverse();
}

/** Completions asked for the ticket since `since`: the cost guard's count. */
export async function completionsSince(db: TenantDb, ticketId: number, since: Date) {
  const [row] = await db
    .select({ value: count() })
    .from(
      promptCompletions,
      and(eq(promptCompletions.ticketId, ticketId), gt(promptCompletions.createdAt, since)),
    );
  return row?.value ?? 0;
}

export async function recordCompletion(db: TenantDb, ticketId: number, promptId: number) {
  await db.insert(promptCompletions, { ticketId, promptId });
}

/** The prompt answers this ticket: it is named on the ticket (the spec's promptId). */
export async function markTicketPrompt(db: TenantDb, ticketId: number, promptId: number) {
  await db.update(
    tickets,
    { promptId, updatedAt: sql`${tickets.updatedAt}` },
    and(eq(tickets.id, ticketId), sql`${tickets.promptId} is distinct from ${promptId}`)!,
  );
}

/** The AI lets go: no prompt answers the ticket again, and a note tells the agent why. */
export async function handOverTicket(
  db: TenantDb,
  ticketId: number,
  contactId: number,
  note: string,
) {
  await db.transaction(async (tx) => {
    await tx.update(
      tickets,
      { promptId: null, aiHandedOverAt: new Date() },
      eq(tickets.id, ticketId),
    );
    await tx.insert(ticketNotes, { ticketId, contactId, note, userId: null });
  });
}
