import { createHmac } from 'node:crypto';
import { APP_VERSION } from '@atendi/shared';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import { BaileysProvider, type BaileysProviderOptions } from './channels/baileys/baileys.provider';
import { baileysRoutes } from './channels/baileys/baileys.routes';
import {
  CloudApiProvider,
  type CloudApiProviderOptions,
} from './channels/cloud-api/cloud-api.provider';
import { cloudApiRoutes } from './channels/cloud-api/cloud-api.routes';
import { ChannelManager, type ChannelManagerOptions } from './channels/manager';
import { SimulatorNetwork } from './channels/simulator/simulator.network';
import { presentSimulatorMessage } from './channels/simulator/simulator.present';
import { SimulatorProvider } from './channels/simulator/simulator.provider';
import { simulatorRoutes } from './channels/simulator/simulator.routes';
import type { Config } from './config';
import type { Database } from './db/client';
import { type DbHandle, toHandle } from './db/tenant';
import { authRoutes } from './modules/auth/auth.routes';
import { AuthService } from './modules/auth/auth.service';
import { companiesRoutes } from './modules/companies/companies.routes';
import { CompaniesService } from './modules/companies/companies.service';
import { connectionsRoutes } from './modules/connections/connections.routes';
import { ConnectionsService } from './modules/connections/connections.service';
import { contactsRoutes } from './modules/contacts/contacts.routes';
import { ContactsService } from './modules/contacts/contacts.service';
import { helpsRoutes } from './modules/helps/helps.routes';
import { HelpsService } from './modules/helps/helps.service';
import { mediaRoutes } from './modules/media/media.routes';
import { InboundPipeline } from './modules/messages/messages.inbound';
import { OutboundSender } from './modules/messages/messages.outbound';
import { messagesRoutes } from './modules/messages/messages.routes';
import { MessagesService } from './modules/messages/messages.service';
import { plansRoutes } from './modules/plans/plans.routes';
import { PlansService } from './modules/plans/plans.service';
import { queuesRoutes } from './modules/queues/queues.routes';
import { QueuesService } from './modules/queues/queues.service';
import { quickMessagesRoutes } from './modules/quick-messages/quick-messages.routes';
import { QuickMessagesService } from './modules/quick-messages/quick-messages.service';
import { settingsRoutes } from './modules/settings/settings.routes';
import { SettingsService } from './modules/settings/settings.service';
import { systemRoutes } from './modules/system/system.routes';
import { tagsRoutes } from './modules/tags/tags.routes';
import { TagsService } from './modules/tags/tags.service';
import { ticketNotesRoutes } from './modules/ticket-notes/ticket-notes.routes';
import { TicketNotesService } from './modules/ticket-notes/ticket-notes.service';
import { ticketsRoutes } from './modules/tickets/tickets.routes';
import { TicketsService } from './modules/tickets/tickets.service';
import { usersRoutes } from './modules/users/users.routes';
import { UsersService } from './modules/users/users.service';
import { authGuard } from './platform/auth/guard';
import { SessionStore } from './platform/auth/sessions';
import { TokenService } from './platform/auth/tokens';
import { answerError, registerErrorHandling } from './platform/errors';
import { EventBus } from './platform/events';
import { LeaseKeeper, type LeaseOptions } from './platform/leases';
import { type LogStream, loggerOptions, requestLogController } from './platform/logger';
import {
  MemoryRateLimitStore,
  RateLimiter,
  RedisRateLimitStore,
  registerRateLimits,
} from './platform/rate-limit';
import { Storage } from './platform/storage';

export interface AppDependencies {
  config: Config;
  database: Database;
  redis?: Redis;
  /** Tests only: the fakes standing in for WhatsApp Web and the Graph API, out of reach here. */
  channels?: ChannelOptions;
  /** Where log lines go (tests read them); standard output otherwise. */
  logStream?: LogStream;
}

export interface ChannelOptions {
  baileys?: BaileysProviderOptions;
  cloudApi?: CloudApiProviderOptions;
  /** Sweep and request timing (tests shorten them). */
  manager?: ChannelManagerOptions;
  /** Lease heartbeat timing (tests shorten it). */
  leases?: LeaseOptions;
}

/** What the rest of the server (main, realtime, tests) needs besides the HTTP app. */
export interface Platform {
  config: Config;
  /** Opaque: modules reach data through tenantDb(ctx) / globalDb(platform). */
  db: DbHandle;
  events: EventBus;
  tokens: TokenService;
  sessions: SessionStore;
  limiter: RateLimiter;
  storage: Storage;
  leases: LeaseKeeper;
  channels: ChannelManager;
}

export type Services = ReturnType<typeof createServices>;

const deriveKey = (secret: string, purpose: string) =>
  createHmac('sha256', secret).update(purpose).digest('base64url');

function createServices(platform: Platform) {
  const users = new UsersService(platform);
  const outbound = new OutboundSender(platform);
  return {
    connections: new ConnectionsService(platform),
    inbound: new InboundPipeline(platform),
    outbound,
    tickets: new TicketsService(platform, outbound),
    messages: new MessagesService(platform, outbound),
    contacts: new ContactsService(platform),
    ticketNotes: new TicketNotesService(),
    tags: new TagsService(platform),
    quickMessages: new QuickMessagesService(platform),
    auth: new AuthService(platform),
    users,
    companies: new CompaniesService(platform),
    plans: new PlansService(platform.db),
    helps: new HelpsService(platform.db),
    settings: new SettingsService(platform),
    queues: new QueuesService(platform),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform;
    services: Services;
  }
}

export type App = FastifyInstance;

export async function buildApp({
  config,
  database,
  redis,
  channels = {},
  logStream,
}: AppDependencies): Promise<App> {
  const production = config.NODE_ENV === 'production';
  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL, { production, stream: logStream }),
    // Production keeps fastify's structured entries per request; elsewhere one short line.
    logController: requestLogController(production),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // Real clients never send deeper than this; limits parser abuse.
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
    // A malformed or overlong URL never reaches a route: answered like every other error.
    frameworkErrors: answerError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const events = new EventBus();
  const channelsRef: { current?: ChannelManager } = {};
  const leases = new LeaseKeeper(
    database.pool,
    (command) => void channelsRef.current?.command(command),
    channels.leases,
  );
  const platform: Platform = {
    leases,
    channels: undefined as unknown as ChannelManager,
    config,
    db: toHandle(database.db),
    events,
    tokens: new TokenService(config.JWT_SECRET, config.ACCESS_TOKEN_TTL_SECONDS),
    sessions: new SessionStore(database.db, config.REFRESH_TOKEN_TTL_DAYS, (revoked) =>
      events.emit('auth.revoked', revoked),
    ),
    limiter: new RateLimiter(redis ? new RedisRateLimitStore(redis) : new MemoryRateLimitStore()),
    // Media URLs are signed with a key of their own, derived from the server secret.
    storage: new Storage(config.STORAGE_DIR, deriveKey(config.JWT_SECRET, 'media-urls')),
  };
  const services = createServices(platform);
  // Each changed conversation of a simulated phone is one event to the company's pages.
  const simulatorNetwork = new SimulatorNetwork(platform.db, leases, (companyId, rows) => {
    const byPhone = new Map<string, typeof rows>();
    for (const row of rows) {
      const key = `${row.connectionId}:${row.phone}`;
      byPhone.set(key, [...(byPhone.get(key) ?? []), row]);
    }
    for (const group of byPhone.values()) {
      const { connectionId, phone } = group[0]!;
      events.emit('simulator.changed', {
        companyId,
        connectionId,
        phone,
        messages: group.map((row) => presentSimulatorMessage(row, platform.storage)),
      });
    }
  });
  const simulator = new SimulatorProvider(simulatorNetwork, platform.storage);
  const providerDeps = { db: platform.db, storage: platform.storage, log: app.log };
  const baileys = new BaileysProvider(providerDeps, channels.baileys);
  const cloudApi = new CloudApiProvider(providerDeps, channels.cloudApi);
  platform.channels = new ChannelManager(
    {
      db: platform.db,
      leases,
      providers: [simulator, baileys, cloudApi],
      log: app.log,
      sink: {
        inbound: (ref, message) => services.inbound.receive(ref, message),
        change: (ref, change) => services.inbound.change(ref, change),
        ack: (ref, update) => services.inbound.ack(ref, update),
        status: async (ref, update, epoch) => {
          await services.connections.applyStatus(ref, update, epoch);
          if (update.status === 'CONNECTED') {
            platform.channels.track(services.outbound.flushPending(ref.companyId, ref.id));
          }
        },
        sendStored: async (companyId, messageId) => {
          await services.outbound.deliver(companyId, messageId).catch(() => {});
        },
      },
    },
    channels.manager,
  );
  channelsRef.current = platform.channels;
  app.addHook('onClose', () => platform.channels.close());
  app.decorate('platform', platform);
  app.decorate('services', services);

  registerErrorHandling(app);
  await app.register(helmet, {
    // The API serves JSON and the docs page; the docs page needs its inline assets.
    contentSecurityPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  await app.register(cors, {
    origin: config.frontendOrigins,
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    // the sign-in page reads how long a lock lasts
    exposedHeaders: ['Retry-After'],
  });
  await app.register(cookie);
  await app.register(swagger, {
    openapi: {
      info: { title: 'Atendi API', version: APP_VERSION },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  await app.register(authGuard, { db: database.db, tokens: platform.tokens });
  await registerRateLimits(app, {
    redis,
    limits: [
      {
        route: 'POST /auth/login',
        name: 'login:ip',
        max: config.LOGIN_RATE_LIMIT_PER_MINUTE,
        windowMs: 60_000,
      },
      { route: 'POST /companies/cadastro', name: 'signup:ip', max: 5, windowMs: 3_600_000 },
    ],
  });

  await app.register(systemRoutes());
  await app.register(authRoutes(services));
  await app.register(usersRoutes(services));
  await app.register(companiesRoutes(services));
  await app.register(plansRoutes(services));
  await app.register(settingsRoutes(services));
  await app.register(queuesRoutes(services));
  await app.register(helpsRoutes(services));
  await app.register(connectionsRoutes(services));
  await app.register(ticketsRoutes(services));
  await app.register(messagesRoutes(services));
  await app.register(contactsRoutes(services));
  await app.register(ticketNotesRoutes(services));
  await app.register(tagsRoutes(services));
  await app.register(quickMessagesRoutes(services));
  await app.register(mediaRoutes(platform.storage));
  await app.register(simulatorRoutes(simulatorNetwork, platform.storage));
  await app.register(baileysRoutes(baileys, services));
  await app.register(cloudApiRoutes(cloudApi, platform.channels));

  return app as unknown as App;
}
