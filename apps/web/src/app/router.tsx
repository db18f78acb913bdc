import { type ComponentType, lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { useSessionUser } from './auth';
import { PageLoader } from './components/PageLoader';
import { PublicOnly, RequireAccess, RequireSession } from './guards';
import { canAccess } from './layout/menu';

/** Pages are named exports (project convention); React.lazy wants a default one. */
function lazyNamed<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
): ComponentType {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const Layout = lazyNamed(() => import('./layout/Layout'), 'Layout');
const LoginPage = lazyNamed(() => import('../features/auth/pages/LoginPage'), 'LoginPage');
const SignupPage = lazyNamed(() => import('../features/auth/pages/SignupPage'), 'SignupPage');
const ForgotPasswordPage = lazyNamed(
  () => import('../features/auth/pages/ForgotPasswordPage'),
  'ForgotPasswordPage',
);
const TicketsPage = lazyNamed(() => import('../features/tickets/pages/TicketsPage'), 'TicketsPage');
const FinancialPage = lazyNamed(
  () => import('../features/financial/pages/FinancialPage'),
  'FinancialPage',
);
const SubscriptionPage = lazyNamed(
  () => import('../features/financial/pages/SubscriptionPage'),
  'SubscriptionPage',
);
const UsersPage = lazyNamed(() => import('../features/users/pages/UsersPage'), 'UsersPage');
const ConnectionsPage = lazyNamed(
  () => import('../features/connections/pages/ConnectionsPage'),
  'ConnectionsPage',
);
const ContactsPage = lazyNamed(
  () => import('../features/contacts/pages/ContactsPage'),
  'ContactsPage',
);
const TagsPage = lazyNamed(() => import('../features/tags/pages/TagsPage'), 'TagsPage');
const QueuesPage = lazyNamed(() => import('../features/queues/pages/QueuesPage'), 'QueuesPage');
const QuickMessagesPage = lazyNamed(
  () => import('../features/quick-messages/pages/QuickMessagesPage'),
  'QuickMessagesPage',
);
const MessagesApiPage = lazyNamed(
  () => import('../features/messages-api/pages/MessagesApiPage'),
  'MessagesApiPage',
);
const PromptsPage = lazyNamed(() => import('../features/prompts/pages/PromptsPage'), 'PromptsPage');
const QueueIntegrationsPage = lazyNamed(
  () => import('../features/queue-integrations/pages/QueueIntegrationsPage'),
  'QueueIntegrationsPage',
);
const AnnouncementsPage = lazyNamed(
  () => import('../features/announcements/pages/AnnouncementsPage'),
  'AnnouncementsPage',
);
const SchedulesPage = lazyNamed(
  () => import('../features/schedules/pages/SchedulesPage'),
  'SchedulesPage',
);
const CampaignsPage = lazyNamed(
  () => import('../features/campaigns/pages/CampaignsPage'),
  'CampaignsPage',
);
const CampaignReportPage = lazyNamed(
  () => import('../features/campaigns/pages/CampaignReportPage'),
  'CampaignReportPage',
);
const CampaignsConfigPage = lazyNamed(
  () => import('../features/campaigns/pages/CampaignsConfigPage'),
  'CampaignsConfigPage',
);
const FilesPage = lazyNamed(() => import('../features/files/pages/FilesPage'), 'FilesPage');
const ContactListsPage = lazyNamed(
  () => import('../features/contact-lists/pages/ContactListsPage'),
  'ContactListsPage',
);
const ContactListItemsPage = lazyNamed(
  () => import('../features/contact-lists/pages/ContactListItemsPage'),
  'ContactListItemsPage',
);
const ChatsPage = lazyNamed(() => import('../features/chats/pages/ChatsPage'), 'ChatsPage');
const SettingsPage = lazyNamed(
  () => import('../features/settings/pages/SettingsPage'),
  'SettingsPage',
);
const HelpsPage = lazyNamed(() => import('../features/helps/pages/HelpsPage'), 'HelpsPage');
const DashboardPage = lazyNamed(
  () => import('../features/dashboard/pages/DashboardPage'),
  'DashboardPage',
);
const TodoListPage = lazyNamed(
  () => import('../features/todolist/pages/TodoListPage'),
  'TodoListPage',
);
const KanbanPage = lazyNamed(() => import('../features/kanban/pages/KanbanPage'), 'KanbanPage');
const SimulatorPage = lazyNamed(
  () => import('../features/simulator/pages/SimulatorPage'),
  'SimulatorPage',
);

/** '/' is the dashboard, which only admins have; everybody else starts at the tickets. */
function Home() {
  const user = useSessionUser();
  if (!canAccess(user, { permission: 'dashboard:view' })) return <Navigate to="/tickets" replace />;
  return <DashboardPage />;
}

export function AppRoutes() {
  return (
    <Suspense fallback={<PageLoader fullScreen />}>
      <Routes>
        <Route element={<PublicOnly />}>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/signup" element={<SignupPage />} />
          <Route path="/forgetpsw" element={<ForgotPasswordPage />} />
        </Route>
        <Route
          element={
            <RequireSession>
              <Layout />
            </RequireSession>
          }
        >
          <Route index element={<Home />} />
          <Route path="tickets/:uuid?" element={<TicketsPage />} />
          <Route path="quick-messages" element={<QuickMessagesPage />} />
          <Route path="contacts" element={<ContactsPage />} />
          <Route path="tags" element={<TagsPage />} />
          <Route path="todolist" element={<TodoListPage />} />
          <Route path="helps" element={<HelpsPage />} />
          <Route
            path="kanban"
            element={
              <RequireAccess permission="kanban:use">
                <KanbanPage />
              </RequireAccess>
            }
          />
          <Route
            path="schedules"
            element={
              <RequireAccess permission="schedules:use">
                <SchedulesPage />
              </RequireAccess>
            }
          />
          <Route
            path="chats/:uuid?"
            element={
              <RequireAccess permission="internalChat:use">
                <ChatsPage />
              </RequireAccess>
            }
          />
          <Route
            path="connections"
            element={
              <RequireAccess permission="connections:read">
                <ConnectionsPage />
              </RequireAccess>
            }
          />
          <Route
            path="simulator"
            element={
              <RequireAccess permission="connections:read">
                <SimulatorPage />
              </RequireAccess>
            }
          />
          <Route
            path="users"
            element={
              <RequireAccess permission="users:manage">
                <UsersPage />
              </RequireAccess>
            }
          />
          <Route
            path="queues"
            element={
              <RequireAccess permission="queues:manage">
                <QueuesPage />
              </RequireAccess>
            }
          />
          <Route
            path="settings"
            element={
              <RequireAccess permission="settings:manage">
                <SettingsPage />
              </RequireAccess>
            }
          />
          {/* The spec's two routes of the same screen. */}
          {['files', 'files-backup'].map((path) => (
            <Route
              key={path}
              path={path}
              element={
                <RequireAccess permission="files:manage">
                  <FilesPage />
                </RequireAccess>
              }
            />
          ))}
          <Route
            path="financeiro"
            element={
              <RequireAccess permission="financial:view">
                <FinancialPage />
              </RequireAccess>
            }
          />
          <Route
            path="subscription"
            element={
              <RequireAccess permission="financial:view">
                <SubscriptionPage />
              </RequireAccess>
            }
          />
          <Route
            path="campaigns"
            element={
              <RequireAccess permission="campaigns:use" needsCampaigns>
                <CampaignsPage />
              </RequireAccess>
            }
          />
          <Route
            path="campaign/:campaignId/report"
            element={
              <RequireAccess permission="campaigns:use" needsCampaigns>
                <CampaignReportPage />
              </RequireAccess>
            }
          />
          <Route
            path="contact-lists"
            element={
              <RequireAccess permission="campaigns:use" needsCampaigns>
                <ContactListsPage />
              </RequireAccess>
            }
          />
          <Route
            path="contact-lists/:contactListId/contacts"
            element={
              <RequireAccess permission="campaigns:use" needsCampaigns>
                <ContactListItemsPage />
              </RequireAccess>
            }
          />
          <Route
            path="campaigns-config"
            element={
              <RequireAccess permission="campaigns:use" needsCampaigns>
                <CampaignsConfigPage />
              </RequireAccess>
            }
          />
          <Route
            path="prompts"
            element={
              <RequireAccess permission="prompts:use">
                <PromptsPage />
              </RequireAccess>
            }
          />
          <Route
            path="queue-integration"
            element={
              <RequireAccess permission="integrations:use">
                <QueueIntegrationsPage />
              </RequireAccess>
            }
          />
          <Route
            path="messages-api"
            element={
              <RequireAccess permission="externalApi:use">
                <MessagesApiPage />
              </RequireAccess>
            }
          />
          <Route
            path="announcements"
            element={
              <RequireAccess permission="announcements:manage" deniedAs="company">
                <AnnouncementsPage />
              </RequireAccess>
            }
          />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Route>
      </Routes>
    </Suspense>
  );
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
