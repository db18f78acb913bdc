import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../src/db/migrate';
import { messages, simulatorMessages } from '../src/db/schema';
import { startTestServer, type TestServer } from './harness';
import { inboxCompany, inboxFactories } from './inbox';

/** Runs one migration file's statements again on the test database, as the migrator splits them. */
async function replay(t: TestServer, file: string) {
  const text = readFileSync(join(MIGRATIONS_FOLDER, file), 'utf8');
  for (const statement of text.split('--> statement-breakpoint')) {
    await t.database.pool.query(statement);
  }
}

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

describe('migration 0008_message_acks', () => {
  it("moves stored acks to the spec's numbers, a failed send to 0", async () => {
    const make = inboxFactories(t);
    const { companyId, connection } = await inboxCompany(t);
    const ticket = await make.ticket(companyId, { whatsappId: connection.id });
    // As rows were stored before: -1 failed, 0 waiting, 1 sent, 2 delivered, 3 read, 4 played.
    const before = [-1, 0, 1, 2, 3, 4];
    for (const ack of before) {
      await make.message(companyId, ticket.id, { fromMe: true, ack, body: `ack ${ack}` });
    }
    await make.message(companyId, ticket.id, { fromMe: false, ack: 0, body: 'do contato' });
    const phone = { companyId, connectionId: connection.id, phone: '5511900000001' };
    await t.database.db.insert(simulatorMessages).values([
      { ...phone, direction: 'outbound', providerMessageId: 'OUT1', ack: 1 },
      { ...phone, direction: 'outbound', providerMessageId: 'OUT4', ack: 4 },
      { ...phone, direction: 'inbound', providerMessageId: 'IN0', ack: 0 },
      { ...phone, direction: 'inbound', providerMessageId: 'IN3', ack: 3 },
    ]);

    await replay(t, '0008_message_acks.sql');

    const stored = await t.database.db
      .select({ body: messages.body, ack: messages.ack })
      .from(messages)
      .where(eq(messages.ticketId, ticket.id))
      .orderBy(asc(messages.id));
    expect(stored).toEqual([
      { body: 'ack -1', ack: 0 },
      { body: 'ack 0', ack: 1 },
      { body: 'ack 1', ack: 2 },
      { body: 'ack 2', ack: 3 },
      { body: 'ack 3', ack: 4 },
      { body: 'ack 4', ack: 5 },
      { body: 'do contato', ack: 3 },
    ]);
    const onPhone = await t.database.db
      .select({ id: simulatorMessages.providerMessageId, ack: simulatorMessages.ack })
      .from(simulatorMessages)
      .where(eq(simulatorMessages.connectionId, connection.id))
      .orderBy(asc(simulatorMessages.id));
    expect(onPhone).toEqual([
      { id: 'OUT1', ack: 2 },
      { id: 'OUT4', ack: 5 },
      { id: 'IN0', ack: 1 },
      { id: 'IN3', ack: 4 },
    ]);
    // A row written without an ack is waiting to be sent, never a failure.
    const [fresh] = await t.database.db
      .insert(messages)
      .values({ companyId, ticketId: ticket.id, fromMe: true })
      .returning({ ack: messages.ack });
    expect(fresh!.ack).toBe(1);
  });
});
