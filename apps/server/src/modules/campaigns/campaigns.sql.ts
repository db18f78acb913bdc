/**
 * The campaigns' rule as SQL, for statements of other modules that answer it in their own round
 * trip (the inbound store). Only repositories import this file.
 */

/**
 * What a contact's message may mean to the campaigns, as JSON `{ settings, waiting }`, with $1
 * the company: the company's campaign settings (their opt-out words) when `withSettings` (an SQL
 * boolean: the message is short enough to be one), else null; and the contact's sends that wait
 * for its confirmation in a running campaign that asks for one (the number's index answers
 * nothing in the common case). `number` is an SQL text expression.
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
