/**
 * The bots' rule as SQL, for statements of other modules that answer it in their own round trip
 * (the inbound store). Only repositories import this file.
 */

/**
 * Whether a bot turn could act on a ticket, over `c` (its connection), `q` (its queue, null
 * when none) and `t` (the ticket), with $1 the company: the connection names a prompt or an
 * integration or offers queues, the queue names a prompt or an integration, or business hours
 * apply (the company's, or the queue's once the ticket is in one). Otherwise a turn would say
 * nothing and move nothing, so none is asked for.
 */
export const BOT_TURN_MAY_ACT = `(c.prompt_id is not null or c.integration_id is not null
      or q.prompt_id is not null or q.integration_id is not null
      or exists (select 1 from connection_queues cq
        where cq.company_id = $1 and cq.connection_id = c.id)
      or exists (select 1 from settings s
        where s.company_id = $1 and s.key = 'scheduleType'
          and (s.value = 'company' or (s.value = 'queue' and t.queue_id is not null))))`;
