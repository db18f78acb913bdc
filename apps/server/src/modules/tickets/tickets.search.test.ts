import { SEARCH_COUNT_LIMIT, type Ticket } from '@atendi/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { inboxCompany, inboxFactories } from '../../../test/inbox';
import { contacts, messages } from '../../db/schema';

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
