import { SEARCH_COUNT_LIMIT, type Ticket } from '@atendi/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { inboxCompany, inboxFactories } from '../../../test/inbox';
import { connections, contacts, messages } from '../../db/schema';
import { TenantDb } from '../../db/tenant';

let t: TestServer;
let make: ReturnType<typeof inboxFactories>;

beforeAll(async () => {
  t = await startTestServer();
  make = inboxFactories(t);
});
afterAll(() => t.stop());

const ids = (body: { tickets: Ticket[] }) => body.tickets.map((ticket) => ticket.id).sort();

describe('GET /tickets?searchParam (search documents kept by the database)', () => {
  it('finds every word typed anywhere in the ticket, from the start of a word', async () => {
    const company = await inboxCompany(t);
    const ticket = await make.ticket(company.companyId, { whatsappId: company.connection.id });
    await make.message(company.companyId, ticket.id, { body: 'O boleto (vencido) chegou.' });
    await make.message(company.companyId, ticket.id, { body: 'Reembolso pedido #4521' });
    const search = async (term: string) =>
      ids(
        (
          await t.as(company.adminToken).get(`/tickets?searchParam=${encodeURIComponent(term)}`)
        ).json(),
      );
    for (const term of ['boleto', 'BOLET', 'vencido', 'reembolso boleto', '4521', '#4521']) {
      expect(await search(term), term).toEqual([ticket.id]);
    }
    // Words must start where a word starts; every word typed must be there.
    for (const term of ['oleto', 'boleto cancelado', '%']) {
      expect(await search(term), term).toEqual([]);
    }
  });

  it("follows a contact's new name, edited and deleted messages", async () => {
    const company = await inboxCompany(t);
    const contact = await make.contact(company.companyId, { name: 'Joana Prado' });
    const ticket = await make.ticket(company.companyId, {
      whatsappId: company.connection.id,
      contactId: contact.id,
    });
    const message = await make.message(company.companyId, ticket.id, { body: 'geladeira quebrou' });
    const search = async (term: string) =>
      ids((await t.as(company.adminToken).get(`/tickets?searchParam=${term}`)).json());
    expect(await search('joana')).toEqual([ticket.id]);

    await t.database.db
      .update(contacts)
      .set({ name: 'Joana Lima', number: '5521912340000' })
      .where(eq(contacts.id, contact.id));
    expect(await search('lima')).toEqual([ticket.id]);
    expect(await search('prado')).toEqual([]);
    expect(await search('1234')).toEqual([ticket.id]);

    await t.database.db
      .update(messages)
      .set({ body: 'fogão quebrou', isEdited: true })
      .where(eq(messages.id, message.id));
    expect(await search('fog')).toEqual([ticket.id]);
    expect(await search('geladeira')).toEqual([]);

    await t.database.db
      .update(messages)
      .set({ isDeleted: true })
      .where(eq(messages.id, message.id));
    expect(await search('fog')).toEqual([]);
  });

  it(`counts up to ${SEARCH_COUNT_LIMIT} matches, and says when there are more`, async () => {
    const company = await inboxCompany(t);
    const contact = await make.contact(company.companyId, { name: 'Muitos Tickets' });
    // Closed tickets of one contact (only one may be live), written in one statement.
    await t.database.db.execute(sql`
      insert into tickets (company_id, contact_id, whatsapp_id, status)
      select ${company.companyId}, ${contact.id}, ${company.connection.id}, 'closed'
      from generate_series(1, ${SEARCH_COUNT_LIMIT + 1})`);
    const many = (
      await t.as(company.adminToken).get('/tickets?searchParam=muitos&status=closed')
    ).json();
    expect(many).toMatchObject({ count: SEARCH_COUNT_LIMIT, countExact: false, hasMore: true });
    const listed = (
      await t.as(company.adminToken).get('/tickets?status=closed&showAll=true')
    ).json();
    expect(listed).toMatchObject({ count: SEARCH_COUNT_LIMIT + 1, countExact: true });
    const few = (await t.as(company.adminToken).get('/tickets?searchParam=nada')).json();
    expect(few).toMatchObject({ count: 0, countExact: true, hasMore: false });
  });
});

/** Words that no other is the start of: w0000 to w9999. */
const word = (n: number) => `w${String(n).padStart(4, '0')}`;
const words = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => word(from + i)).join(' ');

describe('GET /tickets?searchParam over search chunks', () => {
  let company: Awaited<ReturnType<typeof inboxCompany>>;
  beforeAll(async () => {
    company = await inboxCompany(t);
  });

  const search = async (term: string) =>
    ids(
      (
        await t.as(company.adminToken).get(`/tickets?searchParam=${encodeURIComponent(term)}`)
      ).json(),
    );

  /** A ticket's chunks, oldest first, with their row versions (ctid and xmin). */
  const chunksOf = async (ticketId: number) =>
    (
      await t.database.pool.query<{ chunk: number; words: number; version: string }>(
        `select chunk, length(document) as words, ctid::text || '/' || xmin::text as version
         from ticket_search where ticket_id = $1 order by chunk`,
        [ticketId],
      )
    ).rows;

  const chunkHolding = async (ticketId: number, term: string) =>
    (
      await t.database.pool.query<{ chunk: number }>(
        'select chunk from ticket_search where ticket_id = $1 and document @@ $2::tsquery',
        [ticketId, term],
      )
    ).rows.map((row) => row.chunk);

  /** A ticket with a conversation of 1,000 distinct words from `from` on: 20 messages of 50. */
  const conversation = async (from: number) => {
    const ticket = await make.ticket(company.companyId, { whatsappId: company.connection.id });
    for (let m = 0; m < 20; m++) {
      await make.message(company.companyId, ticket.id, { body: words(from + m * 50, 50) });
    }
    return ticket;
  };

  it('finds a ticket whose typed words lie in different chunks', async () => {
    const ticket = await conversation(1000);
    const chunks = await chunksOf(ticket.id);
    expect(chunks.length).toBeGreaterThan(5);
    expect(Math.max(...chunks.map((chunk) => chunk.words))).toBeLessThanOrEqual(200);
    const [first] = await chunkHolding(ticket.id, word(1000));
    const [last] = await chunkHolding(ticket.id, word(1999));
    expect(first).not.toBe(last);
    expect(await search(`${word(1000)} ${word(1999)}`)).toEqual([ticket.id]);
    expect(await search(`${word(1999)} ${word(1000)}`)).toEqual([ticket.id]);
    // Every typed word must still be somewhere in the ticket.
    expect(await search(`${word(1000)} ${word(2999)}`)).toEqual([]);
  });

  it('rewrites only the newest chunk for a new message, however long the conversation', async () => {
    const ticket = await conversation(3000);
    const before = await chunksOf(ticket.id);
    const older = before.slice(0, -1);

    await make.message(company.companyId, ticket.id, { body: `${words(4000, 10)} ${word(3000)}` });
    const after = await chunksOf(ticket.id);
    // The older chunks are the same row versions: not rewritten, nor indexed again.
    expect(after.slice(0, older.length)).toEqual(older);
    const newest = after.at(-1)!;
    expect(newest.words).toBeLessThanOrEqual(200);
    expect(await search(`${word(4009)} ${word(3001)}`)).toEqual([ticket.id]);

    // A message bringing no word the newest chunk lacks writes nothing.
    await make.message(company.companyId, ticket.id, { body: word(4009).toUpperCase() });
    expect(await chunksOf(ticket.id)).toEqual(after);

    // Words that do not fit the newest chunk start the next one; the newest is left as it was.
    const room = 200 - newest.words;
    await make.message(company.companyId, ticket.id, { body: words(5000, room + 1) });
    const grown = await chunksOf(ticket.id);
    expect(grown.slice(0, after.length)).toEqual(after);
    expect(grown.slice(after.length)).toEqual([
      { chunk: newest.chunk + 1, words: room + 1, version: expect.any(String) },
    ]);
  });

  it('splits a long message or a bulk insert into chunks of at most 200 words', async () => {
    const ticket = await make.ticket(company.companyId, { whatsappId: company.connection.id });
    await make.message(company.companyId, ticket.id, { body: words(6000, 450) });
    await t.database.pool.query(
      `insert into messages (company_id, ticket_id, body)
       select $1, $2, 'w' || (7000 + g) from generate_series(0, 299) g`,
      [company.companyId, ticket.id],
    );
    // The contact's words stay alone in chunk 0: neither batch fits beside them.
    const chunks = await chunksOf(ticket.id);
    expect(chunks.map((chunk) => chunk.chunk)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(chunks.map((chunk) => chunk.words).slice(1)).toEqual([200, 200, 50, 200, 100]);
    expect(await search(`${word(6449)} ${word(7299)} ${word(6000)}`)).toEqual([ticket.id]);
  });

  it('rebuilds the chunks when a message is edited or deleted and when the contact is renamed', async () => {
    const contact = await make.contact(company.companyId, {
      name: 'Otávio Rebelo',
      number: '5531988880000',
    });
    const ticket = await make.ticket(company.companyId, {
      whatsappId: company.connection.id,
      contactId: contact.id,
    });
    const sent = [];
    for (let m = 0; m < 8; m++) {
      sent.push(
        await make.message(company.companyId, ticket.id, { body: words(8000 + m * 50, 50) }),
      );
    }
    const rebuilt = async () => {
      const chunks = await chunksOf(ticket.id);
      expect(Math.max(...chunks.map((chunk) => chunk.words))).toBeLessThanOrEqual(200);
      return chunks;
    };

    await t.database.db
      .update(messages)
      .set({ body: 'reescrita', isEdited: true })
      .where(eq(messages.id, sent[0]!.id));
    expect(await search(word(8000))).toEqual([]);
    expect(await search(`reescrita ${word(8399)} otávio`)).toEqual([ticket.id]);
    // 2 name words, 13 endings of the number, 351 message words: two chunks.
    expect((await rebuilt()).map((chunk) => chunk.words)).toEqual([200, 166]);

    await t.database.db
      .update(messages)
      .set({ isDeleted: true })
      .where(eq(messages.id, sent[7]!.id));
    expect(await search(word(8399))).toEqual([]);
    expect(await search(`reescrita ${word(8349)}`)).toEqual([ticket.id]);

    await t.database.db
      .update(contacts)
      .set({ name: 'Otávio Quintela' })
      .where(eq(contacts.id, contact.id));
    expect(await search('rebelo')).toEqual([]);
    expect(await search(`quintela ${word(8349)} reescrita`)).toEqual([ticket.id]);
    await rebuilt();
  });

  it('loses no word when messages reach one ticket at the same time', async () => {
    const ticket = await conversation(9000);
    // Many statements at once, merging into the newest chunk and starting the next ones.
    await Promise.all(
      Array.from({ length: 24 }, (_, m) =>
        make.message(company.companyId, ticket.id, { body: words(500 + m * 10, 10) }),
      ),
    );
    const missing = await t.database.pool.query(
      `select w from unnest($1::text[]) w where not exists (select 1 from ticket_search s
         where s.ticket_id = $2 and s.document @@ w::tsquery)`,
      [words(500, 240).split(' '), ticket.id],
    );
    expect(missing.rows).toEqual([]);

    // Two transactions writing the same new chunk: the second waits for the first, then merges.
    const [a, b] = [await t.database.pool.connect(), await t.database.pool.connect()];
    try {
      const insert = (client: typeof a, body: string) =>
        client.query('insert into messages (company_id, ticket_id, body) values ($1, $2, $3)', [
          company.companyId,
          ticket.id,
          body,
        ]);
      const newest = (await chunksOf(ticket.id)).at(-1)!;
      await a.query('begin');
      await b.query('begin');
      await insert(a, words(0, 201 - newest.words));
      const waiting = (await b.query('select pg_backend_pid() as pid')).rows[0].pid;
      const second = insert(b, words(250, 201 - newest.words));
      await expect
        .poll(
          async () =>
            (
              await t.database.pool.query(
                'select wait_event_type from pg_stat_activity where pid = $1',
                [waiting],
              )
            ).rows[0]?.wait_event_type,
        )
        .toBe('Lock');
      await a.query('commit');
      await second;
      await b.query('commit');
      expect(await chunkHolding(ticket.id, word(0))).toEqual([newest.chunk + 1]);
      expect(await chunkHolding(ticket.id, word(250))).toEqual([newest.chunk + 1]);
    } finally {
      a.release();
      b.release();
    }
    expect(await search(`${word(0)} ${word(250)} ${word(739)}`)).toEqual([ticket.id]);
  });

  it('finds a ticket opened by an inbound message by its contact and its first words', async () => {
    const [connection] = await new TenantDb(t.database.db, company.companyId)
      .insert(connections, { name: 'Chunks', provider: 'simulator', isDefault: false })
      .returning();
    await t.app.services.inbound.receive(
      { id: connection!.id, companyId: company.companyId, name: connection!.name },
      {
        providerMessageId: 'chunks-1',
        chatId: '5531977770001',
        contact: { number: '5531977770001', name: 'Leopoldina Vaz' },
        isGroup: false,
        fromMe: false,
        timestamp: new Date(),
        kind: 'text',
        body: 'primeira mensagem',
      },
    );
    const [found] = await search('leopoldina');
    expect(found).toBeDefined();
    expect(await search('vaz primeira')).toEqual([found]);
    expect(await search('77770001')).toEqual([found]);
  });
});
