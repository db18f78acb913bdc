import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/server', 'apps/web'],
    // The web's renders keep two cores busy with two files at once, so they run first, on their
    // own (mixed with server files, renders and servers slowed each other down); then the
    // server's files, which mostly wait on their database, sockets and timers, three at once
    // (apps/server/vitest.config.ts). The journeys alongside overload two cores.
    maxWorkers: 2,
    // CI also keeps a JSON summary, from which .ci/run prints one closing count.
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]]
      : ['default'],
  },
});
