import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';

/** Every line the server logs, as written. */
function capture() {
  const lines: string[] = [];
  return {
    lines,
    stream: { write: (text: string) => lines.push(...text.trimEnd().split('\n')) },
  };
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Requests of every kind: health checks, a file, a sign-in, a list and a missing route. */
async function traffic(running: TestServer) {
  const { company, admin } = await running.make.company();
  for (let i = 0; i < 5; i++) await running.app.inject({ method: 'GET', url: '/version' });
  await running.app.inject({
    method: 'GET',
    url: `/media/${company.id}/missing.png?expires=1&signature=abc`,
  });
  const session = await running.login(admin.email);
  await running.as(session.token).get('/tickets?status=open');
  await running.app.inject({ method: 'GET', url: '/nowhere' });
  return { session, password: admin.password };
}

describe('request logs', () => {
  it('outside production: one short line per request, none for health checks and files', async () => {
    const log = capture();
    server = await startTestServer({ NODE_ENV: 'development', LOG_LEVEL: 'info' }, undefined, {
      logStream: log.stream,
    });
    const before = log.lines.length;
    const { session, password } = await traffic(server);
    const lines = log.lines.slice(before);

    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d INFO POST \/auth\/login 200 \d+ms$/);
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d INFO GET \/tickets\?status=open 200 \d+ms$/);
    expect(lines[2]).toMatch(/^\d\d:\d\d:\d\d INFO GET \/nowhere 404 \d+ms$/);
    const all = log.lines.join('\n');
    expect(all).not.toContain(password);
    expect(all).not.toContain(session.token);
  });

  it('in production: structured JSON entries, credentials left out', async () => {
    const log = capture();
    server = await startTestServer(
      {
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        ADMIN_EMAIL: 'root@example.com',
        ADMIN_PASSWORD: 'a long admin password',
      },
      undefined,
      { logStream: log.stream },
    );
    const before = log.lines.length;
    const { session, password } = await traffic(server);
    const entries = log.lines.slice(before).map((line) => JSON.parse(line));

    const login = entries.filter((entry) => entry.req?.url === '/auth/login');
    expect(login).toHaveLength(1);
    expect(login[0]).toMatchObject({ level: 30, req: { method: 'POST' } });
    expect(entries.some((entry) => entry.res?.statusCode === 200)).toBe(true);
    const media = entries.find((entry) => entry.req?.url?.startsWith('/media/'));
    expect(media.req.url).toContain('signature=[redacted]');
    const all = log.lines.join('\n');
    expect(all).not.toContain(password);
    expect(all).not.toContain(session.token);
  });
});
