import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    // happy-dom: the same tests on about half the CPU of jsdom, which counts on two cores.
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // Renders of whole pages take seconds on a busy 2-core machine.
    testTimeout: 20_000,
  },
});
