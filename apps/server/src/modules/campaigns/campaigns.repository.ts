import {
  and,
  asc,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { GlobalDb } from '../../db/global';
import {
  campaignOptOuts,
  campaignSettings,
  campaignShipping,
  campaigns,
  companies,
  connections,
  contactListItems,
  contactLists,
  contacts,
  fileListOptions,
  fileLists,
  messages,
  tags,
} from '../../db/schema';
import { namedStatement, type TenantDb } from '../../db/tenant';
import type { CampaignReplyState } from '../../platform/events';
import { likePattern } from '../../platform/routes';
import { campaignReply } from './campaigns.sql';

export type CampaignRow = typeof campaigns.$inferSelect;
export type CampaignChanges = Partial<Omit<typeof campaigns.$inferInsert, 'id' | 'companyId'>>;
export type ShippingRow = typeof campaignShipping.$inferSelect;

const withNames = {
  campaign: campaigns,
  contactList: { id: contactLists.id, name: contactLists.name },
  whatsapp: { id: connections.id, name: connections.name },
};
export type CampaignWithNames = {
  campaign: CampaignRow;
  contactList: { id: number; name: string } | null;
  whatsapp: { id: number; name: string } | null;
};

function selectCampaigns(db: TenantDb, where?: SQL) {
  return db
    .select(withNames)
    .from(campaigns, where)
    .leftJoin(
      contactLists,
      and(
        eq(contactLists.companyId, campaigns.companyId),
        eq(contactLists.id, campaigns.contactListId),
      ),
    )
    .leftJoin(
      connections,
      and(eq(connections.companyId, campaigns.companyId), eq(connections.id, campaigns.whatsappId)),
    );
}

export async function campaignsPage(
  db: TenantDb,
  search: string | undefined,
  options: { limit: number; offset: number },
) {
  const where = search ? ilike(campaigns.name, likePattern(search)) : undefined;
  const [rows, count] = await Promise.all([
    selectCampaigns(db, where)
      .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
      .limit(options.limit)
      .offset(options.offset),
    db.count(campaigns, where),
  ]);
  return { rows, count };
}

export async function campaignById(db: TenantDb, id: number) {
  const [row] = await selectCampaigns(db, eq(campaigns.id, id));
  return row;
}

export async function insertCampaign(
  db: TenantDb,
  data: Omit<typeof campaigns.$inferInsert, 'companyId'>,
) {
  const [row] = await db.insert(campaigns, data).returning({ id: campaigns.id });
  return row!.id;
}

/** Changes a campaign while it is in one of `statuses`; false when it was not. */
export async function updateCampaign(
  db: TenantDb,
  id: number,
  changes: CampaignChanges,
  statuses?: readonly string[],
) {
  const [row] = await db
    .update(
      campaigns,
      { ...changes, updatedAt: new Date() },
      and(eq(campaigns.id, id), statuses ? inArray(campaigns.status, [...statuses]) : undefined)!,
    )
    .returning({ id: campaigns.id });
  return row !== undefined;
}

export async function deleteCampaign(db: TenantDb, id: number) {
  await db.delete(campaigns, eq(campaigns.id, id));
}

export const refExists = {
  connection: async (db: TenantDb, id: number) =>
    (await db.count(connections, eq(connections.id, id))) > 0,
  contactList: async (db: TenantDb, id: number) =>
    (await db.count(contactLists, eq(contactLists.id, id))) > 0,
  tag: async (db: TenantDb, id: number) => (await db.count(tags, eq(tags.id, id))) > 0,
  fileList: async (db: TenantDb, id: number) =>
    (await db.count(fileLists, eq(fileLists.id, id))) > 0,
};

// Settings.

export async function campaignSettingRows(db: TenantDb) {
  return db
    .select({ key: campaignSettings.key, value: campaignSettings.value })
    .from(campaignSettings)
    .orderBy(asc(campaignSettings.key));
}

export async function saveCampaignSetting(db: TenantDb, key: string, value: string) {
  await db.insert(campaignSettings, { key, value }).onConflictDoUpdate({
    target: [campaignSettings.companyId, campaignSettings.key],
    set: { value, updatedAt: new Date() },
  });
}

// Recipients.

interface RecipientsSource {
  campaignId: number;
  contactListId: number | null;
  tagListId: number | null;
}

/**
 * A campaign's recipients copied into shipping rows in one statement: its contact list's items
 * in the list's order, then the people (not groups) whose conversations carry its tag. Each
 * number once; a second copy adds only what is new (a restart, a copy cut short).
 */
const copyRecipients = namedStatement<RecipientsSource>(
  'campaign_copy_recipients_v2',
  (p) => `
insert into campaign_shipping (company_id, campaign_id, number, name, email)
select $1, ${p.campaignId}::int, number, name, email from (
  select i.number, i.name, i.email, 1 as source, i.id
  from contact_list_items i
  where i.company_id = $1 and i.contact_list_id = ${p.contactListId}::int
  union all
  select c.number, c.name, c.email, 2, c.id
  from contacts c
  where c.company_id = $1 and not c.is_group
    and exists (select 1 from tickets t join ticket_tags tt on tt.ticket_id = t.id
      where t.company_id = $1 and t.contact_id = c.id and tt.tag_id = ${p.tagListId}::int)
) recipients
order by source, id
on conflict (company_id, campaign_id, number) do nothing`,
);

/** The campaign's list and tag into its shipping rows (see copyRecipients). */
export async function copyRecipientsOf(
  db: TenantDb,
  campaignId: number,
  from: { contactListId: number | null; tagListId: number | null },
) {
  await db.run<Record<string, never>, RecipientsSource>(copyRecipients, { campaignId, ...from });
}

/** The campaign's row, locked for this transaction while it runs and its pace allows a send. */
export async function lockRunnableCampaign(tx: TenantDb, id: number, now: Date) {
  const [row] = await tx
    .selectFrom(
      campaigns,
      and(
        eq(campaigns.id, id),
        eq(campaigns.status, 'EM_ANDAMENTO'),
        or(isNull(campaigns.nextSendAt), lte(campaigns.nextSendAt, now)),
      ),
    )
    .for('update', { skipLocked: true });
  return row;
}

export async function campaignRow(db: TenantDb, id: number) {
  const [row] = await db.selectFrom(campaigns, eq(campaigns.id, id));
  return row;
}

// Written as the predicates of campaign_shipping_unsent_idx and _confirmed_idx. A campaign
// without confirmation never asks for one, so its unsent rows are the same.
const unsent = (campaignId: number) =>
  and(
    eq(campaignShipping.campaignId, campaignId),
    isNull(campaignShipping.messageId),
    isNull(campaignShipping.confirmationMessageId),
    isNull(campaignShipping.skipped),
  );
const confirmedWaiting = (campaignId: number) =>
  and(
    eq(campaignShipping.campaignId, campaignId),
    isNull(campaignShipping.messageId),
    isNull(campaignShipping.skipped),
    isNotNull(campaignShipping.confirmedAt),
  );

/**
 * The next recipient with something to send: a confirmed one waiting for its message first,
 * then one not written to yet. Null when none. Each is the first entry of a partial index.
 */
export async function nextRecipient(tx: TenantDb, campaignId: number, confirmation: boolean) {
  if (confirmation) {
    const [confirmed] = await tx
      .selectFrom(campaignShipping, confirmedWaiting(campaignId))
      .orderBy(asc(campaignShipping.confirmedAt), asc(campaignShipping.id))
      .limit(1)
      .for('update', { skipLocked: true });
    if (confirmed) return { row: confirmed, step: 'message' as const };
  }
  const [fresh] = await tx
    .selectFrom(campaignShipping, unsent(campaignId))
    .orderBy(asc(campaignShipping.id))
    .limit(1)
    .for('update', { skipLocked: true });
  if (!fresh) return undefined;
  return { row: fresh, step: confirmation ? ('confirmation' as const) : ('message' as const) };
}

/** Whether someone of the campaign is still to be written to (the campaign cannot be over). */
export async function hasUnsent(db: TenantDb, campaignId: number) {
  return (await db.countUpTo(campaignShipping, unsent(campaignId), 1)) > 0;
}

export async function updateShipping(
  tx: TenantDb,
  id: number,
  changes: Partial<Omit<typeof campaignShipping.$inferInsert, 'id' | 'companyId'>>,
) {
  await tx.update(
    campaignShipping,
    { ...changes, updatedAt: new Date() },
    eq(campaignShipping.id, id),
  );
}

export async function isOptedOut(tx: TenantDb, number: string) {
  return (await tx.count(campaignOptOuts, eq(campaignOptOuts.number, number))) > 0;
}

export async function insertOptOut(db: TenantDb, number: string) {
  await db.insert(campaignOptOuts, { number }).onConflictDoNothing();
}

/** Everything not written to yet for the number, in every campaign, is left out. */
export async function skipUnsentOf(db: TenantDb, number: string) {
  return db
    .update(
      campaignShipping,
      { skipped: 'opted-out', updatedAt: new Date() },
      and(
        eq(campaignShipping.number, number),
        isNull(campaignShipping.messageId),
        isNull(campaignShipping.skipped),
      )!,
    )
    .returning({ campaignId: campaignShipping.campaignId });
}

/** The contact for a number: found, or created with the list's name. */
export async function contactForNumber(tx: TenantDb, number: string, name: string) {
  await tx
    .insert(contacts, { number, name: name || number })
    .onConflictDoNothing({ target: [contacts.companyId, contacts.number] });
  const [row] = await tx
    .select({ id: contacts.id, name: contacts.name, isGroup: contacts.isGroup })
    .from(contacts, eq(contacts.number, number));
  return row!;
}

/** The uploaded files of a file list's options, in the list's order. */
export async function fileListFiles(tx: TenantDb, fileListId: number) {
  const rows = await tx
    .select({
      name: fileListOptions.name,
      mediaPath: fileListOptions.mediaPath,
      mediaType: fileListOptions.mediaType,
      mediaName: fileListOptions.mediaName,
    })
    .from(
      fileListOptions,
      and(eq(fileListOptions.fileListId, fileListId), isNotNull(fileListOptions.mediaPath)),
    )
    .orderBy(asc(fileListOptions.id));
  return rows.map((row) => ({ ...row, mediaPath: row.mediaPath! }));
}

export async function connectionOf(db: TenantDb, id: number | null) {
  if (!id) return undefined;
  const [row] = await db
    .select({ id: connections.id, provider: connections.provider, status: connections.status })
    .from(connections, eq(connections.id, id));
  return row;
}

/** Campaign messages claimed on a connection since `since` (the daily cap). */
export async function sendsOnConnectionSince(db: TenantDb, connectionId: number, since: Date) {
  const [row] = await db
    .select({
      value: sql<number>`count(*) filter (where ${campaignShipping.sentAt} >= ${since})
        + count(*) filter (where ${campaignShipping.confirmationRequestedAt} >= ${since})`,
    })
    .from(
      campaignShipping,
      and(
        or(
          gte(campaignShipping.sentAt, since),
          gte(campaignShipping.confirmationRequestedAt, since),
        ),
        inArray(
          campaignShipping.campaignId,
          db.select({ id: campaigns.id }).from(campaigns, eq(campaigns.whatsappId, connectionId)),
        ),
      ),
    );
  return Number(row?.value ?? 0);
}

interface ReplyOf {
  number: string;
  withSettings: boolean;
}

/** What a contact's message may mean to the campaigns, for one the inbound store did not answer. */
const campaignReplyState = namedStatement<ReplyOf>(
  'campaign_reply_state_v3',
  (p) => `select ${campaignReply(`${p.number}::text`, `${p.withSettings}::boolean`)} as reply`,
);

/**
 * For a contact's message: the campaign settings rows when `withSettings` (the message may be an
 * opt-out word), and the contact's sends that wait for its confirmation, in one statement.
 */
export async function replyState(
  db: TenantDb,
  number: string,
  withSettings: boolean,
): Promise<CampaignReplyState> {
  const [row] = await db.run<{ reply: CampaignReplyState }, ReplyOf>(campaignReplyState, {
    number,
    withSettings,
  });
  return row?.reply ?? { settings: null, waiting: [] };
}

export async function confirmShipping(db: TenantDb, ids: number[], at: Date) {
  if (ids.length === 0) return;
  await db.update(
    campaignShipping,
    { confirmedAt: at, updatedAt: at },
    and(inArray(campaignShipping.id, ids), isNull(campaignShipping.confirmedAt))!,
  );
}

export async function contactNumber(db: TenantDb, contactId: number) {
  const [row] = await db
    .select({ number: contacts.number, isGroup: contacts.isGroup })
    .from(contacts, eq(contacts.id, contactId));
  return row;
}

export async function messageBody(db: TenantDb, messageId: number) {
  const [row] = await db
    .select({ body: messages.body, fromMe: messages.fromMe })
    .from(messages, eq(messages.id, messageId));
  return row;
}

export async function deliveryState(db: TenantDb, messageId: number) {
  const [row] = await db
    .select({ sendState: messages.sendState })
    .from(messages, eq(messages.id, messageId));
  return row?.sendState ?? undefined;
}

/** The shipping row waiting for this message, marked delivered; its campaign id. */
export async function deliverShippingOfMessage(db: TenantDb, messageId: number, at: Date) {
  const [row] = await db
    .update(
      campaignShipping,
      { deliveredAt: at, updatedAt: at },
      and(eq(campaignShipping.messageId, messageId), isNull(campaignShipping.deliveredAt))!,
    )
    .returning({ campaignId: campaignShipping.campaignId });
  return row?.campaignId;
}

/** Shipping rows of a campaign whose message was handed over and went out (or failed) since. */
export async function settleHandedOver(db: TenantDb, campaignId: number, now: Date) {
  const handed = and(
    eq(campaignShipping.campaignId, campaignId),
    isNotNull(campaignShipping.messageId),
    isNull(campaignShipping.deliveredAt),
    isNull(campaignShipping.skipped),
  );
  await db.update(
    campaignShipping,
    { deliveredAt: now, updatedAt: now },
    and(
      handed,
      inArray(
        campaignShipping.messageId,
        db.select({ id: messages.id }).from(messages, eq(messages.sendState, 'sent')),
      ),
    )!,
  );
  await db.update(
    campaignShipping,
    { skipped: 'failed', updatedAt: now },
    and(
      handed,
      inArray(
        campaignShipping.messageId,
        db
          .select({ id: messages.id })
          .from(messages, inArray(messages.sendState, ['failed', 'unknown'])),
      ),
    )!,
  );
}

/**
 * Recipients still to be written to, waiting for their message to go out, or asked for a
 * confirmation since `answerSince` (the answer may still come).
 */
export async function unfinishedCount(
  db: TenantDb,
  campaignId: number,
  confirmation: boolean,
  answerSince: Date,
) {
  const open = and(
    eq(campaignShipping.campaignId, campaignId),
    isNull(campaignShipping.skipped),
    isNull(campaignShipping.deliveredAt),
  );
  return db.count(
    campaignShipping,
    confirmation
      ? and(
          open,
          or(
            isNull(campaignShipping.confirmationRequestedAt),
            isNotNull(campaignShipping.confirmedAt),
            gte(campaignShipping.confirmationRequestedAt, answerSince),
          ),
        )
      : open,
  );
}

export async function finishCampaign(db: TenantDb, id: number, at: Date) {
  const [row] = await db
    .update(
      campaigns,
      { status: 'FINALIZADA', completedAt: at, nextSendAt: null, updatedAt: at },
      and(eq(campaigns.id, id), eq(campaigns.status, 'EM_ANDAMENTO'))!,
    )
    .returning({ id: campaigns.id });
  return row !== undefined;
}

export async function report(db: TenantDb, campaignId: number) {
  const of = eq(campaignShipping.campaignId, campaignId);
  const [counts] = await db
    .select({
      total: sql<number>`count(*)::int`,
      optedOut: sql<number>`(count(*) filter (where ${campaignShipping.skipped} = 'opted-out'))::int`,
      failed: sql<number>`(count(*) filter (where ${campaignShipping.skipped} = 'failed'))::int`,
      delivered: sql<number>`(count(*) filter (where ${campaignShipping.deliveredAt} is not null))::int`,
      confirmationRequested: sql<number>`(count(*) filter (where ${campaignShipping.confirmationRequestedAt} is not null))::int`,
      confirmed: sql<number>`(count(*) filter (where ${campaignShipping.confirmedAt} is not null))::int`,
    })
    .from(campaignShipping, of);
  const minute = sql<string>`date_trunc('minute', ${campaignShipping.deliveredAt})`;
  const timeline = await db
    .select({ at: minute, delivered: sql<number>`count(*)::int` })
    .from(campaignShipping, and(of, isNotNull(campaignShipping.deliveredAt)))
    .groupBy(minute)
    .orderBy(minute)
    .limit(1_440);
  return { counts: counts!, timeline };
}

/**
 * What the original product's report counts from: each recipient's progress and each entry of
 * the list with its WhatsApp check, in as few columns as that takes (the report of a 100,000
 * recipient campaign carries them all).
 */
export async function reportRows(db: TenantDb, campaignId: number, contactListId: number | null) {
  const at = (column: AnyPgColumn) =>
    sql<string | null>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const [shipping, contacts] = await Promise.all([
    db
      .select({
        id: campaignShipping.id,
        deliveredAt: at(campaignShipping.deliveredAt),
        confirmationRequestedAt: at(campaignShipping.confirmationRequestedAt),
        confirmedAt: at(campaignShipping.confirmedAt),
      })
      .from(campaignShipping, eq(campaignShipping.campaignId, campaignId))
      .orderBy(asc(campaignShipping.id)),
    contactListId === null
      ? []
      : db
          .select({ id: contactListItems.id, isWhatsappValid: contactListItems.isWhatsappValid })
          .from(contactListItems, eq(contactListItems.contactListId, contactListId))
          .orderBy(asc(contactListItems.id)),
  ]);
  return { shipping, contacts };
}

export async function shippingOf(db: TenantDb, campaignId: number) {
  return db
    .selectFrom(campaignShipping, eq(campaignShipping.campaignId, campaignId))
    .orderBy(asc(campaignShipping.id));
}

// Sweep.

/** Companies with a campaign due to start or running. */
export async function companiesWithActiveCampaigns(global: GlobalDb, now: Date) {
  const rows = await global.selectFrom(
    companies,
    sql`exists (select 1 from ${campaigns} c where c.company_id = ${companies.id}
        and (c.status = 'EM_ANDAMENTO' or (c.status = 'PROGRAMADA' and c.scheduled_at <= ${now})))`,
  );
  return rows.map((row) => row.id);
}

export async function activeCampaigns(db: TenantDb, now: Date) {
  return db
    .select({ id: campaigns.id, status: campaigns.status })
    .from(
      campaigns,
      or(
        eq(campaigns.status, 'EM_ANDAMENTO'),
        and(eq(campaigns.status, 'PROGRAMADA'), lte(campaigns.scheduledAt, now)),
      ),
    )
    .orderBy(asc(campaigns.id));
}
