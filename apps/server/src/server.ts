import { createServer, type Server } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { type App, buildApp, type ChannelOptions } from './app';
import type { Config } from './config';
import { connectDatabase, type Database } from './db/client';
import { startEmbeddedPostgres } from './db/embedded';
import { runMigrations } from './db/migrate';
import { audiences } from './modules/audiences';
import { canReadTicket } from './modules/tickets/tickets.access';
import type { LogStream } from './platform/logger';
import { RealtimeGateway } from './platform/realtime';

export interface RunningServer {
  app: App;
  realtime: RealtimeGateway;
  url: string;
  /** The separate metrics address, when METRICS_PORT is set. */
  metricsUrl?: string;
  /**
   * SIGTERM's graceful part: /ready answers 503 at once, connection leases are handed over at
   * once, sockets are sent elsewhere; requests are still taken for `graceMs` (while the load
   * balancer notices), then no new one is, and those in flight and running jobs finish.
   */
  drain(graceMs: number): Promise<void>;
  close(): Promise<void>;
}

/** The database the config names, or the embedded one under DATA_DIR; migrated. */
export async function openDatabase(
  config: Config,
): Promise<{ database: Database; embeddedDirectory?: string; stop(): Promise<void> }> {
  let url = config.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let embeddedDirectory: string | undefined;
  if (!url) {
    const embedded = await startEmbeddedPostgres(config.DATA_DIR, config.EMBEDDED_PG_PORT);
    url = embedded.url;
    stopEmbedded = embedded.stop;
    embeddedDirectory = embedded.directory;
  }
  const database = connectDatabase(url, config.DB_POOL_MAX);
  await runMigrations(database.pool);
  return {
    database,
    embeddedDirectory,
    stop: async () => {
      await database.close();
      await stopEmbedded?.();
    },
  };
}

export interface ApiServerOptions {
  /** Observes every realtime payload sent (tests scan them for secrets). */
  onEmit?: (event: string, payload: unknown) => void;
  /** Observes every HTTP answer as sent (tests scan them for secrets); absent in production. */
  onReply?: (request: FastifyRequest, reply: FastifyReply, payload: unknown) => void;
  channels?: ChannelOptions;
  /** Where log lines go (tests read them); standard output otherwise. */
  logStream?: LogStream;
}

/** Builds the API with its realtime channel and listens on PORT. */
export async function startApiServer(
  config: Config,
  database: Database,
  options: ApiServerOptions = {},
): Promise<RunningServer> {
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { lazyConnect: false }) : undefined;
  const app = await buildApp({
    config,
    database,
    redis,
    channels: options.channels,
    logStream: options.logStream,
  });
  const realtime = new RealtimeGateway(app.server, {
    db: database.db,
    tokens: app.platform.tokens,
    events: app.platform.events,
    logger: app.log,
    corsOrigins: config.frontendOrigins,
    onEmit: options.onEmit,
    markSeen: (ctx, online) => app.services.users.markSeen(ctx, online),
    canReadTicket,
    audiences,
  });
  let subscriber: Redis | undefined;
  if (redis) {
    subscriber = redis.duplicate();
    realtime.io.adapter(createAdapter(redis, subscriber));
  }
  app.platform.metrics.gauge(
    'socket_connections',
    'Realtime (socket.io) clients connected to this instance',
    () => realtime.io.engine.clientsCount,
  );
  if (!config.roles.has('api')) {
    // Not behind the load balancer for the API: only what watches the instance is answered.
    app.addHook('onRequest', async (request, reply) => {
      if (request.routeOptions.config?.contract?.area !== 'system') {
        return reply.code(404).send({ error: 'ERR_NOT_FOUND' });
      }
    });
  }
  const { onReply } = options;
  if (onReply) {
    app.addHook('onSend', async (request, reply, payload) => {
      onReply(request, reply, payload);
      return payload;
    });
  }
  await app.listen({ port: config.PORT, host: config.host });
  await app.platform.bus.open();
  // Before the sessions: what they receive may ask for work at once. Without the jobs role the
  // engine only sends.
  await app.platform.jobs.start();
  // Without the channels role no lease is ever taken: commands are only published from here.
  await app.channelManager.open({ takeLeases: config.roles.has('channels') });
  const metricsServer =
    config.METRICS_PORT === undefined ? undefined : await startMetricsServer(app, config);
  let closing: Promise<void> | undefined;
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  const portOf = (server: Server) => {
    const address = server.address();
    return typeof address === 'object' && address ? address.port : 0;
  };
  return {
    app,
    realtime,
    url: `http://${host}:${portOf(app.server)}`,
    ...(metricsServer ? { metricsUrl: `http://${host}:${portOf(metricsServer)}/metrics` } : {}),
    drain: async (graceMs) => {
      app.platform.health.drain();
      realtime.drain();
      const handed = await app.channelManager.handOver();
      app.log.info({ connections: handed.length }, 'draining: connections handed over');
      await new Promise((resolve) => setTimeout(resolve, graceMs));
      // fastify stops listening, answers what is in flight and closes idle connections; its
      // onClose hook lets the running jobs finish.
      await close();
    },
    close,
  };

  function close(): Promise<void> {
    closing ??= (async () => {
      await realtime.close();
      await app.close();
      await new Promise((resolve) =>
        metricsServer ? metricsServer.close(resolve) : resolve(null),
      );
      subscriber?.disconnect();
      redis?.disconnect();
    })();
    return closing;
  }
}

/** GET /metrics on a port of its own, for a Prometheus on the private network; nothing else. */
async function startMetricsServer(app: App, config: Config): Promise<Server> {
  const { metrics } = app.platform;
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    metrics.text().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(text),
      (error: unknown) => {
        app.log.error({ err: error }, 'metrics could not be read');
        response.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.METRICS_PORT, config.host, () => resolve());
  });
  return server;
}
