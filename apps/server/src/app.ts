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
import { ChannelSessions } from './channels/sessions';
import { SimulatorNetwork } from './channels/simulator/simulator.network';
import { presentSimulatorMessage } from './channels/simulator/simulator.present';
import { SimulatorProvider } from './channels/simulator/simulator.provider';
import { simulatorRoutes } from './channels/simulator/simulator.routes';
import type { Config } from './config';
import { connectionStatusCounts } from './db/channel-queries';
import type { Database } from './db/client';
import { toHandle } from './db/tenant';
import { announcementsRoutes } from './modules/announcements/announcements.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { passwordResetRoutes } from './modules/auth/password-reset.routes';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes';
import { chatsRoutes } from './modules/chats/chats.routes';
import { companiesRoutes } from './modules/companies/companies.routes';
import { connectionsRoutes } from './modules/connections/connections.routes';
import { contactListsRoutes } from './modules/contact-lists/contact-lists.routes';
import { contactsRoutes } from './modules/contacts/contacts.routes';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { externalApiRoutes } from './modules/external-api/external-api.routes';
import { filesRoutes } from './modules/files/files.routes';
import { helpsRoutes } from './modules/helps/helps.routes';
import { invoicesRoutes } from './modules/invoices/invoices.routes';
import { kanbanRoutes } from './modules/kanban/kanban.routes';
import { mediaRoutes } from './modules/media/media.routes';
import { MessagePipeline } from './modules/messages/messages.pipeline';
import { messagesRoutes } from './modules/messages/messages.routes';
import { plansRoutes } from './modules/plans/plans.routes';
import { promptsRoutes } from './modules/prompts/prompts.routes';
import { queueIntegrationsRoutes } from './modules/queue-integrations/queue-integrations.routes';
import { queueOptionsRoutes } from './modules/queue-options/queue-options.routes';
import { queuesRoutes } from './modules/queues/queues.routes';
import { quickMessagesRoutes } from './modules/quick-messages/quick-messages.routes';
import { schedulesRoutes } from './modules/schedules/schedules.routes';
import { createServices, type Services } from './modules/services';
import { settingsRoutes } from './modules/settings/settings.routes';
import { systemRoutes } from './modules/system/system.routes';
import { tagsRoutes } from './modules/tags/tags.routes';
import { ticketNotesRoutes } from './modules/ticket-notes/ticket-notes.routes';
import { ticketsRoutes } from './modules/tickets/tickets.routes';
import { usersRoutes } from './modules/users/users.routes';
import { authGuard } from './platform/auth/guard';
import { SessionStore } from './platform/auth/sessions';
import { TokenService } from './platform/auth/tokens';
import { answerError, registerErrorHandling } from './platform/errors';
import { EventBus } from './platform/events';
import { Health } from './platform/health';
import { InstanceBus } from './platform/instance-bus';
import { JobEngine } from './platform/jobs';
import { LeaseKeeper, type LeaseOptions } from './platform/leases';
import {
  type LogStream,
  loggerOptions,
  registerRequestIds,
  requestIdOf,
  requestLogController,
} from './platform/logger';
import { createMailer } from './platform/mailer';
import { Metrics } from './platform/metrics';
import { OutboundClient } from './platform/outbound';
import type { Platform } from './platform/platform';
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
  /** Heartbeat timing of the lease and bus sessions (tests shorten it). */
  leases?: LeaseOptions;
  /** How often idle job workers look for work (tests shorten it). */
  jobs?: { pollingIntervalSeconds?: number };
}

const deriveKey = (secret: string, purpose: string) =>
  createHmac('sha256', secret).update(purpose).digest('base64url');

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform;
    /** The channels as services reach them: sessions run here, commands to their owners. */
    channels: ChannelSessions;
    /** Starts and stops this instance's sessions; `open()` once the server listens. */
    channelManager: ChannelManager;
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
  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL, { format: config.logFormat, stream: logStream }),
    logController: requestLogController(config.logFormat),
    genReqId: requestIdOf,
    // The request's id comes from the logger's mixin on every line, the request's own included.
    childLoggerFactory: (logger, _bindings, options) => logger.child({}, options),
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
  const metrics = new Metrics();
  const leases = new LeaseKeeper(database.pool, channels.leases);
  const bus = new InstanceBus(database.pool, channels.leases);
  const platform: Platform = {
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
    leases,
    bus,
    jobs: new JobEngine(database.pool, app.log, {
      ...channels.jobs,
      work: config.roles.has('jobs'),
      metrics,
    }),
    metrics,
    health: new Health(database.pool, redis),
    mailer: createMailer(config, app.log),
    log: app.log,
    outbound: new OutboundClient({
      allowPrivate: config.OUTBOUND_ALLOW_PRIVATE,
      timeoutMs: config.OUTBOUND_TIMEOUT_MS,
    }),
  };
  metrics.gauge(
    'db_pool_connections',
    'Database pool connections by state',
    () => ({
      total: database.pool.totalCount,
      idle: database.pool.idleCount,
      waiting: database.pool.waitingCount,
    }),
    'state',
  );
  metrics.gauge(
    'job_queue_depth',
    'Jobs waiting to run, by queue',
    () => platform.jobs.depths(),
    'queue',
  );
  metrics.gauge(
    'connections_by_status',
    'Connections of every company by status',
    () => connectionStatusCounts(platform.db),
    'status',
  );
  metrics.gauge(
    'channel_sessions',
    'Channel sessions running on this instance',
    () => sessions.running.size,
  );
  app.addHook('onResponse', async (request, reply) => {
    metrics.request(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
  // Each changed conversation of a simulated phone is one event to the company's pages.
  const simulatorNetwork = new SimulatorNetwork(platform.db, bus, (companyId, rows) => {
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
  const simulator = new SimulatorProvider(simulatorNetwork, platform.storage, {
    sendLatencyMs: config.SIMULATOR_SEND_LATENCY_MS,
  });
  const providerDeps = {
    db: platform.db,
    storage: platform.storage,
    log: app.log,
    outbound: platform.outbound,
  };
  const baileys = new BaileysProvider(providerDeps, channels.baileys);
  const cloudApi = new CloudApiProvider(
    { ...providerDeps, graphApiUrl: config.CLOUD_API_GRAPH_URL },
    channels.cloudApi,
  );
  // Built in the order they depend on each other: what sends, the services, then what reports.
  const sessions = new ChannelSessions(
    { providers: [simulator, baileys, cloudApi], bus, leases, log: app.log, metrics },
    channels.manager,
  );
  const services = createServices({ ...platform, channels: sessions });
  const channelManager = new ChannelManager(
    {
      db: platform.db,
      leases,
      bus,
      sessions,
      sink: new MessagePipeline({ ...services, channels: sessions }),
      log: app.log,
    },
    channels.manager,
  );
  app.addHook('onClose', async () => {
    await platform.jobs.stop();
    await channelManager.close();
    await bus.close();
    await platform.outbound.close();
  });
  app.decorate('platform', platform);
  app.decorate('channels', sessions);
  app.decorate('channelManager', channelManager);
  app.decorate('services', services);

  registerRequestIds(app);
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
      {
        route: 'POST /companies/cadastro',
        name: 'signup:ip',
        max: config.SIGNUP_RATE_LIMIT_PER_HOUR,
        windowMs: 3_600_000,
      },
    ],
  });

  await app.register(systemRoutes(platform));
  await app.register(authRoutes(services));
  await app.register(passwordResetRoutes(services));
  await app.register(usersRoutes(services));
  await app.register(companiesRoutes(services));
  await app.register(plansRoutes(services));
  await app.register(settingsRoutes(services));
  await app.register(queuesRoutes(services));
  await app.register(queueOptionsRoutes(services));
  await app.register(helpsRoutes(services));
  await app.register(announcementsRoutes(services));
  await app.register(connectionsRoutes(services));
  await app.register(ticketsRoutes(services));
  await app.register(messagesRoutes(services));
  await app.register(contactsRoutes(services));
  await app.register(ticketNotesRoutes(services));
  await app.register(tagsRoutes(services));
  await app.register(kanbanRoutes(services));
  await app.register(dashboardRoutes(services));
  await app.register(quickMessagesRoutes(services));
  await app.register(schedulesRoutes(services));
  await app.register(externalApiRoutes(services));
  await app.register(promptsRoutes(services));
  await app.register(queueIntegrationsRoutes(services));
  await app.register(contactListsRoutes(services));
  await app.register(campaignsRoutes(services));
  await app.register(chatsRoutes(services));
  await app.register(invoicesRoutes(services));
  await app.register(filesRoutes(services));
  await app.register(mediaRoutes(platform.storage));
  await app.register(simulatorRoutes(simulatorNetwork, platform.storage));
  await app.register(baileysRoutes(baileys, services));
  await app.register(cloudApiRoutes(cloudApi, channelManager));

  return app as unknown as App;
}
