import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { inboxFactories } from '../../../test/inbox';
import { sample } from '../../../test/metrics';
import { loadConfig } from '../../config';
import { connections, tickets } from '../../db/schema';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

describe('health, readiness and metrics', () => {
  let t: TestServer;
  let token: string;

  beforeAll(async () => {
    t = await startTestServer({ METRICS_TOKEN, METRICS_PORT: '0' });
    const { admin } = await t.make.company();
    token = (await t.login(admin.email)).token;
  });
  afterAll(() => t.stop());

  const scrape = async () => {
    const answer = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(answer.statusCode).toBe(200);
    return answer.body;
  };

  it('answers liveness and readiness', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      ready: true,
      database: true,
      migrations: true,
      redis: null,
      draining: false,
    });
  });

  it('keeps /metrics closed without the token and answers it with the token', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ error: 'ERR_NOT_FOUND' });
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN.replace('0', '1')}` },
    });
    expect(wrong.statusCode).toBe(404);
    const text = await scrape();
    for (const name of [
      'atendi_http_request_duration_seconds_bucket',
      'atendi_nodejs_eventloop_lag_seconds',
      'atendi_db_pool_connections',
      'atendi_socket_connections',
      'atendi_job_queue_depth',
    ]) {
      expect(text, name).toContain(name);
    }
  });

  it('serves the same figures on METRICS_PORT, and nothing else there', async () => {
    expect(t.metricsUrl).toBeDefined();
    const answer = await fetch(t.metricsUrl!);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/plain');
    expect(await answer.text()).toContain('atendi_http_request_duration_seconds');
    const other = await fetch(t.metricsUrl!.replace('/metrics', '/tickets'));
    expect(other.status).toBe(404);
  });

  it('counts requests by route and status, messages by provider and result, and statuses', async () => {
    const before = await scrape();
    const route = { method: 'GET', route: '/tickets', status: '200' };
    const requests = sample(before, 'atendi_http_request_duration_seconds_count', route);
    for (let i = 0; i < 3; i++) expect((await t.as(token).get('/tickets')).statusCode).toBe(200);

    const created = await t
      .as(token)
      .post('/whatsapp', { name: 'Simulador', provider: 'simulator' });
    const id = created.json().id as number;
    await t.as(token).post(`/whatsappsession/${id}`);
    const row = async () =>
      (await t.database.db.select().from(connections).where(eq(connections.id, id)))[0]!;
    await expect.poll(async () => (await row()).status).toBe('qrcode');
    await t.as(token).post(`/simulator/connections/${id}/scan`, { qrcode: (await row()).qrcode });
    await expect.poll(async () => (await row()).status).toBe('CONNECTED');
    const phone = '5511955550001';
    for (const body of ['um', 'dois']) {
      const sent = await t
        .as(token)
        .post(`/simulator/connections/${id}/phones/${phone}/messages`, { name: 'C', body });
      expect(sent.statusCode).toBe(201);
    }
    const ticketId = async () =>
      (await t.database.db.select().from(tickets).where(eq(tickets.whatsappId, id)))[0]?.id;
    await expect.poll(ticketId).toBeDefined();
    const reply = await t.as(token).post(`/messages/${await ticketId()}`, { body: 'resposta' });
    expect(reply.statusCode, reply.body).toBe(201);

    await expect
      .poll(async () =>
        sample(await scrape(), 'atendi_messages_inbound_total', {
          provider: 'simulator',
          result: 'stored',
        }),
      )
      .toBe(2);
    await expect
      .poll(async () =>
        sample(await scrape(), 'atendi_messages_outbound_total', {
          provider: 'simulator',
          result: 'sent',
        }),
      )
      .toBe(1);
    const after = await scrape();
    expect(sample(after, 'atendi_http_request_duration_seconds_count', route)).toBe(requests + 3);
    expect(
      sample(after, 'atendi_connections_by_status', { status: 'CONNECTED' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'atendi_channel_sessions')).toBe(1);
  });

  it('turns /ready to 503 once the instance drains', async () => {
    t.app.platform.health.drain();
    const ready = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ ready: false, database: true, draining: true });
    // Liveness is another question: the process still answers.
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});

describe('metrics closed by default', () => {
  it('answers 404 on /metrics when no token is configured, even to a bearer token', async () => {
    const t = await startTestServer();
    try {
      const answer = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer anything-at-all-0123456789' },
      });
      expect(answer.statusCode).toBe(404);
      expect(t.metricsUrl).toBeUndefined();
    } finally {
      await t.stop();
    }
  });
});

describe('server roles', () => {
  it('reads SERVER_ROLES (all by default) and refuses an unknown role', () => {
    expect([...loadConfig({}).roles].sort()).toEqual(['api', 'channels', 'jobs', 'web']);
    expect([...loadConfig({ SERVER_ROLES: 'api, jobs' }).roles].sort()).toEqual(['api', 'jobs']);
    expect(() => loadConfig({ SERVER_ROLES: 'api,mail' })).toThrow(/SERVER_ROLES/);
    expect(() => loadConfig({ SERVER_ROLES: '' })).toThrow(/SERVER_ROLES/);
  });

  it('an instance without channels never takes a lease; one without api answers only its health', async () => {
    const channels = { manager: { sweepMs: 100 } };
    const apiOnly = await startTestServer({ SERVER_ROLES: 'api,jobs' }, undefined, { channels });
    const worker = await startTestServer({ SERVER_ROLES: 'channels' }, apiOnly, { channels });
    try {
      const { admin } = await apiOnly.make.company();
      const token = (await apiOnly.login(admin.email)).token;
      const created = await apiOnly
        .as(token)
        .post('/whatsapp', { name: 'Simulador', provider: 'simulator' });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id as number;
      expect((await apiOnly.as(token).post(`/whatsappsession/${id}`)).statusCode).toBe(200);
      await expect.poll(() => worker.app.channels.isRunningHere(id)).toBe(true);
      expect(apiOnly.app.channels.isRunningHere(id)).toBe(false);
      expect(apiOnly.app.platform.leases.holds(id)).toBe(false);

      expect((await worker.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      expect((await worker.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
      const refused = await worker.as(token).get('/tickets');
      expect(refused.statusCode).toBe(404);
    } finally {
      await worker.stop();
      await apiOnly.stop();
    }
  });

  it('an instance without jobs queues work and runs none of it; one with jobs runs it', async () => {
    const apiOnly = await startTestServer({ SERVER_ROLES: 'api,channels' });
    let jobs: TestServer | undefined;
    try {
      const plan = await apiOnly.make.plan({ useSchedules: true });
      const { company, admin } = await apiOnly.make.company({ planId: plan.id });
      const token = (await apiOnly.login(admin.email)).token;
      const contact = await inboxFactories(apiOnly).contact(company.id, {
        name: 'Job',
        number: '5511933331111',
      });
      const created = await apiOnly.as(token).post('/schedules', {
        body: 'Sem conexão',
        contactId: contact.id,
        sendAt: new Date().toISOString(),
      });
      expect(created.statusCode, created.body).toBe(201);
      const status = async () =>
        (await apiOnly.as(token).get(`/schedules/${created.json().id}`)).json().status;
      // Past the engine's polling interval and the send's own wake-up: still waiting, queued.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(await status()).toBe('PENDENTE');
      expect((await apiOnly.app.platform.jobs.depths())['schedule-send']).toBe(1);

      // An instance with the jobs role picks it up (with no connection, it ends in error).
      jobs = await startTestServer({ SERVER_ROLES: 'jobs' }, apiOnly);
      await expect.poll(status, { timeout: 15_000 }).toBe('ERRO');
    } finally {
      await jobs?.stop();
      await apiOnly.stop();
    }
  });
});
