import { EVENT_INTEGRATION_TYPES } from '@atendi/shared';

/**
 * The integrations' rule as SQL, for statements of other modules that answer it in their own
 * round trip (the inbound store). Only repositories import this file.
 */

/**
 * The ids of the webhook and n8n integrations a ticket's events go to, over `c` (its
 * connection), `q` (its queue) and $1 the company: the connection's first, then the queue's, as
 * a JSON array.
 */
export const TICKET_EVENT_INTEGRATIONS = `coalesce((select json_agg(qi.id
        order by qi.id is not distinct from c.integration_id desc)
      from queue_integrations qi
      where qi.company_id = $1 and qi.id in (c.integration_id, q.integration_id)
        and qi.type in (${EVENT_INTEGRATION_TYPES.map((type) => `'${type}'`).join(', ')})), '[]'::json)`;
