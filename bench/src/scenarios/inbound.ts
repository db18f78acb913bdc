import { performance } from 'node:perf_hooks';
import { io } from 'socket.io-client';
import { globalDb } from '../../../apps/server/src/db/global';
import { connections, plans } from '../../../apps/server/src/db/schema';
import { TenantDb, toHandle } from '../../../apps/server/src/db/tenant';
import { provisionCompany } from '../../../apps/server/src/modules/companies/companies.service';
import type { BenchServer } from '../environment';
import { round, summarise } from '../stats';

export interface InboundOptions {
  contacts: number;
  messages: number;
  concurrency: number;
}

/**
 * Inbound path: from the provider's callback (the pipeline's `receive`) to the message committed
 * and emitted, and on to a connected agent's socket. Throughput is messages per second over the
 * whole run; latency is callback to socket arrival.
 */
export async function inboundScenario(server: BenchServer, options: InboundOptions) {
  const db = globalDb({ db: toHandle(server.database.db) });
  const [plan] = await db
    .insert(plans, { name: 'Bench', users: 100, connections: 10, queues: 10, value: 0 })
    .returning();
  const { company } = await provisionCompany(db, {
    name: 'Bench company',
    email: 'bench@example.com',
    planId: plan!.id,
    admin: { name: 'Bench', email: 'bench@example.com', password: 'bench-password' },
  });
  const [connection] = await new TenantDb(server.database.db, company.id)
    .insert(connections, { name: 'Bench simulator', provider: 'simulator', isDefault: true })
    .returning();
  const ref = { id: connection!.id, companyId: company.id, name: connection!.name };

  const login = await server.app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { email: 'bench@example.com', password: 'bench-password' },
  });
  const socket = io(server.url, {
    query: { token: login.json().token },
    transports: ['websocket'],
    reconnection: false,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let received = 0;
  let allReceived: () => void = () => {};
  socket.on(
    `company-${company.id}-appMessage`,
    (payload: { action: string; message: { body: string } }) => {
      if (payload.action !== 'create') return;
      const started = sentAt.get(payload.message.body);
      if (started === undefined) return;
      latencies.push(performance.now() - started);
      received += 1;
      if (received === sentAt.size) allReceived();
    },
  );

  let sequence = 0;
  const receiveOne = async (index: number) => {
    const body = `bench message ${sequence++}`;
    const phone = `55119${String(index % options.contacts).padStart(8, '0')}`;
    sentAt.set(body, performance.now());
    await server.app.services.inbound.receive(ref, {
      providerMessageId: `BENCH${sequence}-${index}`,
      chatId: phone,
      isGroup: false,
      fromMe: false,
      contact: { number: phone, name: `Contato ${index % options.contacts}` },
      timestamp: new Date(),
      kind: 'text',
      body,
    });
  };
  const run = async (count: number, offset: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (next < count) await receiveOne(offset + next++);
      }),
    );
  };

  // Warm-up: contacts and tickets exist afterwards, as on a live system.
  await run(Math.min(options.contacts, 2000), 0);
  await new Promise((resolve) => setTimeout(resolve, 500));
  sentAt.clear();
  latencies.length = 0;
  received = 0;

  const done = new Promise<void>((resolve) => {
    allReceived = resolve;
  });
  const started = performance.now();
  await run(options.messages, 0);
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  const seconds = (performance.now() - started) / 1000;
  socket.disconnect();
  const latency = summarise(latencies);
  return {
    name: 'inbound: provider callback -> committed -> agent socket',
    contacts: options.contacts,
    messages: options.messages,
    concurrency: options.concurrency,
    delivered: received,
    messagesPerSecond: round(received / seconds, 1),
    latencyMs: {
      p50: round(latency.p50),
      p95: round(latency.p95),
      p99: round(latency.p99),
      max: round(latency.max),
    },
  };
}
