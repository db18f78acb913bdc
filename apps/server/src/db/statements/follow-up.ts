import { EVENT_INTEGRATION_TYPES } from '@atendi/shared';
import type { TenantStatement } from '../tenant';

/**
 * Whether a bot turn could act on a ticket, over `c` (its connection), `q` (its queue, null
 * when none) and `t` (the ticket), with $1 the company: the connection names a prompt or an
 * integration or offers queues, the queue names a prompt or an integration, or business hours
 * apply (the company's, or the queue's once the ticket is in one). The one place this rule is
 * written: the inbound store answers it with the stored message, `ticketTurnMayAct` for others.
 */
export const TURN_MAY_ACT = `(c.prompt_id is not null or c.integration_id is not null
      or q.prompt_id is not null or q.integration_id is not null
      or exists (select 1 from connection_queues cq
        where cq.company_id = $1 and cq.connection_id = c.id)
      or exists (select 1 from settings s
        where s.company_id = $1 and s.key = 'scheduleType'
          and (s.value = 'company' or (s.value = 'queue' and t.queue_id is not null))))`;

/** $1 company, $2 ticket: `acts`, whether a bot turn could act on it (no row: no connection). */
export const ticketTurnMayAct: TenantStatement = {
  name: 'ticket_turn_may_act_v1',
  text: `
select ${TURN_MAY_ACT} as acts
from tickets t
join connections c on c.company_id = $1 and c.id = t.whatsapp_id
left join queues q on q.company_id = $1 and q.id = t.queue_id
where t.company_id = $1 and t.id = $2`,
};

/**
 * The ids of the webhook and n8n integrations a ticket's events go to, over `c`, `q` and $1 as
 * above: the connection's first, then the queue's, as a JSON array. The one place this rule is
 * written: the inbound store answers it with the stored message, `ticketEventReceivers` for others.
 */
export const EVENT_RECEIVERS = `coalesce((select json_agg(qi.id
        order by qi.id is not distinct from c.integration_id desc)
      from queue_integrations qi
      where qi.company_id = $1 and qi.id in (c.integration_id, q.integration_id)
        and qi.type in (${EVENT_INTEGRATION_TYPES.map((type) => `'${type}'`).join(', ')})), '[]'::json)`;

/** $1 company, $2 ticket: `receivers`, the ticket's event integrations (its queue's alone without a connection). */
export const ticketEventReceivers: TenantStatement = {
  name: 'ticket_event_receivers_v1',
  text: `
select ${EVENT_RECEIVERS} as receivers
from tickets t
left join connections c on c.company_id = $1 and c.id = t.whatsapp_id
left join queues q on q.company_id = $1 and q.id = t.queue_id
where t.company_id = $1 and t.id = $2`,
};

/**
 * What a contact's message may mean to the campaigns, as JSON `{ settings, waiting }`, with $1
 * the company: the company's campaign settings (their opt-out words) when `withSettings` (an SQL
 * boolean: the message is short enough to be one), else null; and the contact's sends that wait
 * for its confirmation in a running campaign that asks for one (the number's index answers
 * nothing in the common case). `number` is an SQL text expression. The one place this is
 * written: the inbound store answers it with a contact's message, `campaignReplyState` for others.
 */
export const campaignReply = (number: string, withSettings: string) => `json_build_object(
  'settings', case when ${withSettings} then coalesce((select json_agg(json_build_object(
      'key', s.key, 'value', s.value) order by s.key)
    from campaign_settings s where s.company_id = $1), '[]'::json) end,
  'waiting', coalesce((select json_agg(json_build_object('id', cs.id, 'campaignId', cs.campaign_id))
    from campaign_shipping cs
    join campaigns c on c.company_id = cs.company_id and c.id = cs.campaign_id
    where cs.company_id = $1 and cs.number = ${number}
      and cs.confirmation_requested_at is not null and cs.confirmed_at is null
      and cs.skipped is null
      and c.status = 'EM_ANDAMENTO' and c.confirmation), '[]'::json))`;
