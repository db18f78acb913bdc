import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { agent, closeSockets, inboxFactories, postForm, socketFor } from '../../../test/inbox';
import { bombXlsx, peopleCsv, peopleXlsx } from '../../../test/sheets';
import { contactListItems } from '../../db/schema';

let t: TestServer;
let make: ReturnType<typeof inboxFactories>;

/** A company whose plan has campaigns, with its admin signed in. */
async function campaigning() {
  const plan = await t.make.plan({ useCampaigns: true });
  const { company, admin } = await t.make.company({ planId: plan.id });
  const adminToken = (await t.login(admin.email)).token;
  return { companyId: company.id, admin, adminToken };
}

let home: Awaited<ReturnType<typeof campaigning>>;
let other: Awaited<ReturnType<typeof campaigning>>;

beforeAll(async () => {
  // The row limit is low enough for a generated sheet to pass it in a second.
  t = await startTestServer({ IMPORT_MAX_ROWS: '12000' });
  make = inboxFactories(t);
  home = await campaigning();
  other = await campaigning();
});
afterEach(() => closeSockets());
afterAll(() => t.stop());

const newList = async (token: string, name = 'Clientes VIP') => {
  const res = await t.as(token).post('/contact-lists', { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; name: string; contactsCount: number };
};
const addItem = (token: string, body: Record<string, unknown>) =>
  t.as(token).post('/contact-list-items', body);
const CSV = 'text/csv';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const upload = (token: string, listId: number, name: string, type: string, content: Buffer) =>
  postForm(t, token, `/contact-lists/${listId}/upload`, {}, [
    { field: 'file', name, type, content },
  ]);
/** Every file in the server's storage, to prove a refused import left none behind. */
const storedFiles = () =>
  readdirSync(t.app.platform.config.STORAGE_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
const numbersOf = async (listId: number) =>
  (
    await t.database.db
      .select({ number: contactListItems.number })
      .from(contactListItems)
      .where(eq(contactListItems.contactListId, listId))
  )
    .map((row) => row.number)
    .sort();

/** An .xlsx written by exceljs's streaming writer: a header and `rows`. */
async function xlsx(rows: (string | number)[][]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(chunk as Buffer);
      done();
    },
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useSharedStrings: true });
  const sheet = workbook.addWorksheet('Contatos');
  for (const row of rows) sheet.addRow(row).commit();
  sheet.commit();
  await workbook.commit();
  return Buffer.concat(chunks);
}

describe('the plan, the company and who calls', () => {
  it('answers 401 without a session and 403 to a user who is not an admin', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/contact-lists' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/contact-list-items' })).statusCode).toBe(
      401,
    );
    const ana = await agent(t, home.companyId);
    const refused = await t.as(ana.token).get('/contact-lists');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await t.as(ana.token).post('/contact-lists', { name: 'Lista' })).statusCode).toBe(403);
  });

  it('answers 403 when the plan has no campaigns or the company switched them off', async () => {
    const plan = await t.make.plan({ useCampaigns: false });
    const { admin } = await t.make.company({ planId: plan.id });
    const token = (await t.login(admin.email)).token;
    expect((await t.as(token).get('/contact-lists')).statusCode).toBe(403);

    const company = await campaigning();
    const list = await newList(company.adminToken);
    await make.setting(company.companyId, 'campaignsEnabled', 'false');
    for (const res of [
      await t.as(company.adminToken).get('/contact-lists'),
      await t.as(company.adminToken).get(`/contact-lists/${list.id}`),
      await t.as(company.adminToken).post('/contact-lists', { name: 'Outra' }),
      await t.as(company.adminToken).get(`/contact-list-items?contactListId=${list.id}`),
      await upload(company.adminToken, list.id, 'a.csv', CSV, Buffer.from('numero\n11987654321')),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    expect(await numbersOf(list.id)).toEqual([]);
    await make.setting(company.companyId, 'campaignsEnabled', 'true');
    expect((await t.as(company.adminToken).get('/contact-lists')).statusCode).toBe(200);
  });

  it("answers 404 for another company's lists and items, which stay as they were", async () => {
    const theirs = await newList(other.adminToken, 'Lista deles');
    const item = (
      await addItem(other.adminToken, {
        contactListId: theirs.id,
        name: 'Pessoa deles',
        number: '11987650000',
      })
    ).json();
    const as = t.as(home.adminToken);
    expect((await as.get(`/contact-lists/${theirs.id}`)).statusCode).toBe(404);
    expect((await as.put(`/contact-lists/${theirs.id}`, { name: 'Minha' })).statusCode).toBe(404);
    expect((await as.delete(`/contact-lists/${theirs.id}`)).statusCode).toBe(404);
    expect((await as.get(`/contact-list-items?contactListId=${theirs.id}`)).statusCode).toBe(404);
    expect(
      (
        await addItem(home.adminToken, {
          contactListId: theirs.id,
          name: 'Intrusa',
          number: '11987651111',
        })
      ).statusCode,
    ).toBe(404);
    expect((await as.get(`/contact-list-items/${item.id}`)).statusCode).toBe(404);
    expect((await as.put(`/contact-list-items/${item.id}`, { name: 'Mudado' })).statusCode).toBe(
      404,
    );
    expect((await as.delete(`/contact-list-items/${item.id}`)).statusCode).toBe(404);
    const up = await upload(home.adminToken, theirs.id, 'a.csv', CSV, Buffer.from('numero\n1198'));
    expect(up.statusCode).toBe(404);
    const mine = (await as.get('/contact-lists')).json();
    expect(mine.records.map((r: { id: number }) => r.id)).not.toContain(theirs.id);
    expect((await t.as(other.adminToken).get(`/contact-lists/${theirs.id}`)).json()).toMatchObject({
      name: 'Lista deles',
      contactsCount: 1,
    });
  });
});

describe('contact lists', () => {
  it('creates, renames, searches and deletes a list with its items', async () => {
    const company = await campaigning();
    const as = t.as(company.adminToken);
    const created = await newList(company.adminToken, 'Clientes de março');
    expect(created).toMatchObject({ name: 'Clientes de março', contactsCount: 0 });
    await newList(company.adminToken, 'Fornecedores');
    await addItem(company.adminToken, {
      contactListId: created.id,
      name: 'Maria',
      number: '(11) 98765-4321',
    });
    const renamed = await as.put(`/contact-lists/${created.id}`, { name: 'Clientes de abril' });
    expect(renamed.json()).toMatchObject({ name: 'Clientes de abril', contactsCount: 1 });
    const page = (await as.get('/contact-lists?searchParam=abril')).json();
    expect(page).toEqual({
      records: [expect.objectContaining({ id: created.id, contactsCount: 1 })],
      count: 1,
      hasMore: false,
    });
    const options = (await as.get('/contact-lists/list?companyId=999')).json();
    expect(options.map((o: { name: string }) => o.name)).toEqual([
      'Clientes de abril',
      'Fornecedores',
    ]);
    expect((await as.delete(`/contact-lists/${created.id}`)).statusCode).toBe(204);
    expect((await as.get(`/contact-lists/${created.id}`)).statusCode).toBe(404);
    expect(await numbersOf(created.id)).toEqual([]);
  });

  it("refuses a name out of 2 to 50 with the spec's messages", async () => {
    for (const [name, message] of [
      ['', 'Required'],
      ['A', 'Too Short!'],
      ['x'.repeat(51), 'Too Long!'],
    ]) {
      const res = await t.as(home.adminToken).post('/contact-lists', { name });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields[0]).toEqual({ path: 'body.name', message });
    }
  });

  it('pages 20 lists at a time', async () => {
    const company = await campaigning();
    for (let i = 0; i < 21; i++)
      await newList(company.adminToken, `Lista ${String(i).padStart(2, '0')}`);
    const first = (await t.as(company.adminToken).get('/contact-lists')).json();
    expect(first.records).toHaveLength(20);
    expect(first).toMatchObject({ count: 21, hasMore: true });
    const second = (await t.as(company.adminToken).get('/contact-lists?pageNumber=2')).json();
    expect(second.records.map((r: { name: string }) => r.name)).toEqual(['Lista 20']);
    expect(second.hasMore).toBe(false);
  });
});

describe('contact list items', () => {
  it('adds an item with its number normalised, once per list', async () => {
    const list = await newList(home.adminToken);
    const res = await addItem(home.adminToken, {
      contactListId: list.id,
      name: 'João',
      number: '+55 (11) 8765-4321',
      email: 'Joao@Example.com',
      companyId: other.companyId,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'João',
      number: '5511987654321',
      email: 'joao@example.com',
      isWhatsappValid: null,
      companyId: home.companyId,
      contactListId: list.id,
    });
    const again = await addItem(home.adminToken, {
      contactListId: list.id,
      name: 'João de novo',
      number: '11 98765 4321',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'ERR_DUPLICATED_CONTACT' });
    // The same number in another list is another item.
    const second = await newList(home.adminToken, 'Outra lista');
    expect(
      (
        await addItem(home.adminToken, {
          contactListId: second.id,
          name: 'João',
          number: '5511987654321',
        })
      ).statusCode,
    ).toBe(201);
  });

  it("refuses a bad name, number or email with the spec's messages", async () => {
    const list = await newList(home.adminToken);
    const res = await addItem(home.adminToken, {
      contactListId: list.id,
      name: 'J',
      number: '1234',
      email: 'not-an-email',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual(
      expect.arrayContaining([
        { path: 'body.name', message: 'Too Short!' },
        { path: 'body.number', message: 'Too Short!' },
        { path: 'body.email', message: 'Invalid email' },
      ]),
    );
    const letters = await addItem(home.adminToken, {
      contactListId: list.id,
      name: 'Joana',
      number: 'telefone dela',
    });
    expect(letters.json().fields).toEqual([{ path: 'body.number', message: 'Invalid number' }]);
  });

  it('edits, searches and deletes items; a new number is checked again', async () => {
    const list = await newList(home.adminToken, 'Busca');
    const as = t.as(home.adminToken);
    const maria = (
      await addItem(home.adminToken, {
        contactListId: list.id,
        name: 'Maria',
        number: '11987650001',
      })
    ).json();
    await addItem(home.adminToken, {
      contactListId: list.id,
      name: 'Pedro',
      number: '21987650002',
      email: 'pedro@loja.com',
    });
    await t.database.db
      .update(contactListItems)
      .set({ isWhatsappValid: true })
      .where(eq(contactListItems.id, maria.id));
    const renamed = await as.put(`/contact-list-items/${maria.id}`, { name: 'Maria Clara' });
    expect(renamed.json()).toMatchObject({ name: 'Maria Clara', isWhatsappValid: true });
    const moved = await as.put(`/contact-list-items/${maria.id}`, { number: '11987650009' });
    expect(moved.json()).toMatchObject({ number: '5511987650009', isWhatsappValid: null });
    const clash = await as.put(`/contact-list-items/${maria.id}`, { number: '21987650002' });
    expect(clash.statusCode).toBe(409);

    const search = async (text: string) =>
      (
        await as.get(
          `/contact-list-items?contactListId=${list.id}&searchParam=${encodeURIComponent(text)}`,
        )
      )
        .json()
        .contacts.map((c: { name: string }) => c.name);
    expect(await search('clara')).toEqual(['Maria Clara']);
    expect(await search('loja')).toEqual(['Pedro']);
    expect(await search('(21) 98765')).toEqual(['Pedro']);
    expect(await search('')).toEqual(['Maria Clara', 'Pedro']);

    expect((await as.delete(`/contact-list-items/${maria.id}`)).statusCode).toBe(204);
    expect((await as.get(`/contact-list-items/${maria.id}`)).statusCode).toBe(404);
    expect((await as.get(`/contact-lists/${list.id}`)).json().contactsCount).toBe(1);
  });
});

describe('POST /contact-lists/:id/upload', () => {
  it('imports a CSV: numbers normalised, repeats kept once, bad rows named', async () => {
    const list = await newList(home.adminToken, 'Importada');
    await addItem(home.adminToken, {
      contactListId: list.id,
      name: 'Já estava',
      number: '11911112222',
    });
    const csv = [
      'Nome;Número;E-mail',
      'Ana;(11) 98765-0001;ana@example.com',
      'Bruno;+55 11 8765-0002;email ruim',
      'Carla;11 98765-0001;carla@example.com',
      'Já estava;5511911112222;',
      'Davi;não tenho;',
      ';21 3456-7890;',
      '',
      'Eva;123;',
    ].join('\r\n');
    const res = await upload(
      home.adminToken,
      list.id,
      'lista.csv',
      'application/vnd.ms-excel',
      Buffer.from(`\uFEFF${csv}`),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      rows: 7,
      imported: 3,
      duplicates: 2,
      invalid: 2,
      invalidRows: [
        { row: 6, number: 'não tenho' },
        { row: 9, number: '123' },
      ],
    });
    const page = (
      await t.as(home.adminToken).get(`/contact-list-items?contactListId=${list.id}`)
    ).json();
    expect(
      page.contacts.map((c: { name: string; number: string; email: string }) => [
        c.name,
        c.number,
        c.email,
      ]),
    ).toEqual([
      ['552134567890', '552134567890', ''],
      ['Ana', '5511987650001', 'ana@example.com'],
      ['Bruno', '5511987650002', ''],
      ['Já estava', '5511911112222', ''],
    ]);
  });

  it('imports a 10,000-row .xlsx with its summary', async () => {
    const list = await newList(home.adminToken, 'Grande');
    const rows: (string | number)[][] = [['nome', 'numero', 'email']];
    for (let i = 0; i < 10_000; i++) {
      // Every 1000th row repeats the one before; every 2500th has no number.
      const n = i % 1000 === 999 ? i - 1 : i;
      const number = i % 2500 === 1 ? '' : 5511900000000 + n;
      rows.push([`Pessoa ${i}`, number, i % 2 ? `p${i}@example.com` : '']);
    }
    const res = await upload(home.adminToken, list.id, 'grande.xlsx', XLSX, await xlsx(rows));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ rows: 10_000, imported: 9_986, duplicates: 10, invalid: 4 });
    expect(res.json().invalidRows).toEqual([
      { row: 3, number: '' },
      { row: 2503, number: '' },
      { row: 5003, number: '' },
      { row: 7503, number: '' },
    ]);
    expect(
      (await t.as(home.adminToken).get(`/contact-lists/${list.id}`)).json().contactsCount,
    ).toBe(9_986);
  });

  it('refuses a sheet over the row limit at once, naming the limit and the rows, storing nothing', async () => {
    const list = await newList(home.adminToken, 'Acima do limite');
    const files = storedFiles();
    const progress: unknown[] = [];
    const before = t.emitted.length;
    for (const [name, type, content] of [
      ['acima.xlsx', XLSX, await peopleXlsx(12_345)],
      ['acima.csv', CSV, peopleCsv(12_345)],
    ] as const) {
      const res = await upload(home.adminToken, list.id, name, type, content);
      expect(res.statusCode, res.body).toBe(413);
      expect(res.json(), name).toEqual({
        error: 'ERR_IMPORT_TOO_MANY_ROWS',
        limit: 12_000,
        rows: 12_345,
      });
    }
    expect(await numbersOf(list.id)).toEqual([]);
    expect(
      (await t.as(home.adminToken).get(`/contact-lists/${list.id}`)).json().contactsCount,
    ).toBe(0);
    expect(storedFiles()).toEqual(files);
    progress.push(...t.emitted.slice(before).filter((e) => e.event.endsWith('-ContactListItem')));
    expect(progress).toEqual([]);
  });

  it('refuses a zip-bomb-like .xlsx before reading a row, storing nothing', async () => {
    const list = await newList(home.adminToken, 'Bomba');
    const files = storedFiles();
    const bomb = await bombXlsx(500_000);
    const res = await upload(home.adminToken, list.id, 'bomba.xlsx', XLSX, bomb);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toEqual({ error: 'ERR_IMPORT_ARCHIVE_TOO_LARGE', limit: 100 });
    expect(await numbersOf(list.id)).toEqual([]);
    expect(storedFiles()).toEqual(files);
  });

  it('refuses a legacy .xls, a sheet without a number column and a form without a file', async () => {
    const list = await newList(home.adminToken, 'Recusas');
    const ole2 = Buffer.concat([
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      Buffer.alloc(512),
    ]);
    const xls = await upload(
      home.adminToken,
      list.id,
      'velha.xls',
      'application/vnd.ms-excel',
      ole2,
    );
    expect(xls.statusCode).toBe(415);
    expect(xls.json()).toEqual({
      error: 'ERR_UNSUPPORTED_MEDIA_TYPE',
      fields: [
        {
          path: 'body.file',
          message: 'Legacy .xls is not supported: save the sheet as .xlsx or .csv',
        },
      ],
    });
    const noNumber = await upload(
      home.adminToken,
      list.id,
      'a.csv',
      CSV,
      Buffer.from('nome,email\nAna,a@b.com'),
    );
    expect(noNumber.statusCode).toBe(400);
    expect(noNumber.json().fields).toEqual([
      { path: 'body.file', message: 'Header must name a number column' },
    ]);
    const image = await upload(home.adminToken, list.id, 'a.png', 'image/png', Buffer.from('x'));
    expect(image.statusCode).toBe(415);
    const empty = await postForm(t, home.adminToken, `/contact-lists/${list.id}/upload`, {});
    expect(empty.statusCode).toBe(400);
    expect(await numbersOf(list.id)).toEqual([]);
  });
});

describe('realtime', () => {
  it('tells the company, and only it, on ContactList and ContactListItem', async () => {
    const mine = await socketFor(t, home.adminToken);
    const theirs = await socketFor(t, other.adminToken);
    const lists: { action: string }[] = [];
    const items: { action: string }[] = [];
    const overheard: unknown[] = [];
    mine.on(`company-${home.companyId}-ContactList`, (payload) => lists.push(payload));
    mine.on(`company-${home.companyId}-ContactListItem`, (payload) => items.push(payload));
    theirs.onAny((event: string, payload) => {
      if (/ContactList/.test(event)) overheard.push({ event, payload });
    });

    const list = await newList(home.adminToken, 'Ao vivo');
    const item = (
      await addItem(home.adminToken, {
        contactListId: list.id,
        name: 'Vivo',
        number: '11987659999',
      })
    ).json();
    await t.as(home.adminToken).put(`/contact-list-items/${item.id}`, { name: 'Vivo 2' });
    await upload(home.adminToken, list.id, 'a.csv', CSV, Buffer.from('numero\n11987658888'));
    await t.as(home.adminToken).delete(`/contact-list-items/${item.id}`);
    await t.as(home.adminToken).delete(`/contact-lists/${list.id}`);

    await expect.poll(() => lists.at(-1)).toEqual({ action: 'delete', id: list.id });
    expect(lists[0]).toEqual({
      action: 'create',
      record: expect.objectContaining({ id: list.id }),
    });
    expect(lists).toContainEqual({
      action: 'update',
      record: expect.objectContaining({ id: list.id, contactsCount: 2 }),
    });
    await expect.poll(() => items.at(-1)?.action).toBe('delete');
    const progress = items.filter((event) => event.action === 'progress');
    expect(progress.at(-1)).toEqual({
      action: 'progress',
      contactListId: list.id,
      rows: 1,
      percent: 100,
    });
    expect(items.filter((event) => event.action !== 'progress')).toEqual([
      {
        action: 'create',
        record: expect.objectContaining({ id: item.id, number: '5511987659999' }),
      },
      { action: 'update', record: expect.objectContaining({ id: item.id, name: 'Vivo 2' }) },
      { action: 'reload', contactListId: list.id },
      { action: 'delete', id: item.id, contactListId: list.id },
    ]);
    expect(overheard).toEqual([]);
  });
});
