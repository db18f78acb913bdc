import { count } from 'drizzle-orm';
import type { Config } from './config';
import { DEMO_ADMIN } from './config';
import type { Database } from './db/client';
import { globalDb } from './db/global';
import { companies, connections, plans, queues } from './db/schema';
import { TenantDb, toHandle } from './db/tenant';
import { provisionCompany } from './modules/companies/companies.service';
import { newApiToken } from './modules/connections/connections.service';

const FULL_PLAN = {
  name: 'Plano 1',
  users: 10,
  connections: 10,
  queues: 10,
  value: 30,
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
};

export interface SeedResult {
  created: boolean;
  admin?: { email: string; password?: string };
}

/**
 * First boot only (no company yet). Production creates the platform company with the configured
 * super user and nothing else; development and demo add a demo company to play with.
 */
export async function seed(config: Config, database: Database): Promise<SeedResult> {
  const db = globalDb({ db: toHandle(database.db) });
  const [existing] = await database.db.select({ value: count() }).from(companies);
  if ((existing?.value ?? 0) > 0) return { created: false };

  const [plan] = await db.insert(plans, FULL_PLAN).returning();
  const production = config.NODE_ENV === 'production';
  const admin = production
    ? { email: config.ADMIN_EMAIL!, password: config.ADMIN_PASSWORD! }
    : {
        email: config.ADMIN_EMAIL ?? DEMO_ADMIN.email,
        password: config.ADMIN_PASSWORD ?? DEMO_ADMIN.password,
      };
  const { company } = await provisionCompany(db, {
    name: production ? 'Plataforma' : 'Empresa 1',
    email: admin.email,
    planId: plan!.id,
    dueDate: '2099-12-31',
    admin: { name: 'Admin', email: admin.email, password: admin.password, super: true },
  });
  if (!config.demoSeed) return { created: true, admin: { email: admin.email } };

  const tenant = new TenantDb(database.db, company.id);
  await tenant.insert(queues, [
    { name: 'Suporte', color: '#2196F3', greetingMessage: 'Bem-vindo ao suporte!', orderQueue: 1 },
    { name: 'Vendas', color: '#4CAF50', greetingMessage: 'Olá! Vamos às compras?', orderQueue: 2 },
  ]);
  // The simulator lets the demo be used without a phone: pair it from the connections page.
  await tenant.insert(connections, {
    name: 'Simulador',
    provider: 'simulator',
    isDefault: true,
    sessionEnabled: true,
    status: 'OPENING',
    token: newApiToken(),
    greetingMessage: 'Olá! Escolha uma opção:',
  });
  return { created: true, admin };
}
