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
import type { Config } from './config';
import type { Database } from './db/client';
import { type DbHandle, toHandle } from './db/tenant';
import { authRoutes } from './modules/auth/auth.routes';
import { AuthService } from './modules/auth/auth.service';
import { companiesRoutes } from './modules/companies/companies.routes';
import { CompaniesService } from './modules/companies/companies.service';
import { helpsRoutes } from './modules/helps/helps.routes';
import { HelpsService } from './modules/helps/helps.service';
import { plansRoutes } from './modules/plans/plans.routes';
import { PlansService } from './modules/plans/plans.service';
import { queuesRoutes } from './modules/queues/queues.routes';
import { QueuesService } from './modules/queues/queues.service';
import { settingsRoutes } from './modules/settings/settings.routes';
import { SettingsService } from './modules/settings/settings.service';
import { systemRoutes } from './modules/system/system.routes';
import { usersRoutes } from './modules/users/users.routes';
import { UsersService } from './modules/users/users.service';
import { authGuard } from './platform/auth/guard';
import { SessionStore } from './platform/auth/sessions';
import { TokenService } from './platform/auth/tokens';
import { registerErrorHandling } from './platform/errors';
import { EventBus } from './platform/events';
import { loggerOptions } from './platform/logger';
import { MemoryRateLimitStore, RateLimiter, RedisRateLimitStore } from './platform/rate-limit';

export interface AppDependencies {
  config: Config;
  database: Database;
  redis?: Redis;
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
}

export type Services = ReturnType<typeof createServices>;

function createServices(platform: Platform) {
  const users = new UsersService(platform);
  return {
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

export async function buildApp({ config, database, redis }: AppDependencies): Promise<App> {
  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // Real clients never send deeper than this; limits parser abuse.
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const platform: Platform = {
    config,
    db: toHandle(database.db),
    events: new EventBus(),
    tokens: new TokenService(config.JWT_SECRET, config.ACCESS_TOKEN_TTL_SECONDS),
    sessions: new SessionStore(database.db, config.REFRESH_TOKEN_TTL_DAYS),
    limiter: new RateLimiter(redis ? new RedisRateLimitStore(redis) : new MemoryRateLimitStore()),
  };
  const services = createServices(platform);
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

  await app.register(systemRoutes());
  await app.register(authRoutes(services));
  await app.register(usersRoutes(services));
  await app.register(companiesRoutes(services));
  await app.register(plansRoutes(services));
  await app.register(settingsRoutes(services));
  await app.register(queuesRoutes(services));
  await app.register(helpsRoutes(services));

  return app as unknown as App;
}
