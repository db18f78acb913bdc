/**
 * The production build: the server and the shared package compiled to one ES module,
 * `apps/server/dist/main.js`, which production runs with plain `node` (no TypeScript loader).
 * Packages from node_modules stay outside the bundle (native ones among them: argon2, sharp,
 * the embedded PostgreSQL); only our own workspace code is compiled in. The bundle sits one
 * folder below apps/server, as src/main.ts does, so the paths it finds from its own address
 * (the repository root, the migrations) are the same.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = fileURLToPath(new URL('.', import.meta.url));
const outdir = `${root}dist`;

/** Bare imports stay imports, except the workspace's shared package. */
const packagesOutside: Plugin = {
  name: 'packages-outside',
  setup(on) {
    on.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path === '@atendi/shared' || args.path.startsWith('@atendi/shared/')) return;
      return { path: args.path, external: true };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { main: `${root}src/main.ts` },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
  plugins: [packagesOutside],
  logLevel: 'warning',
  metafile: true,
});
const size = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(`server built: ${outdir}/main.js (${Math.round(size / 1024)} KiB with its source map)`);
