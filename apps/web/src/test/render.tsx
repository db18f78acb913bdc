import type { SessionUser } from '@atendi/shared';
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../app/providers';

/** Renders with the app's real providers (query client, theme, i18n, auth) at a route. */
export function renderWithApp(ui: ReactElement, { route = '/' }: { route?: string } = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return {
    queryClient,
    ...render(
      <AppProviders queryClient={queryClient}>
        <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
      </AppProviders>,
    ),
  };
}

type UserShape = Partial<Omit<SessionUser, 'company'>> & {
  company?: Partial<SessionUser['company']>;
};

const NO_FLAGS = {
  useCampaigns: false,
  useSchedules: false,
  useInternalChat: false,
  useExternalApi: false,
  useKanban: false,
  useOpenAi: false,
  useIntegrations: false,
};

/** A session user as GET /auth/me answers it, with a plan that has every flag off. */
export function sessionUser(overrides: UserShape = {}): SessionUser {
  const { company, ...rest } = overrides;
  return {
    id: 2,
    name: 'Ana Souza',
    email: 'ana@empresa.com',
    profile: 'user',
    super: false,
    allTicket: 'desabled',
    companyId: 1,
    whatsappId: null,
    queues: [],
    ...rest,
    company: {
      id: 1,
      name: 'Empresa 1',
      email: 'contato@empresa.com',
      dueDate: '2030-01-31',
      trialExpiration: null,
      status: true,
      planId: 1,
      settings: [],
      ...company,
      plan: {
        id: 1,
        name: 'Plano 1',
        users: 10,
        connections: 10,
        queues: 10,
        value: 30,
        ...NO_FLAGS,
        ...company?.plan,
      },
    },
  };
}
