import { announcementsContract } from './announcements/announcements.contract';
import { authContract } from './auth/auth.contract';
import { campaignsContract } from './campaigns/campaigns.contract';
import { chatsContract } from './chats/chats.contract';
import { companiesContract } from './companies/companies.contract';
import { connectionsContract } from './connections/connections.contract';
import { contactListsContract } from './contact-lists/contact-lists.contract';
import { contactsContract } from './contacts/contacts.contract';
import type { RouteContract } from './contract';
import { dashboardContract } from './dashboard/dashboard.contract';
import { externalApiContract } from './external-api/external-api.contract';
import { filesContract } from './files/files.contract';
import { helpsContract } from './helps/helps.contract';
import { invoicesContract } from './invoices/invoices.contract';
import { kanbanContract } from './kanban/kanban.contract';
import { mediaContract } from './media/media.contract';
import { messagesContract } from './messages/messages.contract';
import { passwordResetContract } from './password-reset/password-reset.contract';
import { plansContract } from './plans/plans.contract';
import { promptsContract } from './prompts/prompts.contract';
import { queueIntegrationsContract } from './queue-integrations/queue-integrations.contract';
import { queueOptionsContract } from './queue-options/queue-options.contract';
import { queuesContract } from './queues/queues.contract';
import { quickMessagesContract } from './quick-messages/quick-messages.contract';
import { schedulesContract } from './schedules/schedules.contract';
import { settingsContract } from './settings/settings.contract';
import { simulatorContract } from './simulator/simulator.contract';
import { systemContract } from './system/system.contract';
import { tagsContract } from './tags/tags.contract';
import { ticketNotesContract } from './ticket-notes/ticket-notes.contract';
import { ticketsContract } from './tickets/tickets.contract';
import { usersContract } from './users/users.contract';
import { webhooksContract } from './webhooks/webhooks.contract';

/** Every area's contract: the server registers each route of them, and nothing else. */
export const contracts = {
  system: systemContract,
  auth: authContract,
  passwordReset: passwordResetContract,
  users: usersContract,
  companies: companiesContract,
  plans: plansContract,
  settings: settingsContract,
  queues: queuesContract,
  queueOptions: queueOptionsContract,
  helps: helpsContract,
  announcements: announcementsContract,
  connections: connectionsContract,
  tickets: ticketsContract,
  messages: messagesContract,
  contacts: contactsContract,
  contactLists: contactListsContract,
  campaigns: campaignsContract,
  ticketNotes: ticketNotesContract,
  tags: tagsContract,
  kanban: kanbanContract,
  dashboard: dashboardContract,
  quickMessages: quickMessagesContract,
  schedules: schedulesContract,
  chats: chatsContract,
  media: mediaContract,
  simulator: simulatorContract,
  webhooks: webhooksContract,
  externalApi: externalApiContract,
  prompts: promptsContract,
  invoices: invoicesContract,
  files: filesContract,
  queueIntegrations: queueIntegrationsContract,
};

/** Every route of every area, once each. */
export const allRoutes = (): RouteContract[] =>
  Object.values(contracts).flatMap((area) => Object.values(area) as RouteContract[]);
