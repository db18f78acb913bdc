import { defineConfig } from '@playwright/test';

/**
 * The journeys run in WORKERS browsers at once, each worker against a server, database and
 * payment stand-in of its own (global-setup.ts starts one per slot), so a journey sees the
 * same world as when they ran one after another: its own demo admin, settings and simulator.
 */
export const WORKERS = Number(process.env.E2E_WORKERS ?? 2);

/** What the server of slot `slot` listens on and runs against. */
export function slotOf(slot: number) {
  return {
    apiPort: Number(process.env.E2E_API_PORT ?? 18090) + slot,
    webPort: Number(process.env.E2E_WEB_PORT ?? 13090) + slot,
    /** Its database, when DATABASE_URL names a PostgreSQL; else an embedded one on this port. */
    database: `${process.env.E2E_DATABASE ?? 'atendi_e2e'}_${slot}`,
    embeddedPgPort: 54366 + slot,
  };
}

/** This worker's slot (Playwright numbers the workers running at once from 0). */
export const SLOT = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
export const { apiPort: API_PORT, webPort: WEB_PORT } = slotOf(SLOT);

export default defineConfig({
  testDir: 'tests',
  globalSetup: './global-setup.ts',
  workers: WORKERS,
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
