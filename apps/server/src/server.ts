import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { type App, buildApp, type ChannelOptions } from './app';
import type { Config } from './config';
import { connectDatabase, type Database } from './db/client';
import { startEmbeddedPostgres } from './db/embedded';
import { runMigrations } from './db/migrate';
import { canReadTicket } from './modules/tickets/tickets.access';
import type { LogStream } from './platform/logger';
import { RealtimeGateway } from './platform/realtime';

export interface RunningServer {
  app: App;
  realtime: RealtimeGateway;
  url: string;
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
  });
  let subscriber: Redis | undefined;
  if (redis) {
    subscriber = redis.duplicate();
    realtime.io.adapter(createAdapter(redis, subscriber));
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
  // Before the sessions: what they receive may ask for work at once.
  await app.platform.jobs.start();
  await app.channelManager.open();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  return {
    app,
    realtime,
    url: `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`,
    close: async () => {
      await realtime.close();
      await app.close();
      subscriber?.disconnect();
      redis?.disconnect();
    },
  };
}
