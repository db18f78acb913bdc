import { defineConfig } from '@playwright/test';

export const API_PORT = Number(process.env.E2E_API_PORT ?? 18090);
export const WEB_PORT = Number(process.env.E2E_WEB_PORT ?? 13090);
/** The database the journeys' server runs on, when DATABASE_URL names a PostgreSQL. */
export const E2E_DATABASE = process.env.E2E_DATABASE ?? 'atendi_e2e';

export default defineConfig({
  testDir: 'tests',
  globalSetup: './global-setup.ts',
  workers: 1,
  // One retry in CI so a timing hiccup of a shared 2-core machine does not hide the run; a
  // journey that passes only on its retry is reported as flaky.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI
    ? [['list'], ['json', { outputFile: '../test-results/playwright.json' }]]
    : [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${WEB_PORT}`,
    locale: 'pt-BR',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
