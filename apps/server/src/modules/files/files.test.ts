import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { agent, closeSockets, type FormFile, formParts, PNG, socketFor } from '../../../test/inbox';

let t: TestServer;

async function company() {
  const { company, admin } = await t.make.company();
  const adminToken = (await t.login(admin.email)).token;
  return { companyId: company.id, admin, adminToken };
}

let home: Awaited<ReturnType<typeof company>>;
let other: Awaited<ReturnType<typeof company>>;

beforeAll(async () => {
  t = await startTestServer();
  home = await company();
  other = await company();
});
afterEach(() => closeSockets());
afterAll(() => t.stop());

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const HTML = Buffer.from('<!doctype html><script>alert(1)</script>');

interface Option {
  id: number;
  name: string;
  path: string | null;
  mediaType: string | null;
  mediaName: string | null;
}
interface FileList {
  id: number;
  name: string;
  message: string;
  options: Option[];
}

const newList = async (
  token: string,
  body: Record<string, unknown> = {
    name: 'Catálogo',
    message: 'Segue o catálogo',
    options: [{ name: 'Tabela' }, { name: 'Foto' }],
  },
) => {
  const res = await t.as(token).post('/files', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as FileList;
};

/** The spec client's upload form: per file, its option's id, name and type, in that order. */
const uploadForm = (fileListId: number, files: { option: Option; file: FormFile }[]) =>
  formParts([
    { field: 'fileId', value: String(fileListId) },
    { field: 'typeArch', value: 'fileList' },
    ...files.flatMap(({ option, file }) => [
      file,
      { field: 'mediaType', value: file.type },
      { field: 'name', value: option.name },
      { field: 'id', value: String(option.id) },
    ]),
  ]);

const upload = (token: string, fileListId: number, files: { option: Option; file: FormFile }[]) => {
  const body = uploadForm(fileListId, files);
  return t.app.inject({
    method: 'POST',
    url: `/files/uploadList/${fileListId}`,
    payload: body.payload,
    headers: { ...body.headers, authorization: `Bearer ${token}` },
  });
};

const png = (name = 'foto.png'): FormFile => ({
  field: 'files',
  name,
  type: 'image/png',
  content: PNG,
});
const pdf = (name = 'tabela.pdf'): FormFile => ({
  field: 'files',
  name,
  type: 'application/pdf',
  content: PDF,
});

/** The storage key behind a signed address. */
const keyOf = (path: string | null) => path!.slice('/media/'.length).split('?')[0]!;
const onDisk = (path: string | null) => existsSync(t.app.platform.storage.pathOf(keyOf(path)));
const companyFiles = (companyId: number) => {
  const dir = join(t.app.platform.storage.root, String(companyId));
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};

describe('who may keep file lists', () => {
  it('answers 401 without a session and 403 to a user who is not an admin', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/files' })).statusCode).toBe(401);
    const list = await newList(home.adminToken);
    const ana = await agent(t, home.companyId);
    for (const [method, url] of [
      ['GET', '/files'],
      ['GET', `/files/${list.id}`],
      ['POST', '/files'],
      ['PUT', `/files/${list.id}`],
      ['POST', `/files/uploadList/${list.id}`],
      ['DELETE', `/files/${list.id}`],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${ana.token}` },
        ...(method === 'POST' || method === 'PUT'
          ? { payload: { name: 'Lista da Ana', message: 'oi' } }
          : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await t.as(home.adminToken).get(`/files/${list.id}`)).statusCode).toBe(200);
  });

  it("answers 404 for another company's lists and never takes over their options", async () => {
    const theirs = await newList(other.adminToken, {
      name: 'Deles',
      message: 'msg',
      options: [{ name: 'Contrato' }],
    });
    const as = t.as(home.adminToken);
    expect((await as.get(`/files/${theirs.id}`)).statusCode).toBe(404);
    expect((await as.put(`/files/${theirs.id}`, { name: 'Minha agora' })).statusCode).toBe(404);
    expect((await as.delete(`/files/${theirs.id}`)).statusCode).toBe(404);
    expect(
      (await upload(home.adminToken, theirs.id, [{ option: theirs.options[0]!, file: png() }]))
        .statusCode,
    ).toBe(404);
    expect(companyFiles(home.companyId)).toEqual([]);

    // Their option's id named in our list is a new option of ours, theirs untouched.
    const mine = await newList(home.adminToken, { name: 'Nossa', message: 'msg', options: [] });
    const updated = await as.put(`/files/${mine.id}`, {
      options: [{ id: theirs.options[0]!.id, name: 'Roubada' }],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const [option] = (updated.json() as FileList).options;
    expect(option!.id).not.toBe(theirs.options[0]!.id);
    expect(option!.name).toBe('Roubada');
    // An upload naming their option on our list is refused.
    const refused = await upload(home.adminToken, mine.id, [
      { option: theirs.options[0]!, file: png() },
    ]);
    expect(refused.statusCode, refused.body).toBe(400);
    const still = (await t.as(other.adminToken).get(`/files/${theirs.id}`)).json() as FileList;
    expect(still.name).toBe('Deles');
    expect(still.options).toEqual([expect.objectContaining({ name: 'Contrato', path: null })]);
    expect(companyFiles(home.companyId)).toEqual([]);
    await as.delete(`/files/${mine.id}`);
  });
});

describe('the form', () => {
  it("refuses a name under 3 characters ('nome muito curto'), no message, an option without a name", async () => {
    const as = t.as(home.adminToken);
    const short = await as.post('/files', { name: 'ab', message: 'msg' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('nome muito curto');
    const noMessage = await as.post('/files', { name: 'Lista' });
    expect(noMessage.statusCode).toBe(400);
    expect(noMessage.json().fields).toContainEqual(
      expect.objectContaining({ path: 'body.message', message: 'Obrigatório' }),
    );
    const blankMessage = await as.post('/files', { name: 'Lista', message: '   ' });
    expect(blankMessage.statusCode).toBe(400);
    const unnamed = await as.post('/files', {
      name: 'Lista',
      message: 'm',
      options: [{ name: '' }],
    });
    expect(unnamed.statusCode).toBe(400);
    const wrongType = await as.post('/files', { name: 123, message: ['x'] });
    expect(wrongType.statusCode).toBe(400);
    const renamedShort = await as.put(`/files/${(await newList(home.adminToken)).id}`, {
      name: 'x',
    });
    expect(renamedShort.statusCode).toBe(400);
  });
});

describe('a list and its files', () => {
  it('stores each option’s file under a generated name and answers it signed', async () => {
    const list = await newList(home.adminToken);
    expect(list).toMatchObject({
      name: 'Catálogo',
      message: 'Segue o catálogo',
      options: [
        { name: 'Tabela', path: null, mediaType: null },
        { name: 'Foto', path: null, mediaType: null },
      ],
    });
    const [tabela, foto] = list.options as [Option, Option];
    const res = await upload(home.adminToken, list.id, [
      { option: tabela, file: pdf('../../tabela de preços.pdf') },
      { option: foto, file: png('foto.png') },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json() as FileList;
    expect(saved.options).toEqual([
      {
        id: tabela.id,
        name: 'Tabela',
        path: expect.stringMatching(new RegExp(`^/media/${home.companyId}/[0-9a-f-]{36}\\.pdf\\?`)),
        mediaType: 'application/pdf',
        mediaName: 'tabela_de_preços.pdf',
      },
      {
        id: foto.id,
        name: 'Foto',
        path: expect.stringMatching(new RegExp(`^/media/${home.companyId}/[0-9a-f-]{36}\\.png\\?`)),
        mediaType: 'image/png',
        mediaName: 'foto.png',
      },
    ]);
    const served = await t.app.inject({ method: 'GET', url: saved.options[1]!.path! });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect((await t.as(home.adminToken).get(`/files/${list.id}`)).json()).toMatchObject({
      options: [{ mediaName: 'tabela_de_preços.pdf' }, { mediaName: 'foto.png' }],
    });

    // A new file for an option replaces its file on disk.
    const before = saved.options[1]!.path;
    const again = await upload(home.adminToken, list.id, [{ option: foto, file: png('nova.png') }]);
    expect(again.statusCode, again.body).toBe(200);
    const replaced = (again.json() as FileList).options[1]!;
    expect(replaced.mediaName).toBe('nova.png');
    expect(onDisk(replaced.path)).toBe(true);
    expect(onDisk(before)).toBe(false);

    // Options left out of an update go, with their files; new ones come; kept ones are renamed.
    const pdfPath = saved.options[0]!.path;
    const updated = await t.as(home.adminToken).put(`/files/${list.id}`, {
      ...saved,
      name: 'Catálogo 2025',
      userId: home.admin.id,
      options: [
        { ...replaced, name: 'Foto nova' },
        { name: 'Vídeo', path: '', mediaType: '' },
      ],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      name: 'Catálogo 2025',
      options: [
        { id: foto.id, name: 'Foto nova', mediaName: 'nova.png' },
        { name: 'Vídeo', path: null },
      ],
    });
    expect(onDisk(pdfPath)).toBe(false);
    expect(onDisk(replaced.path)).toBe(true);

    // Deleting the list removes its files.
    expect((await t.as(home.adminToken).delete(`/files/${list.id}`)).statusCode).toBe(204);
    expect(onDisk(replaced.path)).toBe(false);
    expect((await t.as(home.adminToken).get(`/files/${list.id}`)).statusCode).toBe(404);
  });

  it('refuses wrong types, unknown options and empty forms, leaving no file behind', async () => {
    const list = await newList(home.adminToken);
    const [tabela, foto] = list.options as [Option, Option];
    const before = companyFiles(home.companyId);
    const cases: [string, () => ReturnType<typeof upload>, number][] = [
      [
        'HTML',
        () =>
          upload(home.adminToken, list.id, [
            {
              option: tabela,
              file: { field: 'files', name: 'x.html', type: 'text/html', content: HTML },
            },
          ]),
        415,
      ],
      [
        'SVG',
        () =>
          upload(home.adminToken, list.id, [
            {
              option: tabela,
              file: { field: 'files', name: 'x.svg', type: 'image/svg+xml', content: HTML },
            },
          ]),
        415,
      ],
      [
        'HTML claiming to be a PNG after a good file',
        () =>
          upload(home.adminToken, list.id, [
            { option: foto, file: png() },
            {
              option: tabela,
              file: { field: 'files', name: 'x.png', type: 'image/png', content: HTML },
            },
          ]),
        415,
      ],
      [
        'an option of no list',
        () =>
          upload(home.adminToken, list.id, [{ option: { ...foto, id: 2_000_000 }, file: png() }]),
        400,
      ],
      [
        'the same option twice',
        () =>
          upload(home.adminToken, list.id, [
            { option: foto, file: png() },
            { option: foto, file: png() },
          ]),
        400,
      ],
      [
        'a file without its option id',
        () => {
          const body = formParts([png()]);
          return t.app.inject({
            method: 'POST',
            url: `/files/uploadList/${list.id}`,
            payload: body.payload,
            headers: { ...body.headers, authorization: `Bearer ${home.adminToken}` },
          });
        },
        400,
      ],
      [
        'no file',
        () => {
          const body = formParts([{ field: 'typeArch', value: 'fileList' }]);
          return t.app.inject({
            method: 'POST',
            url: `/files/uploadList/${list.id}`,
            payload: body.payload,
            headers: { ...body.headers, authorization: `Bearer ${home.adminToken}` },
          });
        },
        400,
      ],
      [
        'a file under another field',
        () =>
          upload(home.adminToken, list.id, [{ option: foto, file: { ...png(), field: 'file' } }]),
        400,
      ],
      [
        'JSON instead of a form',
        () => t.as(home.adminToken).post(`/files/uploadList/${list.id}`, { id: foto.id }),
        415,
      ],
    ];
    for (const [label, send, status] of cases) {
      const res = await send();
      expect(res.statusCode, `${label}: ${res.body}`).toBe(status);
      expect(companyFiles(home.companyId), label).toEqual(before);
    }
    expect((await t.as(home.adminToken).get(`/files/${list.id}`)).json()).toMatchObject({
      options: [{ path: null }, { path: null }],
    });
    expect((await t.as(home.adminToken).post('/files/uploadList/abc', {})).statusCode).toBe(400);
  });

  it('pages and searches by name', async () => {
    const { adminToken } = await company();
    for (let n = 1; n <= 22; n += 1) {
      await newList(adminToken, { name: `Lista ${String(n).padStart(2, '0')}`, message: 'm' });
    }
    await newList(adminToken, { name: 'Contratos', message: 'm', options: [{ name: 'Modelo' }] });
    const first = (await t.as(adminToken).get('/files?searchParam=&pageNumber=1')).json();
    expect(first.files).toHaveLength(20);
    expect(first).toMatchObject({ count: 23, hasMore: true });
    expect(first.files[0]).toMatchObject({ name: 'Contratos', options: [{ name: 'Modelo' }] });
    const second = (await t.as(adminToken).get('/files?pageNumber=2')).json();
    expect(second).toMatchObject({ hasMore: false });
    expect(second.files.map((f: FileList) => f.name)).toEqual(['Lista 20', 'Lista 21', 'Lista 22']);
    const found = (await t.as(adminToken).get('/files?searchParam=contr')).json();
    expect(found.files.map((f: FileList) => f.name)).toEqual(['Contratos']);
    expect((await t.as(adminToken).get('/files?pageNumber=0')).statusCode).toBe(400);
  });
});

describe('realtime', () => {
  it('tells the company’s admins, and only them, on company-{id}-file', async () => {
    const mine = await socketFor(t, home.adminToken);
    const ana = await agent(t, home.companyId);
    const agentSocket = await socketFor(t, ana.token);
    const theirs = await socketFor(t, other.adminToken);
    const heard: { action: string; files?: FileList; fileId?: number }[] = [];
    const overheard: unknown[] = [];
    mine.on(`company-${home.companyId}-file`, (payload) => heard.push(payload));
    for (const socket of [agentSocket, theirs]) {
      socket.onAny((event: string, payload) => {
        if (event.endsWith('-file')) overheard.push({ event, payload });
      });
    }
    const list = await newList(home.adminToken, {
      name: 'Ao vivo',
      message: 'm',
      options: [{ name: 'A' }],
    });
    await upload(home.adminToken, list.id, [{ option: list.options[0]!, file: png() }]);
    await t.as(home.adminToken).delete(`/files/${list.id}`);
    await expect.poll(() => heard.at(-1)).toEqual({ action: 'delete', fileId: list.id });
    expect(heard[0]).toMatchObject({ action: 'create', files: { id: list.id, name: 'Ao vivo' } });
    expect(heard[1]).toMatchObject({
      action: 'update',
      files: { id: list.id, options: [{ mediaName: 'foto.png' }] },
    });
    expect(overheard).toEqual([]);
  });
});
