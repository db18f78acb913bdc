import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_JWT_SECRET, loadConfig } from './config';

const production = {
  NODE_ENV: 'production',
  JWT_SECRET: 'a'.repeat(16) + 'b'.repeat(16) + 'c'.repeat(8),
  ADMIN_EMAIL: 'owner@example.com',
  ADMIN_PASSWORD: 'a long and good password',
  DATABASE_URL: 'postgres://db.example.com/atendi',
  SECRETS_KEY: 'production-secrets-key-0123456789-abcdefgh',
};

describe('configuration', () => {
  it('runs development with demo data and local-only listening by default', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 8080, WEB_PORT: 3000, host: '127.0.0.1', demoSeed: true });
  });

  it('accepts a complete production environment without demo data', () => {
    const config = loadConfig(production);
    expect(config.demoSeed).toBe(false);
    expect(config.host).toBe('0.0.0.0');
  });

  it.each([
    ['the development JWT secret', { JWT_SECRET: DEV_JWT_SECRET }],
    ['a short JWT secret', { JWT_SECRET: 'short-secret' }],
    ['no JWT secret', { JWT_SECRET: undefined }],
    ['no first admin', { ADMIN_EMAIL: undefined }],
    ['no first admin password', { ADMIN_PASSWORD: undefined }],
    ['the default admin password', { ADMIN_PASSWORD: '123456' }],
    ['demo data', { DEMO_SEED: 'true' }],
    [
      "a Graph API address other than Meta's",
      { CLOUD_API_GRAPH_URL: 'https://127.0.0.1:8443/v21.0' },
    ],
    [
      "Meta's Graph API over plain http",
      { CLOUD_API_GRAPH_URL: 'http://graph.facebook.com/v21.0' },
    ],
  ])('refuses production with %s', (_what, change) => {
    expect(() => loadConfig({ ...production, ...change })).toThrow(ConfigError);
  });

  it("takes Meta's Graph API by default, another version of it, or another address only when allowed", () => {
    expect(loadConfig(production).CLOUD_API_GRAPH_URL).toBe('https://graph.facebook.com/v21.0');
    expect(
      loadConfig({ ...production, CLOUD_API_GRAPH_URL: 'https://graph.facebook.com/v23.0/' })
        .CLOUD_API_GRAPH_URL,
    ).toBe('https://graph.facebook.com/v23.0');
    const custom = { CLOUD_API_GRAPH_URL: 'https://graph-proxy.example.com/v21.0' };
    expect(() => loadConfig({ ...production, ...custom })).toThrow(ConfigError);
    expect(
      loadConfig({ ...production, ...custom, CLOUD_API_ALLOW_CUSTOM_GRAPH_URL: 'true' })
        .CLOUD_API_GRAPH_URL,
    ).toBe(custom.CLOUD_API_GRAPH_URL);
    // Outside production a local Graph API (a test's fake) is taken as it is.
    expect(
      loadConfig({ CLOUD_API_GRAPH_URL: 'http://127.0.0.1:9/v21.0' }).CLOUD_API_GRAPH_URL,
    ).toBe('http://127.0.0.1:9/v21.0');
  });

  it('reads OUTBOUND_ALLOW_PRIVATE as all, nothing, or a list of hosts and networks', () => {
    expect(loadConfig({}).OUTBOUND_ALLOW_PRIVATE).toEqual({ all: false, entries: [] });
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'true' }).OUTBOUND_ALLOW_PRIVATE.all).toBe(true);
    expect(
      loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'Typebot.internal, 10.0.0.5:3000,10.1.0.0/16' })
        .OUTBOUND_ALLOW_PRIVATE,
    ).toEqual({ all: false, entries: ['typebot.internal', '10.0.0.5:3000', '10.1.0.0/16'] });
  });

  it('stops the server process before it listens when production is unsafe', () => {
    const main = fileURLToPath(new URL('./main.ts', import.meta.url));
    const result = spawnSync(process.execPath, ['--import', 'tsx', main], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        ADMIN_EMAIL: 'a@b.co',
        ADMIN_PASSWORD: 'long-password-1',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Refusing to start: JWT_SECRET');
  });
});
