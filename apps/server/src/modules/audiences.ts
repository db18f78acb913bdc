import { simulatorAudience } from '../channels/simulator/simulator.audience';
import type { RealtimeAudience } from '../platform/realtime';
import { announcementsAudience } from './announcements/announcements.audience';
import { authAudience } from './auth/auth.audience';
import { campaignsAudience } from './campaigns/campaigns.audience';
import { chatsAudience } from './chats/chats.audience';
import { companiesAudience } from './companies/companies.audience';
import { connectionsAudience } from './connections/connections.audience';
import { contactListsAudience } from './contact-lists/contact-lists.audience';
import { contactsAudience } from './contacts/contacts.audience';
import { filesAudience } from './files/files.audience';
import { invoicesAudience } from './invoices/invoices.audience';
import { messagesAudience } from './messages/messages.audience';
import { promptsAudience } from './prompts/prompts.audience';
import { queueIntegrationsAudience } from './queue-integrations/queue-integrations.audience';
import { queuesAudience } from './queues/queues.audience';
import { quickMessagesAudience } from './quick-messages/quick-messages.audience';
import { schedulesAudience } from './schedules/schedules.audience';
import { settingsAudience } from './settings/settings.audience';
import { tagsAudience } from './tags/tags.audience';
import { ticketsAudience } from './tickets/tickets.audience';
import { usersAudience } from './users/users.audience';

/** Who hears what: each area's declaration, beside its events; the gateway delivers them. */
export const audiences: readonly RealtimeAudience[] = [
  authAudience,
  usersAudience,
  companiesAudience,
  settingsAudience,
  queuesAudience,
  ticketsAudience,
  messagesAudience,
  connectionsAudience,
  contactsAudience,
  simulatorAudience,
  tagsAudience,
  quickMessagesAudience,
  schedulesAudience,
  promptsAudience,
  invoicesAudience,
  queueIntegrationsAudience,
  contactListsAudience,
  campaignsAudience,
  filesAudience,
  chatsAudience,
  announcementsAudience,
];
