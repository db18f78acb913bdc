import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { DbHandle } from '../db/tenant';
import type { SessionStore } from './auth/sessions';
import type { TokenService } from './auth/tokens';
import type { EventBus } from './events';
import type { Health } from './health';
import type { InstanceBus } from './instance-bus';
import type { JobEngine } from './jobs';
import type { LeaseKeeper } from './leases';
import type { Mailer } from './mailer';
import type { Metrics } from './metrics';
import type { OutboundClient } from './outbound';
import type { RateLimiter } from './rate-limit';
import type { Storage } from './storage';

/**
 * What the platform gives the rest of the server: no business rules. Built once per instance
 * by the app; modules and channels take the parts they use.
 */
export interface Platform {
  config: Config;
  /** Opaque: modules reach data through tenantDb(ctx) / globalDb(platform). */
  db: DbHandle;
  events: EventBus;
  tokens: TokenService;
  sessions: SessionStore;
  /** The sign-in lock per e-mail; limits per address sit on their routes. */
  limiter: RateLimiter;
  storage: Storage;
  /** Which instance owns which connection. */
  leases: LeaseKeeper;
  /** Notifications between instances (channel commands, the simulator's signals). */
  bus: InstanceBus;
  /** Work that must survive a restart and run once across instances (pg-boss). */
  jobs: JobEngine;
  /** Prometheus figures of this instance. */
  metrics: Metrics;
  /** Readiness for load balancers, and whether the instance drains. */
  health: Health;
  /** The platform's mail (password reset codes), through the SMTP server of the environment. */
  mailer: Mailer;
  /** The instance's log (no credential ever goes into it). */
  log: FastifyBaseLogger;
  /** The one door out: every request to an address a company or the platform configured. */
  outbound: OutboundClient;
}
