import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Work that finishes after an answer (deliveries, events) is awaited by polling; a loaded
    // machine needs more than the default second.
    expect: { poll: { timeout: 10_000 } },
    // Each file gets its own database cloned from a migrated template, so files run in parallel.
    pool: 'forks',
    // After the web's files (the root config): these mostly wait, so three at once keep two cores
    // busy where two left a third of them idle.
    sequence: { groupOrder: 1 },
    maxWorkers: 3,
  },
});
