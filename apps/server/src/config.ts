import { fileURLToPath } from 'node:url';
import { DEFAULT_GRAPH_API_URL } from '@atendi/shared';
import { z } from 'zod';

/** Repository root, so ./data and ./storage land there whichever folder npm runs us from. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export const DEV_JWT_SECRET = 'dev-only-secret-change-me-dev-only-secret';
/** Encrypts stored secrets (AI and voice keys) outside production only; production must set its own. */
export const DEV_SECRETS_KEY = 'dev-only-secrets-key-change-me-dev-only-key';
export const DEMO_ADMIN = { email: 'admin@admin.com', password: '123456' } as const;

/** What OUTBOUND_ALLOW_PRIVATE lets through: everything, or the listed hosts and networks. */
export interface PrivateAllowance {
  all: boolean;
  /** `host`, `host:port`, `[v6]:port`, an address or a network (`10.0.0.0/8`), lower case. */
  entries: string[];
}

/** `true`/`1`, `false`/`0`/empty, or a comma-separated list of hosts, host:port pairs, networks. */
export function parseAllowance(text: string | undefined): PrivateAllowance {
  const value = (text ?? '').trim();
  if (value === 'true' || value === '1') return { all: true, entries: [] };
  if (value === '' || value === 'false' || value === '0') return { all: false, entries: [] };
  return {
    all: false,
    entries: value
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean),
  };
}

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

/** What an instance does; a deployment may split them over instances (default: all). */
export const SERVER_ROLES = ['api', 'web', 'channels', 'jobs'] as const;
export type ServerRole = (typeof SERVER_ROLES)[number];

const roles = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((role) => role.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(SERVER_ROLES)).min(1));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  WEB_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Serve the built web app on WEB_PORT (off when a CDN or proxy serves it). */
  SERVE_WEB: bool.default(true),
  DATABASE_URL: z.string().url().optional(),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(500).default(20),
  DATA_DIR: z.string().default(`${REPO_ROOT}data`),
  EMBEDDED_PG_PORT: z.coerce.number().int().default(54329),
  REDIS_URL: z.string().url().optional(),
  STORAGE_DIR: z.string().default(`${REPO_ROOT}storage`),
  JWT_SECRET: z.string().default(DEV_JWT_SECRET),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(30)
    .default(15 * 60),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).default(7),
  /** Browser origins allowed to call the API with credentials (comma separated). */
  FRONTEND_URL: z.string().default('http://localhost:3000,http://127.0.0.1:3000'),
  /** Public base URL of the API as the browser sees it; the built web app reads it. */
  BACKEND_URL: z.string().optional(),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  DEMO_SEED: bool.optional(),
  /** `pretty`: one short line per entry for a person at a terminal; `json` otherwise. */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  SERVER_ROLES: roles.default([...SERVER_ROLES]),
  /** GET /metrics on the API answers only with `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** A separate port answering GET /metrics to anyone who reaches it (keep it private). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** After SIGTERM: how long /ready says 503 while requests are still taken (load balancers notice). */
  DRAIN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(5_000),
  /** After SIGTERM: the most the drain may take before the process exits anyway. */
  DRAIN_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  SIGNUP_RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(5),
  TRUST_PROXY: bool.default(false),
  /** The key stored secrets (AI and voice keys) are encrypted with; at least 32 characters. */
  SECRETS_KEY: z.string().default(DEV_SECRETS_KEY),
  /** OpenAI-compatible API (chat completions, transcriptions): a local model server works too. */
  OPENAI_BASE_URL: z.string().url().default('https://api.openai.com/v1'),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  OPENAI_TRANSCRIPTION_MODEL: z.string().min(1).default('whisper-1'),
  /** Azure speech for the prompts' voices; `{region}` is replaced by the prompt's region. */
  AZURE_TTS_URL: z
    .string()
    .default('https://{region}.tts.speech.microsoft.com/cognitiveservices/v1'),
  /** Cost guard: completions one ticket may get an hour before a person takes over. */
  AI_MAX_COMPLETIONS_PER_TICKET_HOUR: z.coerce.number().int().min(1).default(20),
  /** How long a call to an outside service (AI, integrations) may take. */
  OUTBOUND_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /**
   * Lets outbound requests reach private, loopback and link-local addresses (refused by default,
   * so a company cannot aim the server at its own network): `true` for all, or a comma-separated
   * list of hosts, host:port pairs and networks (`typebot.internal,10.0.0.5:3000,10.1.0.0/16`),
   * for a self-hosted Typebot or model server inside the operator's network, and for tests
   * against local fakes.
   */
  OUTBOUND_ALLOW_PRIVATE: z.string().optional().transform(parseAllowance),
  /** The Graph API the Cloud API connections speak to, version included. */
  CLOUD_API_GRAPH_URL: z
    .string()
    .url()
    .transform((url) => url.replace(/\/+$/, ''))
    .default(DEFAULT_GRAPH_API_URL),
  /** Production refuses a Graph API address other than Meta's unless this says it is meant. */
  CLOUD_API_ALLOW_CUSTOM_GRAPH_URL: bool.default(false),
  /** Dialogflow ES's REST API (detectIntent); the token URL comes from each service-account key. */
  DIALOGFLOW_API_URL: z.string().url().default('https://dialogflow.googleapis.com'),
  /** Retries of a webhook or n8n delivery that failed, each later than the last. */
  INTEGRATION_DELIVERY_RETRIES: z.coerce.number().int().min(0).max(20).default(5),
  /** The wait before a delivery's first retry (doubled for each later one). */
  INTEGRATION_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3_600).default(30),
  /** Data rows an imported sheet (contacts, contact lists) may have; more are refused. */
  IMPORT_MAX_ROWS: z.coerce.number().int().min(1).max(10_000_000).default(100_000),
  /** How long measuring an imported sheet may take before it is refused. */
  IMPORT_TIME_BUDGET_SECONDS: z.coerce.number().int().min(1).max(3_600).default(120),
  /** Sends a minute one external-API token may make. */
  EXTERNAL_API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /** How long the chatbot waits after a message, so messages sent together get one answer. */
  BOT_REPLY_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /**
   * How long a send may be in flight before the instance that takes its connection over treats
   * it as interrupted (sent again under its own id, which the network recognises).
   */
  OUTBOUND_STALE_SEND_SECONDS: z.coerce.number().int().min(1).max(3_600).default(120),
  /**
   * Milliseconds of one second of the campaign settings' intervals: 1000 in production; tests run
   * the same pacing faster.
   */
  CAMPAIGN_SECOND_MS: z.coerce.number().int().min(1).max(1_000).default(1_000),
  /** How soon a campaign whose connection is down looks again. */
  CAMPAIGN_PAUSE_RETRY_MS: z.coerce.number().int().min(10).max(600_000).default(30_000),
  /** How long a campaign waits for the answer to a confirmation before it may finish. */
  CAMPAIGN_CONFIRMATION_WINDOW_HOURS: z.coerce.number().min(0).max(720).default(24),
  /** The simulator's network answers a send this much later (rehearses a slow network). */
  SIMULATOR_SEND_LATENCY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /** The SMTP server that sends the platform's mail (password reset codes). */
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  SMTP_SECURE: bool.default(false),
  SMTP_USER: z.string().optional(),
  SMTP_PASS: z.string().optional(),
  MAIL_FROM: z.string().default('Atendi <no-reply@atendi.local>'),
  /** Asaas' API (its sandbox: https://api-sandbox.asaas.com/v3); the key is the `asaas` setting. */
  ASAAS_BASE_URL: z.string().url().default('https://api.asaas.com/v3'),
  /** The token Asaas sends in `asaas-access-token` on its webhook; unset, every call is refused. */
  ASAAS_WEBHOOK_TOKEN: z.string().min(16).optional(),
  /** Days past its due date a company may still sign in (to pay); then sign-in is refused. */
  BILLING_GRACE_DAYS: z.coerce.number().int().min(0).max(90).default(3),
  /** Days before its due date a company's invoice is written. */
  INVOICE_LEAD_DAYS: z.coerce.number().int().min(0).max(60).default(10),
});

export type Config = z.infer<typeof envSchema> & {
  host: string;
  roles: ReadonlySet<ServerRole>;
  logFormat: 'json' | 'pretty';
  demoSeed: boolean;
  frontendOrigins: string[];
};

export class ConfigError extends Error {}

/** Meta's Graph API, any version: https://graph.facebook.com/v21.0. */
export function isMetaGraphUrl(url: string): boolean {
  const parsed = new URL(url);
  return (
    parsed.protocol === 'https:' &&
    parsed.hostname === 'graph.facebook.com' &&
    parsed.port === '' &&
    /^\/v\d+(\.\d+)?$/.test(parsed.pathname)
  );
}

/**
 * Reads the environment. In production it refuses what would make the install unsafe: the
 * development JWT secret or a short one, no first admin, a known default admin password.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment: ${fields.join('; ')}`);
  }
  const values = parsed.data;
  const production = values.NODE_ENV === 'production';
  if (production) {
    if (values.JWT_SECRET === DEV_JWT_SECRET || values.JWT_SECRET.length < 32) {
      throw new ConfigError('JWT_SECRET must be set to a random value of at least 32 characters.');
    }
    if (!values.ADMIN_EMAIL || !values.ADMIN_PASSWORD) {
      throw new ConfigError('ADMIN_EMAIL and ADMIN_PASSWORD must name the first super user.');
    }
    if (values.ADMIN_PASSWORD.length < 8 || values.ADMIN_PASSWORD === DEMO_ADMIN.password) {
      throw new ConfigError('ADMIN_PASSWORD must have at least 8 characters and not be a default.');
    }
    if (values.SECRETS_KEY === DEV_SECRETS_KEY || values.SECRETS_KEY.length < 32) {
      throw new ConfigError('SECRETS_KEY must be set to a random value of at least 32 characters.');
    }
    if (values.DEMO_SEED) throw new ConfigError('DEMO_SEED is not allowed in production.');
    if (!isMetaGraphUrl(values.CLOUD_API_GRAPH_URL) && !values.CLOUD_API_ALLOW_CUSTOM_GRAPH_URL) {
      throw new ConfigError(
        "CLOUD_API_GRAPH_URL must be Meta's https://graph.facebook.com/<version> unless CLOUD_API_ALLOW_CUSTOM_GRAPH_URL=true.",
      );
    }
  }
  return {
    ...values,
    host: values.HOST ?? (production ? '0.0.0.0' : '127.0.0.1'),
    roles: new Set(values.SERVER_ROLES),
    logFormat: values.LOG_FORMAT ?? (production ? 'json' : 'pretty'),
    demoSeed: !production && (values.DEMO_SEED ?? true),
    frontendOrigins: values.FRONTEND_URL.split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  };
}
