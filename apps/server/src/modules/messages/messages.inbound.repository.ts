import type { Message, Ticket } from '@atendi/shared';
import { namedStatement, type TenantDb } from '../../db/tenant';
import type { TicketFollowUp } from '../../platform/events';
import { BOT_TURN_MAY_ACT } from '../automations/automations.sql';
import { campaignReply } from '../campaigns/campaigns.sql';
import { TICKET_EVENT_INTEGRATIONS } from '../queue-integrations/queue-integrations.sql';

/** One message from the network, as the inbound store takes it. */
export interface InboundRow {
  connectionId: number;
  /** The chat: the contact's number, or the group's id. */
  chatNumber: string;
  /** The contact's name as the network gives it, or the group's subject ('' when none). */
  chatName: string;
  chatLid: string | null;
  isGroup: boolean;
  /** Who wrote, in a group (a contact of its own); the contact again otherwise. */
  senderNumber: string;
  senderName: string;
  senderLid: string | null;
  providerMessageId: string;
  body: string;
  fromMe: boolean;
  mediaType: string;
  mediaPath: string | null;
  mediaName: string | null;
  mediaMime: string | null;
  ack: number;
  quotedProviderMessageId: string | null;
  participant: string | null;
  sentAt: Date;
  /** The ticket's last message as the lists show it. */
  preview: string;
  /** 1 for a contact's message, 0 for one typed on the phone. */
  unreadIncrement: number;
}

/** Rows as the store statement binds them: one array per field, the rows in the same order. */
export type InboundRows = { [K in keyof InboundRow]: InboundRow[K][] };

/** What the store statement answers for each stored row: the event payloads, the media path still to be signed. */
export interface StoredInboundRow extends Record<string, unknown> {
  /** The row's place in the rows stored together, from 1. */
  n: number;
  message: Omit<Message, 'mediaUrl'> & { mediaPath: string | null };
  ticket: Ticket;
  /** Contacts this message made: the chat's, and a group's sender. */
  created_contacts: number[];
  /** Absent when the ticket's connection is gone. */
  follow_up: TicketFollowUp | null;
}

/**
 * The whole inbound store of messages that arrived together in one statement (one round trip,
 * one commit), each row as a message alone would be stored: the contact (and the group's sender)
 * upserted by number, the live ticket found or created under its partial unique index, the
 * message inserted unless (connection, provider id) is already there, and the ticket's preview
 * and unread count moved only when the message is new. A known contact with nothing new is only
 * read and a ticket is only inserted when none is live, so the common message writes its row and
 * its ticket's preview and nothing else; the search words of all the rows are added by one run of
 * the messages' statement trigger.
 *
 * The rows must be of different people: no number (a chat's or a group sender's) twice, so no
 * row is written twice by one statement and rows are told apart by their numbers, their tickets
 * and their provider ids (the caller keeps a chat's later message for the next statement, which
 * also keeps each chat's order).
 *
 * Ratings: a contact with no live ticket who answers 1, 2 or 3 while a closed ticket of the same
 * connection waits for its rating answers that ticket: the message lands there and the rating is
 * stored with the ticket's agent, once. Any other message from the contact ends the waiting.
 *
 * It answers, for each stored row (`n`, from 1), the message and its ticket as the realtime
 * events carry them (built from the statement's own RETURNING rows, which later reads in the
 * same statement could not see), and the ids of the contacts it inserted (not those it found or
 * updated: they are announced as new). A row with no answer is a duplicate, or found a ticket
 * created by a concurrent statement that this statement's snapshot cannot see yet: the caller
 * tells the two apart and stores it again.
 *
 * It also answers what the message's listeners would read next about the ticket (`follow_up`),
 * each by the rule its module names: the bots' BOT_TURN_MAY_ACT, the integrations'
 * TICKET_EVENT_INTEGRATIONS and, for a contact's own message (not a group's), the campaigns'
 * campaignReply.
 */
const storeInboundMessages = namedStatement<InboundRows>(
  'store_inbound_messages_v1',
  (p) => `
with input as (
  select i.*,
    coalesce(nullif(btrim(i.chat_name), ''), i.chat_number) as chat_label,
    coalesce(nullif(btrim(i.sender_name), ''), i.sender_number) as sender_label
  from unnest(${p.connectionId}::int[], ${p.chatNumber}::text[], ${p.chatName}::text[],
    ${p.chatLid}::text[], ${p.isGroup}::boolean[], ${p.senderNumber}::text[],
    ${p.senderName}::text[], ${p.senderLid}::text[], ${p.providerMessageId}::text[],
    ${p.body}::text[], ${p.fromMe}::boolean[], ${p.mediaType}::text[], ${p.mediaPath}::text[],
    ${p.mediaName}::text[], ${p.mediaMime}::text[], ${p.ack}::smallint[],
    ${p.quotedProviderMessageId}::text[], ${p.participant}::text[], ${p.sentAt}::timestamptz[],
    ${p.preview}::text[], ${p.unreadIncrement}::int[])
    with ordinality as i(connection_id, chat_number, chat_name, chat_lid, is_group,
      sender_number, sender_name, sender_lid, provider_message_id, body, from_me, media_type,
      media_path, media_name, media_mime, ack, quoted_provider_message_id, participant, sent_at,
      preview, unread_increment, n)
),
known as (
  select i.n, c.* from input i
  cross join lateral (
    select c.id, c.name, c.number, c.profile_pic_url, c.is_group, false as created
    from contacts c
    where c.company_id = $1 and c.number = i.chat_number
      and (c.name <> c.number or i.chat_label = i.chat_number)
      and (i.chat_lid is null or c.lid = i.chat_lid)
    limit 1
  ) c
),
upserted as (
  insert into contacts (company_id, number, name, lid, is_group, whatsapp_id)
  select $1, i.chat_number, i.chat_label, i.chat_lid, i.is_group, i.connection_id
  from input i
  where not exists (select 1 from known k where k.n = i.n)
  order by i.chat_number
  on conflict (company_id, number) do update set
    name = case when contacts.name = contacts.number and excluded.name <> excluded.number
      then excluded.name else contacts.name end,
    lid = coalesce(excluded.lid, contacts.lid)
  returning id, name, number, profile_pic_url, is_group, (xmax = 0) as created
),
chat as (
  select * from known
  union all
  select i.n, u.* from upserted u join input i on i.chat_number = u.number
),
sender_upserted as (
  insert into contacts (company_id, number, name, lid, is_group, whatsapp_id)
  select $1, i.sender_number, i.sender_label, i.sender_lid, false, i.connection_id
  from input i
  where i.is_group
  order by i.sender_number
  on conflict (company_id, number) do update set
    name = case when contacts.name = contacts.number and excluded.name <> excluded.number
      then excluded.name else contacts.name end,
    lid = coalesce(excluded.lid, contacts.lid)
  returning id, name, number, profile_pic_url, is_group, (xmax = 0) as created
),
sender as (
  select i.n, s.* from sender_upserted s join input i on i.is_group and i.sender_number = s.number
),
live as (
  select chat.n, t.id from chat
  join input i on i.n = chat.n
  join tickets t on t.company_id = $1 and t.contact_id = chat.id
    and t.whatsapp_id = i.connection_id and t.status in ('open', 'pending')
),
rated as (
  select chat.n, r.id, r.user_id from chat
  join input i on i.n = chat.n
  cross join lateral (
    select t.id, t.user_id from tickets t
    where t.company_id = $1 and t.contact_id = chat.id and t.whatsapp_id = i.connection_id
      and t.rating_requested_at is not null
    order by t.rating_requested_at desc
    limit 1
  ) r
  where not i.from_me and btrim(i.body) in ('1', '2', '3')
    and not exists (select 1 from live l where l.n = chat.n)
),
new_ticket as (
  insert into tickets (company_id, contact_id, whatsapp_id, status, is_group, last_message, unread_messages)
  select $1, chat.id, i.connection_id, 'pending', i.is_group, i.preview, i.unread_increment
  from chat join input i on i.n = chat.n
  where not exists (select 1 from live l where l.n = chat.n)
    and not exists (select 1 from rated r where r.n = chat.n)
  order by chat.id
  on conflict (contact_id, whatsapp_id) where status in ('open', 'pending') do nothing
  returning *
),
ticket as (
  select chat.n, nt.id from new_ticket nt join chat on chat.id = nt.contact_id
  union all
  select n, id from live
  union all
  select n, id from rated
),
message as (
  insert into messages (company_id, ticket_id, contact_id, connection_id, provider_message_id,
    body, from_me, read, media_type, media_path, media_name, media_mime, ack, quoted_msg_id,
    participant, created_at, updated_at)
  select $1, ticket.id, coalesce(sender.id, chat.id), i.connection_id, i.provider_message_id,
    i.body, i.from_me, i.from_me, i.media_type, i.media_path, i.media_name, i.media_mime, i.ack,
    (select q.id from messages q
      where q.company_id = $1 and q.connection_id = i.connection_id
        and q.provider_message_id = i.quoted_provider_message_id
      limit 1),
    i.participant, i.sent_at, now()
  from input i
  join ticket on ticket.n = i.n
  join chat on chat.n = i.n
  left join sender on sender.n = i.n
  order by i.n
  on conflict (connection_id, provider_message_id) where provider_message_id is not null do nothing
  returning *
),
stored as (
  select i.n, m.* from message m
  join input i on i.connection_id = m.connection_id and i.provider_message_id = m.provider_message_id
),
bump as (
  update tickets t set last_message = i.preview,
    unread_messages = t.unread_messages
      + case when t.status = 'closed' then 0 else i.unread_increment end,
    updated_at = now(),
    rating_requested_at = case when i.from_me then t.rating_requested_at else null end
  from stored m join input i on i.n = m.n
  where t.company_id = $1 and t.id = m.ticket_id
    and not exists (select 1 from new_ticket nt where nt.id = m.ticket_id)
  returning t.*
),
rating as (
  insert into user_ratings (company_id, ticket_id, user_id, rate)
  select $1, r.id, r.user_id,
    (case btrim(i.body) when '1' then 1 when '2' then 2 else 3 end)::smallint
  from rated r join input i on i.n = r.n
  where exists (select 1 from stored m where m.n = r.n)
  on conflict (ticket_id) do nothing
),
rating_ended as (
  update tickets t set rating_requested_at = null
  from chat join input i on i.n = chat.n join stored m on m.n = chat.n
  where t.company_id = $1 and t.contact_id = chat.id and t.whatsapp_id = i.connection_id
    and t.rating_requested_at is not null and not i.from_me
    and t.id <> m.ticket_id
),
stored_ticket as (
  select * from new_ticket
  union all
  select * from bump
)
select
  m.n::int as n,
  json_build_object(
    'id', m.id, 'ticketId', m.ticket_id, 'body', m.body, 'fromMe', m.from_me, 'read', m.read,
    'mediaType', m.media_type, 'mediaPath', m.media_path, 'mediaName', m.media_name,
    'ack', m.ack, 'isDeleted', m.is_deleted, 'isEdited', m.is_edited,
    'isForwarded', m.is_forwarded,
    'contactId', m.contact_id, 'quotedMsgId', m.quoted_msg_id,
    'quotedMsg', (select json_build_object('id', q.id, 'body', q.body, 'fromMe', q.from_me,
      'mediaType', q.media_type) from messages q
      where q.company_id = $1 and q.id = m.quoted_msg_id),
    'contact', (select json_build_object('id', c.id, 'name', c.name, 'number', c.number)
      from (select id, name, number from sender where sender.n = m.n
            union all
            select id, name, number from chat where chat.n = m.n and not i.is_group) c limit 1),
    'createdAt', to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updatedAt', to_char(m.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  ) as message,
  json_build_object(
    'id', t.id, 'uuid', t.uuid, 'status', t.status, 'lastMessage', t.last_message,
    'unreadMessages', t.unread_messages, 'isGroup', t.is_group, 'chatbot', t.chatbot,
    'useIntegration', t.use_integration, 'integrationId', t.integration_id,
    'promptId', t.prompt_id, 'contactId', t.contact_id,
    'contact', (select json_build_object('id', id, 'name', name, 'number', number,
      'profilePicUrl', profile_pic_url, 'isGroup', is_group) from chat where chat.n = m.n),
    'userId', t.user_id,
    'user', (select json_build_object('id', u.id, 'name', u.name) from users u
      where u.id = t.user_id and u.company_id = $1),
    'queueId', t.queue_id,
    'queue', (select json_build_object('id', q.id, 'name', q.name, 'color', q.color)
      from queues q where q.id = t.queue_id and q.company_id = $1),
    'whatsappId', t.whatsapp_id,
    'whatsapp', (select json_build_object('id', w.id, 'name', w.name)
      from connections w where w.id = t.whatsapp_id and w.company_id = $1),
    'tags', coalesce((select json_agg(json_build_object('id', tg.id, 'name', tg.name,
      'color', tg.color) order by tg.name) from ticket_tags tt join tags tg on tg.id = tt.tag_id
      where tt.ticket_id = t.id), '[]'::json),
    'createdAt', to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updatedAt', to_char(t.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  ) as ticket,
  array(select id from chat where chat.n = m.n and created
        union all
        select id from sender where sender.n = m.n and created) as created_contacts,
  (select json_build_object(
    'botTurnMayAct', ${BOT_TURN_MAY_ACT},
    'eventIntegrations', ${TICKET_EVENT_INTEGRATIONS},
    'campaignReply', case when not i.from_me and not i.is_group
      then ${campaignReply('i.chat_number', 'true')} end)
    from connections c
    left join queues q on q.company_id = $1 and q.id = t.queue_id
    where c.company_id = $1 and c.id = t.whatsapp_id) as follow_up
from stored m
join input i on i.n = m.n
join stored_ticket t on t.id = m.ticket_id`,
);

/**
 * Messages of different people in one statement (see storeInboundMessages): each stored row's
 * answer, by its place `n` in `rows` from 1; a row with no answer was not stored.
 */
export function storeInbound(db: TenantDb, rows: readonly InboundRow[]) {
  const columns = {} as Record<keyof InboundRow, unknown[]>;
  for (const key of storeInboundMessages.keys) columns[key] = rows.map((row) => row[key]);
  return db.run<StoredInboundRow, InboundRows>(storeInboundMessages, columns as InboundRows);
}

const knownInboundMessages = namedStatement<{
  connectionIds: number[];
  providerMessageIds: string[];
}>(
  'known_inbound_messages_v1',
  (p) => `
select m.connection_id as "connectionId", m.provider_message_id as "providerMessageId"
from unnest(${p.connectionIds}::int[], ${p.providerMessageIds}::text[]) as k(connection_id, provider_message_id)
join messages m on m.connection_id = k.connection_id
  and m.provider_message_id = k.provider_message_id
where m.company_id = $1`,
);

/** Which of the rows' messages their connections already stored, as `connectionId:providerMessageId`. */
export async function knownInbound(db: TenantDb, rows: readonly InboundRow[]) {
  const found = await db.run<
    { connectionId: number; providerMessageId: string },
    { connectionIds: number[]; providerMessageIds: string[] }
  >(knownInboundMessages, {
    connectionIds: rows.map((row) => row.connectionId),
    providerMessageIds: rows.map((row) => row.providerMessageId),
  });
  return new Set(found.map((row) => `${row.connectionId}:${row.providerMessageId}`));
}

/**
 * A person first known only by a LID (WhatsApp's private id) writes again with a phone number:
 * the contact kept under the LID takes the number, so both identities stay one contact. When a
 * contact with that number already exists, both are left as they are.
 */
const adoptLidContact = namedStatement<{ number: string; lid: string }>(
  'adopt_lid_contact_v2',
  (p) => `
update contacts set number = ${p.number}::text, lid = ${p.lid}::text, updated_at = now()
where company_id = $1 and (number = ${p.lid}::text or (lid = ${p.lid}::text and number <> ${p.number}::text))
  and not exists (select 1 from contacts c where c.company_id = $1 and c.number = ${p.number}::text)`,
);

/** Moves the contact known by its number to its lid. */
export async function adoptLid(db: TenantDb, number: string, lid: string) {
  await db.run<Record<string, never>, { number: string; lid: string }>(adoptLidContact, {
    number,
    lid,
  });
}
