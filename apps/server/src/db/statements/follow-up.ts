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
