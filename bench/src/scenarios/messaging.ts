import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { hashPassword } from '../../../apps/server/src/platform/auth/passwords';
import { messageWebhook, signatureOf } from '../../../apps/server/test/fakes/graph-api';
import type { BenchServer } from '../environment';
import { PASSWORD } from '../generate';
import { round, summarise } from '../stats';

export interface MessagingOptions {
  /** Phones of the inbound throughput run, and its messages and concurrency. */
  contacts: number;
  messages: number;
  /** Rounds of `messages`; the median round's rate is reported. */
  rounds: number;
  concurrency: number;
  /** POST /messages calls, one at a time after a warm-up. */
  sends: number;
  /** Agent sockets of the realtime run, inbound messages per second and for how long. */
  agents: number;
  rate: number;
  seconds: number;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export async function call(
  server: BenchServer,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const answer = { status: response.status, body: text ? JSON.parse(text) : {} };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return answer;
}

export async function login(server: BenchServer, email: string): Promise<string> {
  const { body } = await call(server, undefined, 'POST', '/auth/login', {
    email,
    password: PASSWORD,
  });
  return body.token as string;
}

/** Runs `work` over `items`, `width` at a time. */
export async function eachLimited<T, R>(items: T[], width: number, work: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

function connectSocket(server: BenchServer, token: string): Promise<Socket> {
  const socket = io(server.url, {
    query: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A company of its own for the messaging runs: an admin and `agents` agents who see the waiting
 * line of no queue (allTicket), written with set-based SQL.
 */
/** A company (named after `tag`) with an admin and `agents` agents, as set-based SQL. */
export async function seedCompany(server: BenchServer, agents: number, tag = 'messaging') {
  const passwordHash = await hashPassword(PASSWORD);
  const one = async (text: string, values: unknown[]) =>
    (await server.pool.query(text, values)).rows[0] as { id: number };
  const plan = await one(
    `insert into plans (name, users, connections, queues, value) values ($1, 0, 0, 0, 0)
     returning id`,
    [`Bench ${tag}`],
  );
  const company = await one(
    `insert into companies (name, email, plan_id, due_date)
     values ($2, $3, $1, '2099-12-31') returning id`,
    [plan.id, `Bench ${tag}`, `${tag}@bench.example`],
  );
  await server.pool.query(
    `insert into users (company_id, name, email, password_hash, profile, super, all_ticket)
     select $1, case when g = 0 then 'Admin' else 'Agente ' || g end,
       case when g = 0 then 'admin.' || $4 || '@bench.example' else 'agent' || g || '.' || $4 || '@bench.example' end,
       $2, case when g = 0 then 'admin' else 'user' end, false, 'enabled'
     from generate_series(0, $3::int) g`,
    [company.id, passwordHash, agents, tag],
  );
  return {
    companyId: company.id,
    adminEmail: `admin.${tag}@bench.example`,
    agentEmails: Array.from({ length: agents }, (_, i) => `agent${i + 1}.${tag}@bench.example`),
  };
}

/** A simulator connection paired as a person would: started, its QR code scanned. */
export async function pairSimulator(server: BenchServer, token: string): Promise<number> {
  const created = await call(server, token, 'POST', '/whatsapp', {
    name: 'Simulador bench',
    provider: 'simulator',
  });
  const id = created.body.id as number;
  await call(server, token, 'POST', `/whatsappsession/${id}`);
  const until = async (done: (connection: Record<string, unknown>) => boolean) => {
    for (let tries = 0; tries < 300; tries++) {
      const { body } = await call(server, token, 'GET', `/whatsapp/${id}`);
      if (done(body)) return body;
      await sleep(100);
    }
    throw new Error('the simulator connection did not get there');
  };
  const { qrcode } = await until((connection) => String(connection.qrcode).startsWith('SIMULATOR'));
  await call(server, token, 'POST', `/simulator/connections/${id}/scan`, { qrcode });
  await until((connection) => connection.status === 'CONNECTED');
  return id;
}

const CLOUD = {
  phoneNumberId: '204060801234',
  accessToken: 'EAAGbenchaccesstoken0123456789',
  appSecret: 'bench-app-secret',
  verifyToken: 'bench-verify-token',
};

/** A Cloud API connection, as an admin creates it. */
async function cloudConnection(server: BenchServer, token: string): Promise<number> {
  const created = await call(server, token, 'POST', '/whatsapp', {
    name: 'Cloud API bench',
    provider: 'cloud-api',
    cloudApi: CLOUD,
  });
  const id = created.body.id as number;
  // Started, so its webhooks are taken (its health checks of the Graph API may fail offline:
  // storing a webhook's messages needs only the database).
  await call(server, token, 'POST', `/whatsappsession/${id}`);
  return id;
}

/**
 * Meta's side of the webhooks: signed POSTs over kept-alive connections (as Meta keeps them),
 * through node:http rather than fetch, whose own CPU on this shared machine would be taken from
 * the server being measured.
 */
const meta = new Agent({ keepAlive: true, maxSockets: 256 });

/** A contact's message as Meta delivers it: a signed webhook; answered once stored. */
function webhook(server: BenchServer, connectionId: number, phone: string, body: string) {
  const { payload } = messageWebhook(
    CLOUD.phoneNumberId,
    { phone, name: `Contato ${phone.slice(-4)}` },
    { type: 'text', text: { body } },
  );
  const text = JSON.stringify(payload);
  return new Promise<void>((resolve, reject) => {
    const sent = request(
      `${server.url}/webhooks/cloud-api/${connectionId}`,
      {
        method: 'POST',
        agent: meta,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          'x-hub-signature-256': signatureOf(CLOUD.appSecret, text),
        },
      },
      (response) => {
        let answer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          answer += chunk;
        });
        response.on('end', () =>
          response.statusCode === 200
            ? resolve()
            : reject(new Error(`webhook: ${response.statusCode} ${answer}`)),
        );
      },
    );
    sent.on('error', reject);
    sent.end(text);
  });
}

/** A phone of the simulator writes to the company. */
const phoneSends = (
  server: BenchServer,
  token: string,
  connectionId: number,
  phone: string,
  body: string,
) =>
  call(server, token, 'POST', `/simulator/connections/${connectionId}/phones/${phone}/messages`, {
    name: `Contato ${phone.slice(-4)}`,
    body,
  });

export const phoneOf = (prefix: string, index: number) =>
  `55${prefix}${String(index).padStart(8, '0')}`;

/** Times socket arrivals of the company's new messages by their body. */
function arrivals(
  socket: Socket,
  companyId: number,
  onArrival: (body: string, at: number) => void,
) {
  socket.on(
    `company-${companyId}-appMessage`,
    (payload: { action: string; message?: { body: string } }) => {
      if (payload.action === 'create' && payload.message) {
        onArrival(payload.message.body, performance.now());
      }
    },
  );
}

/**
 * The messaging runs on the real server over HTTP: inbound throughput from Meta's webhooks (the
 * provider's callback) to an admin's socket, POST /messages/{ticketId} on the simulator
 * connection, and the realtime fan-out of inbound messages at a fixed rate to `agents` connected
 * agent sockets.
 */
export async function messagingScenarios(server: BenchServer, options: MessagingOptions) {
  const company = await seedCompany(server, options.agents);
  const adminToken = await login(server, company.adminEmail);
  const cloudId = await cloudConnection(server, adminToken);
  const simulatorId = await pairSimulator(server, adminToken);

  // Inbound throughput: Meta's webhooks, `concurrency` at a time, each answered once stored.
  const adminSocket = await connectSocket(server, adminToken);
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let waiting: (() => void) | undefined;
  arrivals(adminSocket, company.companyId, (body, at) => {
    const started = sentAt.get(body);
    if (started === undefined) return;
    sentAt.delete(body);
    latencies.push(at - started);
    if (sentAt.size === 0) waiting?.();
  });
  let sequence = 0;
  const inboundRun = async (count: number) => {
    const indexes = Array.from({ length: count }, (_, i) => i);
    await eachLimited(indexes, options.concurrency, async (index) => {
      const body = `bench inbound ${sequence++}`;
      sentAt.set(body, performance.now());
      await webhook(server, cloudId, phoneOf('119', index % options.contacts), body);
    });
  };
  const drained = (timeoutMs: number) =>
    Promise.race([
      new Promise<void>((resolve) => {
        waiting = resolve;
        if (sentAt.size === 0) resolve();
      }),
      sleep(timeoutMs),
    ]);
  // Warm-up: every phone has its contact and ticket, as on a live system.
  await inboundRun(options.contacts);
  await drained(60_000);
  // Rounds of `messages` each, one after another: the median round's rate is the figure (a
  // checkpoint or a neighbour's burst on this shared machine moves one round, not the figure),
  // and the latency percentiles count every message of every round.
  sentAt.clear();
  latencies.length = 0;
  const rates: number[] = [];
  const serverCpuBefore = server.cpuSeconds();
  const postgresCpuBefore = await server.postgresCpuSeconds();
  for (let roundIndex = 0; roundIndex < options.rounds; roundIndex++) {
    const before = latencies.length;
    const started = performance.now();
    await inboundRun(options.messages);
    await drained(60_000);
    rates.push((latencies.length - before) / ((performance.now() - started) / 1000));
  }
  const serverCpu = (server.cpuSeconds() ?? Number.NaN) - (serverCpuBefore ?? Number.NaN);
  let postgresCpu = 0;
  for (const [pid, seconds] of await server.postgresCpuSeconds()) {
    postgresCpu += seconds - (postgresCpuBefore.get(pid) ?? 0);
  }
  const perMessageMs = (seconds: number) =>
    Number.isFinite(seconds) && latencies.length > 0
      ? round((seconds * 1000) / latencies.length, 3)
      : null;
  const inboundLatency = summarise(latencies);
  const sortedRates = [...rates].sort((a, b) => a - b);
  const inbound = {
    name: 'inbound: Cloud API webhook (HTTP, signed) -> stored -> admin socket',
    contacts: options.contacts,
    messages: options.messages,
    rounds: options.rounds,
    concurrency: options.concurrency,
    delivered: latencies.length,
    expected: options.messages * options.rounds,
    messagesPerSecond: round(sortedRates[Math.floor((sortedRates.length - 1) / 2)]!, 1),
    roundsPerSecond: rates.map((rate) => round(rate, 1)),
    /**
     * CPU used per message over the rounds, by the server process and by the database's
     * PostgreSQL backends (Linux): what a round costs, whatever else the machine runs meanwhile.
     */
    cpuMsPerMessage: { server: perMessageMs(serverCpu), postgres: perMessageMs(postgresCpu) },
    latencyMs: {
      p50: round(inboundLatency.p50),
      p95: round(inboundLatency.p95),
      p99: round(inboundLatency.p99),
      max: round(inboundLatency.max),
    },
  };
  adminSocket.disconnect();

  // POST /messages/{ticketId}: an agent's replies, one at a time, on tickets of the simulator
  // (its phones wrote first, so the tickets exist).
  for (let i = 0; i < 20; i++) {
    await phoneSends(server, adminToken, simulatorId, phoneOf('319', i), `oi ${i}`);
  }
  let ticketIds: number[] = [];
  for (let tries = 0; tries < 100 && ticketIds.length < 20; tries++) {
    const { body: page } = await call(
      server,
      adminToken,
      'GET',
      '/tickets?showAll=true&status=pending&pageNumber=1',
    );
    ticketIds = (page.tickets as { id: number; whatsappId: number }[])
      .filter((ticket) => ticket.whatsappId === simulatorId)
      .map((ticket) => ticket.id);
    if (ticketIds.length < 20) await sleep(100);
  }
  const send = async (index: number) =>
    call(server, adminToken, 'POST', `/messages/${ticketIds[index % ticketIds.length]}`, {
      body: `resposta do atendente ${index}`,
    });
  for (let i = 0; i < 20; i++) await send(i);
  const sendSamples: number[] = [];
  const sendsStarted = performance.now();
  for (let i = 0; i < options.sends; i++) {
    const at = performance.now();
    await send(i);
    sendSamples.push(performance.now() - at);
  }
  const sendSummary = summarise(sendSamples);
  const outbound = {
    name: 'POST /messages/{ticketId} (simulator connection)',
    requests: options.sends,
    tickets: ticketIds.length,
    p50: round(sendSummary.p50),
    p95: round(sendSummary.p95),
    p99: round(sendSummary.p99),
    requestsPerSecond: round(options.sends / ((performance.now() - sendsStarted) / 1000), 1),
  };

  // Realtime: every agent signed in with a socket of its own; inbound at a fixed rate; the
  // latency of each message to each socket that may see it (all of them: allTicket agents see
  // the waiting line of no queue).
  const tokens = await eachLimited(company.agentEmails, 4, (email) => login(server, email));
  const sockets = await eachLimited(tokens, 25, (token) => connectSocket(server, token));
  const sent = new Map<string, number>();
  const fanout: number[] = [];
  const expected = Math.round(options.rate * options.seconds) * sockets.length;
  let allArrived: (() => void) | undefined;
  for (const socket of sockets) {
    arrivals(socket, company.companyId, (body, at) => {
      const started = sent.get(body);
      if (started === undefined) return;
      fanout.push(at - started);
      if (fanout.length === expected) allArrived?.();
    });
  }
  const total = Math.round(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  const realtimeStarted = performance.now();
  const requests: Promise<unknown>[] = [];
  // A webhook the server did not take is a message no socket can hear: counted, not hidden.
  const refused = new Map<string, number>();
  for (let i = 0; i < total; i++) {
    const due = realtimeStarted + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const body = `bench fanout ${i}`;
    sent.set(body, performance.now());
    requests.push(
      webhook(server, cloudId, phoneOf('219', i % 50), body).catch((error: Error) => {
        const reason = error.message.slice(0, 120);
        refused.set(reason, (refused.get(reason) ?? 0) + 1);
      }),
    );
  }
  await Promise.all(requests);
  await Promise.race([
    new Promise<void>((resolve) => {
      allArrived = resolve;
      if (fanout.length >= expected) resolve();
    }),
    sleep(30_000),
  ]);
  const fanoutSummary = summarise(fanout);
  for (const socket of sockets) socket.disconnect();
  const realtime = {
    name: `realtime: inbound at ${options.rate}/s to ${sockets.length} agent sockets`,
    sockets: sockets.length,
    messages: total,
    ratePerSecond: options.rate,
    deliveries: fanout.length,
    expectedDeliveries: expected,
    webhooksRefused: Object.fromEntries(refused),
    latencyMs: {
      p50: round(fanoutSummary.p50),
      p95: round(fanoutSummary.p95),
      p99: round(fanoutSummary.p99),
      max: round(fanoutSummary.max),
    },
  };
  meta.destroy();
  return { inbound, outbound, realtime };
}
