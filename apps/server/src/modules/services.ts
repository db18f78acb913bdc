import { AnnouncementsService } from './announcements/announcements.service';
import { AuthService } from './auth/auth.service';
import { PasswordResetService } from './auth/password-reset.service';
import { AutomationsService } from './automations/automations.service';
import { CampaignsService } from './campaigns/campaigns.service';
import { ChatsService } from './chats/chats.service';
import { CompaniesService } from './companies/companies.service';
import { ConnectionsService } from './connections/connections.service';
import { ContactListsService } from './contact-lists/contact-lists.service';
import { ContactsService } from './contacts/contacts.service';
import { DashboardService } from './dashboard/dashboard.service';
import type { ServiceDeps } from './deps';
import { ExternalApiService } from './external-api/external-api.service';
import { FilesService } from './files/files.service';
import { HelpsService } from './helps/helps.service';
import { InvoicesService } from './invoices/invoices.service';
import { KanbanService } from './kanban/kanban.service';
import { DeferredCommands } from './messages/messages.deferred';
import { InboundPipeline } from './messages/messages.inbound';
import { OutboundSender } from './messages/messages.outbound';
import { MessagesService } from './messages/messages.service';
import { PlansService } from './plans/plans.service';
import { PromptsService } from './prompts/prompts.service';
import { QueueIntegrationsService } from './queue-integrations/queue-integrations.service';
import { QueueOptionsService } from './queue-options/queue-options.service';
import { QueuesService } from './queues/queues.service';
import { QuickMessagesService } from './quick-messages/quick-messages.service';
import { SchedulesService } from './schedules/schedules.service';
import { SettingsService } from './settings/settings.service';
import { TagsService } from './tags/tags.service';
import { TicketNotesService } from './ticket-notes/ticket-notes.service';
import { TicketLifecycle, ticketOf } from './tickets/tickets.lifecycle';
import { TicketsService } from './tickets/tickets.service';
import { UsersService } from './users/users.service';

export type Services = ReturnType<typeof createServices>;

/** Every service of the modules, each built from the parts of `deps` it uses. */
export function createServices(deps: ServiceDeps) {
  const outbound = new OutboundSender(deps, ticketOf);
  const deferred = new DeferredCommands(deps);
  const ticketLifecycle = new TicketLifecycle(deps, outbound);
  const tickets = new TicketsService(deps, ticketLifecycle);
  const prompts = new PromptsService(deps, outbound, ticketLifecycle);
  const queueIntegrations = new QueueIntegrationsService(deps, outbound, ticketLifecycle);
  const queues = new QueuesService(deps);
  return {
    connections: new ConnectionsService(deps),
    inbound: new InboundPipeline(deps),
    outbound,
    deferred,
    ticketLifecycle,
    tickets,
    automations: new AutomationsService(
      deps,
      outbound,
      ticketLifecycle,
      prompts,
      queueIntegrations,
    ),
    messages: new MessagesService(deps, outbound, deferred, ticketLifecycle),
    contacts: new ContactsService(deps),
    contactLists: new ContactListsService(deps),
    ticketNotes: new TicketNotesService(),
    tags: new TagsService(deps, ticketLifecycle),
    kanban: new KanbanService(ticketLifecycle),
    quickMessages: new QuickMessagesService(deps),
    schedules: new SchedulesService(deps, outbound, ticketLifecycle),
    campaigns: new CampaignsService(deps, outbound, ticketLifecycle),
    chats: new ChatsService(deps),
    auth: new AuthService(deps),
    passwordReset: new PasswordResetService(deps),
    users: new UsersService(deps),
    companies: new CompaniesService(deps),
    plans: new PlansService(deps.db),
    helps: new HelpsService(deps.db),
    announcements: new AnnouncementsService(deps),
    settings: new SettingsService(deps),
    queues,
    queueOptions: new QueueOptionsService(deps, (ctx, id) => queues.get(ctx, id)),
    dashboard: new DashboardService(),
    externalApi: new ExternalApiService(deps, outbound, ticketLifecycle),
    prompts,
    invoices: new InvoicesService(deps),
    files: new FilesService(deps),
    queueIntegrations,
  };
}
