import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { agent, emittedOf, inboxCompany, inboxFactories, postForm } from '../../../test/inbox';
import { bombXlsx, peopleCsv, peopleXlsx } from '../../../test/sheets';
import { contacts, messages, tickets } from '../../db/schema';

/** Low, so a generated sheet passes it in a moment. */
const IMPORT_LIMIT = 2_000;

let t: TestServer;
let make: ReturnType<typeof inboxFactories>;
let home: Awaited<ReturnType<typeof inboxCompany>>;
let other: Awaited<ReturnType<typeof inboxCompany>>;
let user: Awaited<ReturnType<typeof agent>>;

beforeAll(async () => {
  t = await startTestServer({ IMPORT_MAX_ROWS: String(IMPORT_LIMIT) });
  make = inboxFactories(t);
  home = await inboxCompany(t);
  other = await inboxCompany(t);
  user = await agent(t, home.companyId);
});
afterAll(() => t.stop());

const contactRow = async (id: number) =>
  (await t.database.db.select().from(contacts).where(eq(contacts.id, id)))[0];

describe('POST /contacts', () => {
  it('creates a contact with its digits, email and extra info, and announces it', async () => {
    const res = await t.as(user.token).post('/contacts', {
      name: 'Maria Silva',
      number: '+55 (11) 98888-0001',
      email: 'Maria@Example.com',
      extraInfo: [{ name: 'CPF', value: '123' }],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Maria Silva',
      number: '5511988880001',
      email: 'maria@example.com',
      extraInfo: [{ name: 'CPF', value: '123' }],
      profilePicUrl: '',
      isGroup: false,
    });
    expect(emittedOf(t, `company-${home.companyId}-contact`)).toContainEqual({
      action: 'create',
      contact: expect.objectContaining({ id: res.json().id }),
    });
  });

  it('applies the form rules', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'M', number: '5511988880002' }, 'body.name', 'Too Short!'],
      [{ name: 'M'.repeat(51), number: '5511988880002' }, 'body.name', 'Too Long!'],
      [{ number: '5511988880002' }, 'body.name', 'Required'],
      [{ name: 'Maria', number: '1234567' }, 'body.number', 'Too Short!'],
      [{ name: 'Maria', number: '1'.repeat(51) }, 'body.number', 'Too Long!'],
      [{ name: 'Maria', number: 'abc12345678' }, 'body.number', 'Invalid number'],
      [{ name: 'Maria', number: '5511988880002', email: 'nope' }, 'body.email', 'Invalid email'],
      [
        { name: 'Maria', number: '5511988880002', extraInfo: [{ name: '', value: 'x' }] },
        'body.extraInfo.0.name',
        'Required',
      ],
    ];
    for (const [body, path, message] of cases) {
      const res = await t.as(user.token).post('/contacts', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields).toContainEqual({ path, message });
    }
    // Fields the form does not have are ignored: the contact is the caller's company's, no group.
    const extra = await t
      .as(user.token)
      .post('/contacts', { name: 'Maria', number: '5511988880002', companyId: 9, isGroup: true });
    expect(extra.statusCode, extra.body).toBe(201);
    expect(extra.json()).toMatchObject({ name: 'Maria', isGroup: false });
    expect((await t.as(user.token).get(`/contacts/${extra.json().id}`)).statusCode).toBe(200);
    const empty = await t
      .as(user.token)
      .post('/contacts', { name: 'Sem Email', number: '5511988880003', email: '' });
    expect(empty.statusCode).toBe(201);
  });

  it('refuses a number the company already has, even at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.as(user.token).post('/contacts', { name: 'Dup', number: '5511988880010' }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(1);
    for (const res of answers.filter((r) => r.statusCode !== 201)) {
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe('ERR_DUPLICATED_CONTACT');
    }
    // Another company may have the same number.
    const elsewhere = await t
      .as(other.adminToken)
      .post('/contacts', { name: 'Dup', number: '5511988880010' });
    expect(elsewhere.statusCode).toBe(201);
  });

  it('answers 401 without a token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/contacts', payload: {} });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /contacts', () => {
  it('searches name, number and email, pages by 20 with a count', async () => {
    const fresh = await inboxCompany(t);
    for (let i = 0; i < 25; i++) {
      await make.contact(fresh.companyId, { name: `Cliente ${String(i).padStart(2, '0')}` });
    }
    await make.contact(fresh.companyId, {
      name: 'Roberto',
      number: '5531912345678',
      email: 'beto@loja.com',
    });
    const first = (await t.as(fresh.adminToken).get('/contacts?searchParam=cliente')).json();
    expect(first).toMatchObject({ count: 25, hasMore: true });
    expect(first.contacts).toHaveLength(20);
    expect(first.contacts[0].name).toBe('Cliente 00');
    const second = (
      await t.as(fresh.adminToken).get('/contacts?searchParam=cliente&pageNumber=2')
    ).json();
    expect(second).toMatchObject({ count: 25, hasMore: false });
    expect(second.contacts).toHaveLength(5);
    for (const term of ['rober', '91234', '(31) 91234-5678', 'loja.com']) {
      const res = (
        await t.as(fresh.adminToken).get(`/contacts?searchParam=${encodeURIComponent(term)}`)
      ).json();
      expect(
        res.contacts.map((c: { name: string }) => c.name),
        term,
      ).toEqual(['Roberto']);
    }
  });

  it('filters by creation day or range', async () => {
    const fresh = await inboxCompany(t);
    await make.contact(fresh.companyId, {
      name: 'Antigo',
      createdAt: new Date('2024-06-01T12:00:00Z'),
    });
    await make.contact(fresh.companyId, {
      name: 'Noite',
      // 23:30 on June 10th in São Paulo.
      createdAt: new Date('2024-06-11T02:30:00Z'),
    });
    const names = async (query: string) =>
      (await t.as(fresh.adminToken).get(`/contacts?${query}`))
        .json()
        .contacts.map((c: { name: string }) => c.name);
    expect(await names('date=2024-06-10')).toEqual(['Noite']);
    expect(await names('dateStart=2024-05-01&dateEnd=2024-06-05')).toEqual(['Antigo']);
    expect(await names('dateStart=2024-06-02')).toEqual(['Noite']);
    expect((await t.as(fresh.adminToken).get('/contacts?date=junho')).statusCode).toBe(400);
  });

  it("never lists another company's contacts", async () => {
    const theirs = await make.contact(other.companyId, { name: 'Estrangeiro Unico' });
    const list = (await t.as(home.adminToken).get('/contacts?searchParam=Estrangeiro')).json();
    expect(list.contacts).toEqual([]);
    const all = (await t.as(home.adminToken).get('/contacts/list')).json();
    expect(all.map((c: { id: number }) => c.id)).not.toContain(theirs.id);
  });

  it('GET /contacts/list answers every contact by name, optionally filtered', async () => {
    const fresh = await inboxCompany(t);
    await make.contact(fresh.companyId, { name: 'Bia' });
    await make.contact(fresh.companyId, { name: 'Ari' });
    const all = (await t.as(fresh.adminToken).get('/contacts/list')).json();
    expect(all.map((c: { name: string }) => c.name)).toEqual(['Ari', 'Bia']);
    const some = (await t.as(fresh.adminToken).get('/contacts/list?name=bi')).json();
    expect(some.map((c: { name: string }) => c.name)).toEqual(['Bia']);
  });
});

describe('GET and PUT /contacts/:id', () => {
  it('reads and edits a contact, keeping its profile picture', async () => {
    const contact = await make.contact(home.companyId, {
      profilePicUrl: 'https://pps.example/pic.jpg',
    });
    const got = await t.as(user.token).get(`/contacts/${contact.id}`);
    expect(got.json()).toMatchObject({
      id: contact.id,
      profilePicUrl: 'https://pps.example/pic.jpg',
    });
    const res = await t.as(user.token).put(`/contacts/${contact.id}`, {
      name: 'Novo Nome',
      number: '5511977776666',
      extraInfo: [{ id: 3, name: 'Plano', value: 'Ouro' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Novo Nome',
      number: '5511977776666',
      extraInfo: [{ name: 'Plano', value: 'Ouro' }],
      profilePicUrl: 'https://pps.example/pic.jpg',
    });
    expect(emittedOf(t, `company-${home.companyId}-contact`)).toContainEqual({
      action: 'update',
      contact: expect.objectContaining({ name: 'Novo Nome' }),
    });
  });

  it('refuses a number another contact has', async () => {
    const first = await make.contact(home.companyId);
    const second = await make.contact(home.companyId);
    const res = await t.as(user.token).put(`/contacts/${second.id}`, { number: first.number });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('ERR_DUPLICATED_CONTACT');
    expect((await contactRow(second.id))!.number).toBe(second.number);
  });

  it("is 404 for another company's contact, which stays as it was", async () => {
    const theirs = await make.contact(other.companyId, { name: 'Deles' });
    expect((await t.as(home.adminToken).get(`/contacts/${theirs.id}`)).statusCode).toBe(404);
    const res = await t.as(home.adminToken).put(`/contacts/${theirs.id}`, { name: 'Meu' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NO_CONTACT_FOUND');
    expect((await contactRow(theirs.id))!.name).toBe('Deles');
  });
});

describe('DELETE /contacts/:id', () => {
  it('is for admins; removes the contact with its tickets and messages', async () => {
    const contact = await make.contact(home.companyId);
    const ticket = await make.ticket(home.companyId, {
      contactId: contact.id,
      whatsappId: home.connection.id,
    });
    await make.message(home.companyId, ticket.id);
    const denied = await t.as(user.token).delete(`/contacts/${contact.id}`);
    expect(denied.statusCode).toBe(403);
    expect(await contactRow(contact.id)).toBeDefined();

    const res = await t.as(home.adminToken).delete(`/contacts/${contact.id}`);
    expect(res.statusCode).toBe(204);
    expect(await contactRow(contact.id)).toBeUndefined();
    expect(await t.database.db.select().from(tickets).where(eq(tickets.id, ticket.id))).toEqual([]);
    expect(
      await t.database.db.select().from(messages).where(eq(messages.ticketId, ticket.id)),
    ).toEqual([]);
    expect(emittedOf(t, `company-${home.companyId}-contact`)).toContainEqual({
      action: 'delete',
      contactId: contact.id,
    });
  });

  it("is 404 for another company's contact", async () => {
    const theirs = await make.contact(other.companyId);
    expect((await t.as(home.adminToken).delete(`/contacts/${theirs.id}`)).statusCode).toBe(404);
    expect(await contactRow(theirs.id)).toBeDefined();
  });
});

describe('POST /contacts/import', () => {
  it('imports a CSV with ; or , and counts what it skipped', async () => {
    const fresh = await inboxCompany(t);
    await make.contact(fresh.companyId, { number: '5511955550003' });
    const csv = [
      'name;number;email',
      'Ana;5511955550001;ana@x.com',
      '"Silva; Bruno";+55 11 95555-0002;',
      'Existente;5511955550003;',
      'Curto;123;',
      'Repetida;5511955550001;',
      'Sem email valido;5511955550004;nao-e-email',
    ].join('\r\n');
    const res = await postForm(t, fresh.adminToken, '/contacts/import', {}, [
      { field: 'file', name: 'contatos.csv', type: 'text/csv', content: Buffer.from(csv) },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ imported: 3, skipped: 3 });
    const rows = await t.database.db
      .select()
      .from(contacts)
      .where(eq(contacts.companyId, fresh.companyId));
    expect(rows.map((r) => [r.name, r.number, r.email]).sort()).toEqual(
      [
        ['Ana', '5511955550001', 'ana@x.com'],
        ['Silva; Bruno', '5511955550002', ''],
        ['Sem email valido', '5511955550004', ''],
        [expect.any(String), '5511955550003', ''],
      ].sort(),
    );

    const comma = await postForm(t, fresh.adminToken, '/contacts/import', {}, [
      {
        field: 'file',
        name: 'c.csv',
        type: 'text/csv',
        content: Buffer.from('\uFEFFNome,Número,E-mail\nCarla,5511955550005,carla@x.com\n'),
      },
    ]);
    expect(comma.json()).toEqual({ imported: 1, skipped: 0 });
  });

  it('imports an .xlsx through the same reader as contact lists', async () => {
    const fresh = await inboxCompany(t);
    const res = await postForm(t, fresh.adminToken, '/contacts/import', {}, [
      {
        field: 'file',
        name: 'c.xlsx',
        type: 'application/octet-stream',
        content: await peopleXlsx(3, 700),
      },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ imported: 3, skipped: 0 });
  });

  it('refuses a sheet over the row limit or a zip bomb at once, storing nothing', async () => {
    const fresh = await inboxCompany(t);
    const count = async () =>
      (await t.database.db.select().from(contacts).where(eq(contacts.companyId, fresh.companyId)))
        .length;
    const before = await count();
    const over = await postForm(t, fresh.adminToken, '/contacts/import', {}, [
      { field: 'file', name: 'muitos.csv', type: 'text/csv', content: peopleCsv(IMPORT_LIMIT + 1) },
    ]);
    expect(over.statusCode, over.body).toBe(413);
    expect(over.json()).toEqual({
      error: 'ERR_IMPORT_TOO_MANY_ROWS',
      limit: IMPORT_LIMIT,
      rows: IMPORT_LIMIT + 1,
    });
    const bomb = await postForm(t, fresh.adminToken, '/contacts/import', {}, [
      {
        field: 'file',
        name: 'bomba.xlsx',
        type: 'application/octet-stream',
        content: await bombXlsx(500_000),
      },
    ]);
    expect(bomb.statusCode, bomb.body).toBe(413);
    expect(bomb.json().error).toBe('ERR_IMPORT_ARCHIVE_TOO_LARGE');
    expect(await count()).toBe(before);
  });

  it('needs a CSV file with a number column', async () => {
    const noFile = await postForm(t, home.adminToken, '/contacts/import', {});
    expect(noFile.statusCode).toBe(400);
    const noHeader = await postForm(t, home.adminToken, '/contacts/import', {}, [
      { field: 'file', name: 'c.csv', type: 'text/csv', content: Buffer.from('a;b\n1;2') },
    ]);
    expect(noHeader.statusCode).toBe(400);
    const json = await t.as(home.adminToken).post('/contacts/import', { file: 'x' });
    expect(json.statusCode).toBe(415);
  });

  it("without a file imports the default connection's address book (the simulator: the phones that wrote)", async () => {
    const fresh = await inboxCompany(t);
    const phoneWrites = async (phone: string, name: string) => {
      const sent = await t
        .as(fresh.adminToken)
        .post(`/simulator/connections/${fresh.connection.id}/phones/${phone}/messages`, {
          name,
          body: 'oi',
        });
      expect(sent.statusCode).toBe(201);
    };
    await phoneWrites('5511944440001', 'Joana');
    await phoneWrites('5511944440001', 'Joana Prado');
    await phoneWrites('5511944440002', '');
    await phoneWrites('5511944440003', 'Já conhecido');
    const known = await make.contact(fresh.companyId, {
      name: 'Cliente antigo',
      number: '5511944440003',
    });

    const imported = await t.as(fresh.adminToken).post('/contacts/import');
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json()).toEqual({ imported: 2, skipped: 1 });
    const rows = await t.database.db
      .select()
      .from(contacts)
      .where(eq(contacts.companyId, fresh.companyId));
    expect(rows.map((r) => [r.name, r.number, r.whatsappId]).sort()).toEqual(
      [
        ['Joana Prado', '5511944440001', fresh.connection.id],
        ['5511944440002', '5511944440002', fresh.connection.id],
        ['Cliente antigo', '5511944440003', null],
      ].sort(),
    );
    expect((await contactRow(known.id))!.name).toBe('Cliente antigo');
    // Again: nothing new.
    const again = await t.as(fresh.adminToken).post('/contacts/import');
    expect(again.json()).toEqual({ imported: 0, skipped: 3 });
  });

  it('imports the address book of the connection asked for; refuses connections without one', async () => {
    const fresh = await inboxCompany(t);
    const second = await make.connection(fresh.companyId, { name: 'Loja 2', isDefault: false });
    await t
      .as(fresh.adminToken)
      .post(`/simulator/connections/${second.id}/phones/5511944440011/messages`, {
        name: 'Só na loja 2',
        body: 'oi',
      });
    const fromDefault = await t.as(fresh.adminToken).post('/contacts/import');
    expect(fromDefault.json()).toEqual({ imported: 0, skipped: 0 });
    const fromSecond = await t
      .as(fresh.adminToken)
      .post(`/contacts/import?whatsappId=${second.id}`);
    expect(fromSecond.json()).toEqual({ imported: 1, skipped: 0 });

    const cloud = await make.connection(fresh.companyId, {
      name: 'Cloud',
      provider: 'cloud-api',
      isDefault: false,
    });
    const noBook = await t.as(fresh.adminToken).post(`/contacts/import?whatsappId=${cloud.id}`);
    expect(noBook.statusCode).toBe(400);
    expect(noBook.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      fields: [{ path: 'query.whatsappId', message: 'This connection has no address book' }],
    });
    const foreign = await t
      .as(fresh.adminToken)
      .post(`/contacts/import?whatsappId=${other.connection.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('ERR_NO_WAPP_FOUND');
    expect((await t.as(fresh.adminToken).post('/contacts/import?whatsappId=abc')).statusCode).toBe(
      400,
    );

    const bare = await t.make.company();
    const bareToken = (await t.login(bare.admin.email)).token;
    const noDefault = await t.as(bareToken).post('/contacts/import');
    expect(noDefault.statusCode).toBe(404);
    expect(noDefault.json().error).toBe('ERR_NO_DEF_WAPP_FOUND');
  });
});
