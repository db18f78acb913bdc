import type { TenantStatement } from '../tenant';
import { campaignReply, EVENT_RECEIVERS, TURN_MAY_ACT } from './follow-up';

/**
 * The whole inbound store in one statement (one round trip, one commit): the contact (and the
 * group's sender) upserted by number, the live ticket found or created under its partial unique
 * index, the message inserted unless (connection, provider id) is already there, and the
 * ticket's preview and unread count moved only when the message is new. A known contact with
 * nothing new is only read and a ticket is only inserted when none is live, so the common case
 * writes the message and the ticket's preview and nothing else.
 *
 * Ratings: a contact with no live ticket who answers 1, 2 or 3 while a closed ticket of the same
 * connection waits for its rating answers that ticket: the message lands there and the rating is
 * stored with the ticket's agent, once. Any other message from the contact ends the waiting.
 *
 * $1 company, $2 connection, $3 chat number, $4 chat name, $5 chat lid, $6 is group,
 * $7 sender number, $8 sender name, $9 sender lid, $10 provider message id, $11 body,
 * $12 from me, $13 media type, $14 media path, $15 media name, $16 media mime, $17 ack,
 * $18 quoted provider id, $19 participant, $20 sent at, $21 preview, $22 unread increment.
 *
 * It answers the stored message and its ticket as the realtime events carry them (built from
 * the statement's own RETURNING rows, which later reads in the same statement could not see),
 * so a delivery costs one round trip, and the ids of the contacts it inserted (not those it
 * found or updated: they are announced as new). An empty answer means a duplicate, or a ticket
 * created by a concurrent statement that this statement's snapshot cannot see yet: the caller
 * tells the two apart and runs it again.
 *
 * It also answers what the message's listeners would read next about the ticket (`follow_up`):
 * whether a bot turn could act on it (its connection names a prompt or an integration or offers
 * queues, its queue names a prompt or an integration, or business hours apply: the company's, or
 * its queue's once it is in one), the webhook and n8n integrations its connection and queue
 * name, the connection's first, and, for a contact's own message (not a group's), what it may
 * mean to the campaigns (an opt-out word, a confirmation).
 */
export const storeInboundMessage: TenantStatement = {
  name: 'store_inbound_message_v7',
  text: `
with known as (
  select id, name, number, profile_pic_url, is_group, false as created from contacts
  where company_id = $1 and number = $3::text
    and (name <> number or coalesce(nullif(btrim($4::text), ''), $3::text) = $3::text)
    and ($5::text is null or lid = $5::text)
),
upserted as (
  insert into contacts (company_id, number, name, lid, is_group, whatsapp_id)
  select $1, $3::text, coalesce(nullif(btrim($4::text), ''), $3::text), $5::text, $6::boolean, $2::int
  where not exists (select 1 from known)
  on conflict (company_id, number) do update set
    name = case when contacts.name = contacts.number and excluded.name <> excluded.number
      then excluded.name else contacts.name end,
    lid = coalesce(excluded.lid, contacts.lid)
  returning id, name, number, profile_pic_url, is_group, (xmax = 0) as created
),
chat as (
  select * from known
  union all
  select * from upserted
),
sender as (
  insert into contacts (company_id, number, name, lid, is_group, whatsapp_id)
  select $1, $7::text, coalesce(nullif(btrim($8::text), ''), $7::text), $9::text, false, $2::int
  where $6::boolean
  on conflict (company_id, number) do update set
    name = case when contacts.name = contacts.number and excluded.name <> excluded.number
      then excluded.name else contacts.name end,
    lid = coalesce(excluded.lid, contacts.lid)
  returning id, name, number, profile_pic_url, is_group, (xmax = 0) as created
),
live as (
  select t.id from tickets t, chat
  where t.company_id = $1 and t.contact_id = chat.id and t.whatsapp_id = $2::int
    and t.status in ('open', 'pending')
),
rated as (
  select t.id, t.user_id from tickets t, chat
  where not exists (select 1 from live) and not $12::boolean and btrim($11::text) in ('1', '2', '3')
    and t.company_id = $1 and t.contact_id = chat.id and t.whatsapp_id = $2::int
    and t.rating_requested_at is not null
  order by t.rating_requested_at desc
  limit 1
),
new_ticket as (
  insert into tickets (company_id, contact_id, whatsapp_id, status, is_group, last_message, unread_messages)
  select $1, chat.id, $2::int, 'pending', $6::boolean, $21::text, $22::int from chat
  where not exists (select 1 from live) and not exists (select 1 from rated)
  on conflict (contact_id, whatsapp_id) where status in ('open', 'pending') do nothing
  returning *
),
ticket as (
  select id from new_ticket
  union all
  select id from live
  union all
  select id from rated
),
quoted as (
  select id, body, from_me, media_type from messages
  where company_id = $1 and connection_id = $2::int and provider_message_id = $18::text
  limit 1
),
message as (
  insert into messages (company_id, ticket_id, contact_id, connection_id, provider_message_id,
    body, from_me, read, media_type, media_path, media_name, media_mime, ack, quoted_msg_id,
    participant, created_at, updated_at)
  select $1, ticket.id, coalesce((select id from sender), (select id from chat)), $2::int,
    $10::text, $11::text, $12::boolean, $12::boolean, $13::text, $14::text, $15::text, $16::text,
    $17::smallint, (select id from quoted), $19::text, $20::timestamptz, now()
  from ticket
  limit 1
  on conflict (connection_id, provider_message_id) where provider_message_id is not null do nothing
  returning *
),
bump as (
  update tickets set last_message = $21::text,
    unread_messages = unread_messages + case when status = 'closed' then 0 else $22::int end,
    updated_at = now(),
    rating_requested_at = case when $12::boolean then rating_requested_at else null end
  where company_id = $1 and id = (select ticket_id from message)
    and not exists (select 1 from new_ticket)
  returning *
),
rating as (
  insert into user_ratings (company_id, ticket_id, user_id, rate)
  select $1, rated.id, rated.user_id,
    (case btrim($11::text) when '1' then 1 when '2' then 2 else 3 end)::smallint from rated
  where exists (select 1 from message)
  on conflict (ticket_id) do nothing
),
rating_ended as (
  update tickets set rating_requested_at = null
  where company_id = $1 and contact_id = (select id from chat) and whatsapp_id = $2::int
    and rating_requested_at is not null and not $12::boolean
    and id <> (select ticket_id from message)
),
stored_ticket as (
  select * from new_ticket
  union all
  select * from bump
)
select
  json_build_object(
    'id', m.id, 'ticketId', m.ticket_id, 'body', m.body, 'fromMe', m.from_me, 'read', m.read,
    'mediaType', m.media_type, 'mediaPath', m.media_path, 'mediaName', m.media_name,
    'ack', m.ack, 'isDeleted', m.is_deleted, 'isEdited', m.is_edited,
    'contactId', m.contact_id, 'quotedMsgId', m.quoted_msg_id,
    'quotedMsg', (select json_build_object('id', q.id, 'body', q.body, 'fromMe', q.from_me,
      'mediaType', q.media_type) from quoted q),
    'contact', (select json_build_object('id', c.id, 'name', c.name, 'number', c.number)
      from (select id, name, number from sender
            union all select id, name, number from chat where not $6::boolean) c limit 1),
    'createdAt', to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updatedAt', to_char(m.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  ) as message,
  json_build_object(
    'id', t.id, 'uuid', t.uuid, 'status', t.status, 'lastMessage', t.last_message,
    'unreadMessages', t.unread_messages, 'isGroup', t.is_group, 'chatbot', t.chatbot,
    'useIntegration', t.use_integration, 'integrationId', t.integration_id,
    'promptId', t.prompt_id, 'contactId', t.contact_id,
    'contact', (select json_build_object('id', id, 'name', name, 'number', number,
      'profilePicUrl', profile_pic_url, 'isGroup', is_group) from chat),
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
  array(select id from chat where created union all select id from sender where created)
    as created_contacts,
  (select json_build_object(
    'turn', ${TURN_MAY_ACT},
    'receivers', ${EVENT_RECEIVERS},
    'campaignReply', case when not $12::boolean and not $6::boolean
      then ${campaignReply('$3::text', 'true')} end)
    from connections c
    left join queues q on q.company_id = $1 and q.id = t.queue_id
    where c.company_id = $1 and c.id = t.whatsapp_id) as follow_up
from message m
join stored_ticket t on t.id = m.ticket_id`,
};

/**
 * A person first known only by a LID (WhatsApp's private id) writes again with a phone number:
 * the contact kept under the LID takes the number, so both identities stay one contact. When a
 * contact with that number already exists, both are left as they are.
 *
 * $1 company, $2 phone number, $3 LID.
 */
export const adoptLidContact: TenantStatement = {
  name: 'adopt_lid_contact_v1',
  text: `
update contacts set number = $2::text, lid = $3::text, updated_at = now()
where company_id = $1 and (number = $3::text or (lid = $3::text and number <> $2::text))
  and not exists (select 1 from contacts c where c.company_id = $1 and c.number = $2::text)`,
};
