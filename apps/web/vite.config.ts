import type { ServerResponse } from 'node:http';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * In production the API server writes /env.js (the API address the browser should use). The
 * dev and preview servers answer it too, from BACKEND_URL, so index.html loads the same way.
 */
function envScript(): Plugin {
  const send = (res: ServerResponse) => {
    const env = { BACKEND_URL: process.env.BACKEND_URL ?? null };
    res.setHeader('content-type', 'application/javascript');
    res.setHeader('cache-control', 'no-store');
    res.end(`window.__ENV__ = ${JSON.stringify(env)};`);
  };
  return {
    name: 'atendi-env-script',
    configureServer(server) {
      server.middlewares.use('/env.js', (_req, res) => send(res));
    },
    configurePreviewServer(server) {
      server.middlewares.use('/env.js', (_req, res) => send(res));
    },
  };
}

export default defineConfig({
  plugins: [react(), envScript()],
  server: { host: '127.0.0.1', port: 3000 },
  preview: { host: '127.0.0.1', port: 3000 },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // React changes rarely: its own long-cached chunk. Everything else follows the lazy
        // pages, so the login screen does not download the tables and dialogs of the inbox.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
