/**
 * Boots the product the README way (`npm start`, no DATABASE_URL: embedded PostgreSQL and demo
 * data in a fresh folder) and signs in as the demo admin. Exits non-zero on any failure.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const API = 'http://127.0.0.1:18181';
const WEB = 'http://127.0.0.1:13131';
const dataDir = mkdtempSync(join(tmpdir(), 'atendi-smoke-'));
// As root the embedded database runs as a separate system user, which must reach the folder.
chmodSync(dataDir, 0o755);
const env = {
  ...process.env,
  PORT: '18181',
  WEB_PORT: '13131',
  DATA_DIR: dataDir,
  EMBEDDED_PG_PORT: '54377',
};
delete env.DATABASE_URL;
delete env.REDIS_URL;
delete env.NODE_ENV;

const child = spawn('npm', ['start'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
let output = '';
child.stdout.on('data', (chunk) => (output += chunk));
child.stderr.on('data', (chunk) => (output += chunk));

async function waitFor(url: string, deadline: number) {
  while (Date.now() < deadline) {
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
    'smoke: npm start served /version 6.0.0, the web app, and signed in as admin@admin.com',
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
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
