import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connections, tickets } from '../src/db/schema';
import { startTestServer, type TestServer } from './harness';
import { closeSockets, socketFor } from './inbox';

/**
 * A phone's message through the simulator network (the provider, the manager, the inbound
 * pipeline, the realtime gateway; nothing made by hand) reaches the sockets that may see its
 * ticket, and no other: not another queue's agent, not another company.
 */

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  closeSockets();
  await t?.stop();
});

/** Every payload of one event a socket hears, as it hears them. */
function hear(socket: Socket, event: string) {
  const heard: unknown[] = [];
  socket.on(event, (payload: unknown) => heard.push(payload));
  return heard;
}

const bodies = (heard: unknown[]) =>
  heard.map((payload) => (payload as { message: { body: string } }).message.body);

describe('a phone message through the simulator', () => {
  it("reaches the company's authorised agents only", { timeout: 60_000 }, async () => {
    const a = await t.make.company();
    const b = await t.make.company();
    const companyId = a.company.id;
    const sales = await t.make.queue(companyId, { name: 'Vendas' });
    const support = await t.make.queue(companyId, { name: 'Suporte' });
    // sees tickets without a queue (allTicket) besides its own queue
    const triage = await t.make.user(companyId, { allTicket: 'enabled', queueIds: [support.id] });
    const seller = await t.make.user(companyId, { queueIds: [sales.id] });
    const supporter = await t.make.user(companyId, { queueIds: [support.id] });

    const adminToken = (await t.login(a.admin.email)).token;
    const created = await t.as(adminToken).post('/whatsapp', {
      name: 'Simulador',
      provider: 'simulator',
    });
    expect(created.statusCode, created.body).toBe(201);
    const connectionId = created.json().id as number;
    expect((await t.as(adminToken).post(`/whatsappsession/${connectionId}`)).statusCode).toBe(200);
    const status = async () =>
      (
        await t.database.db
          .select({ status: connections.status, qrcode: connections.qrcode })
          .from(connections)
          .where(eq(connections.id, connectionId))
      )[0]!;
    await expect.poll(async () => (await status()).status).toBe('qrcode');
    const scanned = await t
      .as(adminToken)
      .post(`/simulator/connections/${connectionId}/scan`, { qrcode: (await status()).qrcode });
    expect(scanned.statusCode).toBe(204);
    await expect.poll(async () => (await status()).status).toBe('CONNECTED');

    const sockets = {
      admin: await socketFor(t, adminToken),
      triage: await socketFor(t, (await t.login(triage.email)).token),
      seller: await socketFor(t, (await t.login(seller.email)).token),
      supporter: await socketFor(t, (await t.login(supporter.email)).token),
      otherCompany: await socketFor(t, (await t.login(b.admin.email)).token),
    };
    const event = `company-${companyId}-appMessage`;
    const heard = Object.fromEntries(
      Object.entries(sockets).map(([name, socket]) => [name, hear(socket, event)]),
    ) as Record<keyof typeof sockets, unknown[]>;
    const otherCompanyAny: string[] = [];
    sockets.otherCompany.onAny((name: string) => otherCompanyAny.push(name));

    const phone = '5511966660001';
    const send = async (body: string) => {
      const sent = await t
        .as(adminToken)
        .post(`/simulator/connections/${connectionId}/phones/${phone}/messages`, {
          name: 'Joana',
          body,
        });
      expect(sent.statusCode, sent.body).toBe(201);
    };

    // A new ticket has no queue: the admins and the agents who see queueless tickets.
    await send('primeira');
    await expect.poll(() => bodies(heard.admin)).toContain('primeira');
    await expect.poll(() => bodies(heard.triage)).toContain('primeira');
    const first = heard.admin.find(
      (payload) => (payload as { message: { body: string } }).message.body === 'primeira',
    ) as { message: { ticketId: number }; ticket: { contact?: { number: string } } };

    // Sent to Vendas: its agent now hears the ticket, Suporte's agent still does not.
    await t.database.db
      .update(tickets)
      .set({ queueId: sales.id })
      .where(eq(tickets.id, first.message.ticketId));
    await send('segunda');
    await expect.poll(() => bodies(heard.admin)).toContain('segunda');
    await expect.poll(() => bodies(heard.seller)).toContain('segunda');

    // Whatever came late has come: a marker message heard by the admin after both.
    await send('terceira');
    await expect.poll(() => bodies(heard.seller)).toContain('terceira');
    expect(bodies(heard.seller)).not.toContain('primeira');
    expect(bodies(heard.supporter)).toEqual([]);
    expect(bodies(heard.triage)).not.toContain('segunda');
    expect(heard.otherCompany).toEqual([]);
    expect(otherCompanyAny.filter((name) => name.startsWith(`company-${companyId}-`))).toEqual([]);
    expect(first.ticket.contact?.number).toBe(phone);
  });
});
