/**
 * Boots the product the README way (`npm start`, no DATABASE_URL: embedded PostgreSQL and demo
 * data) from a copy of the checkout inside a private folder (mode 0700, as root's home is on a
 * VPS), and signs in as the demo admin. Exits non-zero on any failure.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

const API = 'http://127.0.0.1:18181';
const WEB = 'http://127.0.0.1:13131';
const ROOT = join(import.meta.dirname, '..');
/** What a fresh clone has not: history, and what earlier runs wrote. */
const SKIP = new Set([
  '.git',
  'data',
  'storage',
  'test-results',
  'e2e/test-results',
  'e2e/playwright-report',
  'apps/web/dist',
  'bench/results',
]);

/**
 * Copies the checkout; files under node_modules are hard-linked (npm start never writes there),
 * so the copy is quick, and the embedded PostgreSQL's binaries sit inside the private folder.
 */
function copyCheckout(from: string, to: string, linked = false) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from)) {
    const source = join(from, entry);
    const target = join(to, entry);
    if (SKIP.has(relative(ROOT, source))) continue;
    const stat = lstatSync(source);
    if (stat.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else if (stat.isDirectory()) copyCheckout(source, target, linked || entry === 'node_modules');
    else if (!linked) copyFileSync(source, target);
    else {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
      }
    }
    if (!stat.isSymbolicLink()) chmodSync(target, stat.mode & 0o7777);
  }
}

const home = mkdtempSync(join(tmpdir(), 'atendi-smoke-'));
chmodSync(home, 0o700);
const checkout = join(home, 'atendi');
copyCheckout(ROOT, checkout);

const env = {
  ...process.env,
  PORT: '18181',
  WEB_PORT: '13131',
  EMBEDDED_PG_PORT: '54377',
};
delete env.DATABASE_URL;
delete env.REDIS_URL;
delete env.NODE_ENV;
delete env.DATA_DIR;

const child = spawn('npm', ['start'], {
  cwd: checkout,
  env,
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
let output = '';
child.stdout.on('data', (chunk) => (output += chunk));
child.stderr.on('data', (chunk) => (output += chunk));

async function waitFor(url: string, deadline: number) {
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return response;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer in time`);
}

let failed = false;
try {
  const deadline = Date.now() + 240_000;
  const version = await (await waitFor(`${API}/version`, deadline)).json();
  if (version.version !== '6.0.0') throw new Error(`unexpected version ${JSON.stringify(version)}`);
  const login = await fetch(`${API}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@admin.com', password: '123456' }),
  });
  const session = await login.json();
  if (login.status !== 200 || !session.token) throw new Error(`login failed: ${login.status}`);
  const page = await (await waitFor(`${WEB}/login`, deadline)).text();
  if (!page.includes('id="root"')) throw new Error('the web app did not serve its page');
  if (!output.includes('admin@admin.com / 123456'))
    throw new Error('the demo sign-in was not printed');
  console.log(
    `smoke: npm start in a private folder (as uid ${process.getuid?.()}) served /version 6.0.0, the web app, and signed in as admin@admin.com`,
  );
} catch (error) {
  failed = true;
  console.error(`smoke failed: ${(error as Error).message}\n--- server output ---\n${output}`);
} finally {
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {}
  await new Promise((resolve) => setTimeout(resolve, 3000));
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {}
  // The cluster lives outside the checkout when the database's user cannot reach into it.
  const cluster = /embedded PostgreSQL in (\S+)/.exec(output)?.[1];
  if (cluster && !cluster.startsWith(checkout))
    rmSync(dirname(cluster), { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
