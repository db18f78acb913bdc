import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Repository root, so ./data and ./storage land there whichever folder npm runs us from. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export const DEV_JWT_SECRET = 'dev-only-secret-change-me-dev-only-secret';
export const DEMO_ADMIN = { email: 'admin@admin.com', password: '123456' } as const;

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

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
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  TRUST_PROXY: bool.default(false),
  /** How long the chatbot waits after a message, so messages sent together get one answer. */
  BOT_REPLY_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /** The SMTP server that sends the platform's mail (password reset codes). */
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  SMTP_SECURE: bool.default(false),
  SMTP_USER: z.string().optional(),
  SMTP_PASS: z.string().optional(),
  MAIL_FROM: z.string().default('Atendi <no-reply@atendi.local>'),
});

export type Config = z.infer<typeof envSchema> & {
  host: string;
  demoSeed: boolean;
  frontendOrigins: string[];
};

export class ConfigError extends Error {}

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
    if (values.DEMO_SEED) throw new ConfigError('DEMO_SEED is not allowed in production.');
  }
  return {
    ...values,
    host: values.HOST ?? (production ? '0.0.0.0' : '127.0.0.1'),
    demoSeed: !production && (values.DEMO_SEED ?? true),
    frontendOrigins: values.FRONTEND_URL.split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  };
}
