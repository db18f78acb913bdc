import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/server', 'apps/web'],
    // Server files mostly wait on their database, sockets and timers: two at once keep two cores
    // busy where vitest's default (one per core, less one) left one of them idle. Three, or the
    // journeys alongside, overload two cores until jsdom renders time out.
    maxWorkers: 2,
    // CI also keeps a JSON summary, from which .ci/run prints one closing count.
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]]
      : ['default'],
  },
});
