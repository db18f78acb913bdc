import type { TenantStatement } from '../tenant';
import { campaignReply } from './follow-up';

/**
 * What a contact's message may mean to the campaigns (see campaignReply), for a message the
 * inbound store did not answer it with.
 *
 * $1 company, $2 number, $3 whether the message could be an opt-out word.
 */
export const campaignReplyState: TenantStatement = {
  name: 'campaign_reply_state_v2',
  text: `select ${campaignReply('$2::text', '$3::boolean')} as reply`,
};

/**
 * A campaign's recipients copied into shipping rows in one statement: its contact list's items
 * in the list's order, then the people (not groups) whose conversations carry its tag. Each
 * number once; a second copy adds only what is new (a restart, a copy cut short).
 *
 * $1 company, $2 campaign, $3 contact list (null: none), $4 tag (null: none).
 */
export const copyRecipients: TenantStatement = {
  name: 'campaign_copy_recipients_v1',
  text: `
insert into campaign_shipping (company_id, campaign_id, number, name, email)
select $1, $2::int, number, name, email from (
  select i.number, i.name, i.email, 1 as source, i.id
  from contact_list_items i
  where i.company_id = $1 and i.contact_list_id = $3::int
  union all
  select c.number, c.name, c.email, 2, c.id
  from contacts c
  where c.company_id = $1 and not c.is_group
    and exists (select 1 from tickets t join ticket_tags tt on tt.ticket_id = t.id
      where t.company_id = $1 and t.contact_id = c.id and tt.tag_id = $4::int)
) recipients
order by source, id
on conflict (company_id, campaign_id, number) do nothing`,
};
