import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { isSecretName, redactUrl } from './logger';

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
  for (const url of ['/version', '/health', '/ready', '/metrics']) {
    for (let i = 0; i < 3; i++) await running.app.inject({ method: 'GET', url });
  }
  await running.app.inject({
    method: 'GET',
    url: `/media/${company.id}/missing.png?expires=1&signature=abc`,
  });
  const session = await running.login(admin.email);
  await running.as(session.token).get('/tickets?status=open');
  await running.app.inject({ method: 'GET', url: '/nowhere' });
  return { session, password: admin.password };
}

describe('what the log masks', () => {
  it('names credentials by their words, not every name that holds one', () => {
    for (const name of ['newPassword', 'token', 'verify_token', 'hub.verify_token', 'apiKey']) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of ['code', 'access_token', 'appSecret', 'voiceKey', 'signature']) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of ['key', 'maxTokens', 'email', 'id', 'searchParam', 'pageNumber']) {
      expect(isSecretName(name), name).toBe(false);
    }
  });

  it("masks a route's secret path parameters and any secret query parameter", () => {
    expect(
      redactUrl(
        '/resetpasswords/a%40b.com/123456/Nova%20senha/',
        '/resetpasswords/:email/:token/:newPassword',
      ),
    ).toBe('/resetpasswords/a%40b.com/[redacted]/[redacted]');
    expect(
      redactUrl('/settings/userRating?x=1&hub.verify_token=abc&signature', '/settings/:key'),
    ).toBe('/settings/userRating?x=1&hub.verify_token=[redacted]&signature');
    expect(redactUrl('/socket.io/?EIO=4&token=eyJ&transport=websocket')).toBe(
      '/socket.io/?EIO=4&token=[redacted]&transport=websocket',
    );
  });
});

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

  it('LOG_FORMAT=pretty gives the short lines in production too', async () => {
    const log = capture();
    server = await startTestServer(
      {
        NODE_ENV: 'production',
        LOG_FORMAT: 'pretty',
        LOG_LEVEL: 'info',
        ADMIN_EMAIL: 'root@example.com',
        ADMIN_PASSWORD: 'a long admin password',
      },
      undefined,
      { logStream: log.stream },
    );
    const before = log.lines.length;
    await server.app.inject({ method: 'GET', url: '/nowhere' });
    expect(log.lines.slice(before)).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d INFO GET \/nowhere 404 \d+ms$/),
    ]);
  });

  it('carries a request id into every line of the request, its answer and a 500', async () => {
    const log = capture();
    server = await startTestServer({ LOG_FORMAT: 'json', LOG_LEVEL: 'info' }, undefined, {
      logStream: log.stream,
    });
    const { admin } = await server.make.company();
    const session = await server.login(admin.email);
    const before = log.lines.length;
    const answer = await server.app.inject({
      method: 'GET',
      url: '/tickets',
      headers: { authorization: `Bearer ${session.token}`, 'x-request-id': 'trace-42' },
    });
    expect(answer.headers['x-request-id']).toBe('trace-42');
    const made = await server.app.inject({ method: 'GET', url: '/version' });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const odd = await server.app.inject({
      method: 'GET',
      url: '/version',
      headers: { 'x-request-id': 'no spaces or <tags> here' },
    });
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const entries = log.lines.slice(before).map((line) => JSON.parse(line));
    const tickets = entries.filter((entry) => entry.requestId === 'trace-42');
    expect(tickets).toEqual([
      expect.objectContaining({
        level: 30,
        msg: expect.stringMatching(/^GET \/tickets 200 \d+ms$/),
        req: expect.objectContaining({ method: 'GET', url: '/tickets' }),
        res: { statusCode: 200 },
      }),
    ]);
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
    expect(login[0]).toMatchObject({
      level: 30,
      req: { method: 'POST' },
      res: { statusCode: 200 },
      requestId: expect.any(String),
    });
    // One entry per request, none for health checks and metrics.
    expect(new Set(entries.map((entry) => entry.requestId)).size).toBe(entries.length);
    for (const url of ['/version', '/health', '/ready', '/metrics']) {
      expect(entries.filter((entry) => entry.req?.url === url)).toEqual([]);
    }
    expect(entries.some((entry) => entry.res?.statusCode === 200)).toBe(true);
    const media = entries.find((entry) => entry.req?.url?.startsWith('/media/'));
    expect(media.req.url).toContain('signature=[redacted]');
    const all = log.lines.join('\n');
    expect(all).not.toContain(password);
    expect(all).not.toContain(session.token);
  });
});
