import { createHmac, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_JWT_SECRET, type TestServer } from '../harness';
import { type FormFile, form, formParts, PNG, pairedSimulator, postForm } from '../inbox';
import { seedWorld, type World } from './world';

/**
 * Every way a file gets into the server: message media (POST /messages/:ticketId), a quick
 * reply's file (POST /quick-messages/:id/media-upload), a schedule's image (POST
 * /schedules/:id/media-upload), a file list's files (POST /files/uploadList/:fileId), the
 * contacts import (POST
 * /contacts/import, kept only while it is read) and a simulated phone's file (POST
 * /simulator/connections/:id/phones/:phone/messages, JSON with base64). Hostile file names never
 * shape a path: files live under `<companyId>/<uuid>.<ext>` inside the storage folder and the
 * name a sender gave is metadata only. Active content (SVG, HTML) is never served inline, and a
 * media address works only with its own company's key and an unexpired signature.
 */

const MARK = `FILESWEEP${process.pid}`;
/** Names a sender controls, each meant to escape or confuse the storage folder. */
const HOSTILE_NAMES: [string, string][] = [
  ['parent traversal', `../../../../${MARK}-traversal.png`],
  ['deep traversal', `../../../../../../../../../../tmp/${MARK}-deep.png`],
  ['backslash traversal', `..\\..\\..\\${MARK}-backslash.png`],
  ['encoded traversal', `..%2f..%2f${MARK}-encoded.png`],
  ['absolute path', `/tmp/${MARK}-absolute.png`],
  ['NUL byte', `${MARK}-nul\u0000.png`],
  ['NUL byte before extension', `${MARK}-evil.html\u0000.png`],
  ['1000 characters', `${MARK}-${'L'.repeat(1000)}.png`],
  ['double extension', `${MARK}-x.png.html`],
  ['hidden dot file', '.htaccess'],
  ['only dots', '..'],
];

const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>',
);
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script>');
const KEY = /^(\d+)\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{1,5}$/;
/** Types the media route may serve inline: none of them renders script. */
const INLINE = /^(image\/(jpeg|png|webp|gif)|audio\/[\w.+-]+|video\/[\w.+-]+|application\/pdf)$/;

let t: TestServer;
let world: World;
let simulator: number;
/** Every signed media address the server answered in this file, with what it came from. */
const served: { url: string; what: string }[] = [];
const counts = { uploads: 0, stored: 0, refused: 0, urls: 0 };

beforeAll(async () => {
  t = await startTestServer();
  world = await seedWorld(t);
  simulator = await pairedSimulator(t, world.a.admin.token, 'ALPHA7 files simulator');
});
afterAll(() => t?.stop());

const admin = () => world.a.admin.token;

/** All files under the storage folder, relative to it. */
function storedFiles(): string[] {
  const root = t.app.platform.storage.root;
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.push(relative(root, path).split(sep).join('/'));
    }
  };
  walk(root);
  return found.sort();
}

/**
 * The name kept as metadata: without control characters and cut to 255; the multipart parser
 * also keeps only the last segment of a path-like name (a phone's JSON name is kept whole).
 */
function expectedName(name: string, multipart = true): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
  let clean = name.replace(/[\u0000-\u001f\u007f]/g, '');
  if (multipart) clean = clean.split(/[\\/]/).pop()!;
  if (multipart && ['.', '..'].includes(clean)) clean = '';
  return (clean.trim() || 'file').slice(0, 255);
}

/** Files on disk that no row refers to (left behind). */
async function unreferenced(): Promise<string[]> {
  const tables = await t.database.db.execute<{ table_name: string }>(
    sql`select table_name from information_schema.columns
        where table_schema = 'public' and column_name = 'media_path'`,
  );
  const referenced = new Set<string>();
  for (const { table_name } of tables.rows) {
    const { rows } = await t.database.db.execute<{ media_path: string }>(
      sql`select media_path from ${sql.identifier(table_name)} where media_path is not null`,
    );
    for (const row of rows) referenced.add(row.media_path);
  }
  // Contact pictures are referenced by their signed address.
  const { rows: pictures } = await t.database.db.execute<{ profile_pic_url: string }>(
    sql`select profile_pic_url from contacts where profile_pic_url like '/media/%'`,
  );
  for (const { profile_pic_url } of pictures) {
    referenced.add(profile_pic_url.slice('/media/'.length).split('?')[0]!);
  }
  return storedFiles().filter((file) => !referenced.has(file));
}

/** Where a name would land if it were used as a path. */
function escapeCandidates(name: string): string[] {
  const root = t.app.platform.storage.root;
  const clean = name.replaceAll('\u0000', '');
  const candidates = [
    resolve(root, clean),
    resolve(root, String(world.a.companyId), clean),
    resolve(root, clean.replace(/\\/g, '/')),
    resolve(root, decodeURIComponent(clean.replace(/%(?![0-9a-f]{2})/gi, ''))),
    join(tmpdir(), basename(clean)),
  ];
  if (isAbsolute(clean)) candidates.push(clean);
  return candidates;
}

function remember(url: string | null | undefined, what: string) {
  if (url) served.push({ url, what });
}

/** What the server does with a file under `name` through one route; the answer's file name. */
type Route = (
  name: string,
  type: string,
  content: Buffer,
) => Promise<{ response: LightMyRequestResponse; fileName?: string | null; url?: string | null }>;

const ROUTES: Record<string, Route> = {
  'POST /messages/:ticketId (medias)': async (name, type, content) => {
    const response = await postForm(t, admin(), `/messages/${world.a.ids.ticket}`, {}, [
      { field: 'medias', name, type, content },
    ]);
    if (response.statusCode !== 201) return { response };
    const [message] = [response.json()].flat() as { mediaName: string; mediaUrl: string }[];
    return { response, fileName: message?.mediaName, url: message?.mediaUrl };
  },
  'POST /quick-messages/:id/media-upload (file)': async (name, type, content) => {
    // A reply of its own each time: a new file replaces (and removes) the one it had.
    const created = await t
      .as(admin())
      .post('/quick-messages', { shortcode: `ALPHA7-file-${++quickSequence}`, message: 'ALPHA7' });
    expect(created.statusCode, created.body).toBe(201);
    const response = await postForm(
      t,
      admin(),
      `/quick-messages/${created.json().id}/media-upload`,
      { typeArch: 'quickMessage' },
      [{ field: 'file', name, type, content }],
    );
    if (response.statusCode >= 300) return { response };
    const body = response.json() as { mediaName: string; mediaPath: string };
    return { response, fileName: body.mediaName, url: body.mediaPath };
  },
  'POST /schedules/:id/media-upload (file)': async (name, type, content) => {
    // A schedule of its own each time: a new image replaces (and removes) the one it had.
    const created = await t.as(admin()).post('/schedules', {
      body: `ALPHA7 scheduled file ${++scheduleSequence}`,
      contactId: world.a.ids.contact,
      sendAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    });
    expect(created.statusCode, created.body).toBe(201);
    const response = await postForm(
      t,
      admin(),
      `/schedules/${created.json().id}/media-upload`,
      {},
      [{ field: 'file', name, type, content }],
    );
    if (response.statusCode >= 300) return { response };
    const body = response.json() as { mediaName: string; mediaPath: string };
    return { response, fileName: body.mediaName, url: body.mediaPath };
  },
  'POST /files/uploadList/:fileId (files)': async (name, type, content) => {
    // A list of its own each time, with one option the file is for.
    const created = await t.as(admin()).post('/files', {
      name: `ALPHA7 file list ${++fileListSequence}`,
      message: 'ALPHA7',
      options: [{ name: 'ALPHA7 option' }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const list = created.json() as { id: number; options: { id: number }[] };
    const response = await uploadListForm(list.id, list.options[0]!.id, { name, type, content });
    if (response.statusCode >= 300) return { response };
    const [option] = (response.json() as { options: { mediaName: string; path: string }[] })
      .options;
    return { response, fileName: option?.mediaName, url: option?.path };
  },
  'POST /simulator/.../messages (file)': async (name, type, content) => {
    const phone = `55119${String(++phoneSequence).padStart(8, '0')}`;
    const response = await t
      .as(admin())
      .post(`/simulator/connections/${simulator}/phones/${phone}/messages`, {
        kind: 'document',
        body: '',
        file: { name, mimeType: type, base64: content.toString('base64') },
      });
    if (response.statusCode !== 201) return { response };
    const body = response.json() as { fileName: string; mediaUrl: string };
    remember(body.mediaUrl, `simulated phone's copy of ${JSON.stringify(name.slice(0, 40))}`);
    // The inbox stores its own copy when the connection takes the message in.
    const inbound = await inboxCopyOf(phone);
    return { response, fileName: inbound.mediaName, url: inbound.mediaUrl };
  },
};
let phoneSequence = 0;
let quickSequence = 0;
let scheduleSequence = 0;
let fileListSequence = 0;

/** The spec client's form for a file list: the file, then its type, option name and option id. */
function uploadListForm(
  fileListId: number,
  optionId: number,
  file: Omit<FormFile, 'field'>,
  token = admin(),
) {
  const body = formParts([
    { field: 'fileId', value: String(fileListId) },
    { field: 'typeArch', value: 'fileList' },
    { ...file, field: 'files' },
    { field: 'mediaType', value: file.type },
    { field: 'name', value: 'ALPHA7 option' },
    { field: 'id', value: String(optionId) },
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/files/uploadList/${fileListId}`,
    payload: body.payload,
    headers: { ...body.headers, authorization: `Bearer ${token}` },
  });
}

/** The message a simulated phone's file became in A's inbox. */
async function inboxCopyOf(phone: string) {
  let found: { mediaName: string | null; mediaUrl: string | null } | undefined;
  await expect
    .poll(async () => {
      const { rows } = await t.database.db.execute<{ ticket_id: number }>(
        sql`select m.ticket_id from messages m join contacts c on c.id = m.contact_id
            where c.number = ${phone} and m.company_id = ${world.a.companyId} limit 1`,
      );
      const ticketId = rows[0]?.ticket_id;
      if (!ticketId) return undefined;
      const page = await t.as(admin()).get(`/messages/${ticketId}`);
      found = (page.json().messages as { mediaName: string | null; mediaUrl: string | null }[])[0];
      return found?.mediaUrl;
    })
    .toBeTruthy();
  return found!;
}

describe('files sweep', () => {
  it('stores every file under a generated name inside the storage folder, whatever its name', async () => {
    const before = new Set(storedFiles());
    const existing = new Set(
      HOSTILE_NAMES.flatMap(([, name]) => escapeCandidates(name)).filter((path) =>
        existsSync(path),
      ),
    );
    for (const [routeName, upload] of Object.entries(ROUTES)) {
      for (const [label, name] of HOSTILE_NAMES) {
        counts.uploads += 1;
        const { response, fileName, url } = await upload(name, 'image/png', PNG);
        const context = `${routeName} with ${label}: ${response.statusCode} ${response.body.slice(0, 200)}`;
        if (response.statusCode >= 400) {
          // Refusing a name is fine, as long as it is a clean refusal.
          expect(response.statusCode, context).toBeLessThan(500);
          counts.refused += 1;
          continue;
        }
        counts.stored += 1;
        remember(url, `${routeName} with ${label}`);
        // The name is kept as metadata (cut to its column), never as a path.
        expect(fileName, context).toBeTypeOf('string');
        expect(fileName, context).toBe(expectedName(name, !routeName.includes('simulator')));
        // The extension comes from the type, whatever the name says ('x.png.html' is a png).
        expect(url, context).toMatch(
          new RegExp(`^/media/${world.a.companyId}/[0-9a-f-]{36}\\.png\\?`),
        );
      }
    }

    // The contacts import keeps its file only while it reads it: nothing stays, whatever the name.
    for (const [label, name] of HOSTILE_NAMES) {
      counts.uploads += 1;
      const files = new Set(storedFiles());
      const csv: FormFile = {
        field: 'file',
        name,
        type: 'text/csv',
        content: Buffer.from(
          `name,number\nALPHA7 imported,55119${String(counts.uploads).padStart(8, '0')}\n`,
        ),
      };
      const response = await postForm(t, admin(), '/contacts/import', {}, [csv]);
      expect(response.statusCode, `import with ${label}: ${response.body}`).toBeLessThan(500);
      expect(
        storedFiles().filter((file) => !files.has(file)),
        `import with ${label}`,
      ).toEqual([]);
    }

    // Every file on disk has a generated name in a company's folder, and only A's are new.
    const after = storedFiles();
    for (const file of after) expect(file, 'stored file').toMatch(KEY);
    const added = after.filter((file) => !before.has(file));
    expect(added.length).toBeGreaterThan(0);
    for (const file of added) expect(file.split('/')[0], file).toBe(String(world.a.companyId));

    // Nothing landed where a name pointed.
    for (const [label, name] of HOSTILE_NAMES) {
      for (const path of escapeCandidates(name)) {
        if (!existing.has(path)) expect(existsSync(path), `${label}: ${path}`).toBe(false);
      }
    }
    expect(readdirSync(tmpdir()).filter((entry) => entry.includes(MARK))).toEqual([]);
    const root = t.app.platform.storage.root;
    expect(readdirSync(resolve(root, '..')).filter((entry) => entry.includes(MARK))).toEqual([]);

    console.info(
      `files sweep: ${counts.uploads} uploads with hostile names over ${Object.keys(ROUTES).length + 1} routes, ` +
        `${counts.stored} stored under generated names, ${counts.refused} refused, ${after.length} files on disk all <companyId>/<uuid>.<ext>`,
    );
  });

  it('leaves no file behind a refused upload', async () => {
    // Refusals that come after a file reached the disk.
    const png = (name: string): FormFile => ({
      field: 'medias',
      name,
      type: 'image/png',
      content: PNG,
    });
    const ticket = `/messages/${world.a.ids.ticket}`;
    const late: [string, () => Promise<LightMyRequestResponse>][] = [
      [
        'a caption PostgreSQL cannot hold',
        () => postForm(t, admin(), ticket, { body: 'x\u0000y' }, [png('a.png')]),
      ],
      [
        'a bad field after the file',
        async () => {
          const body = form({}, [png('a.png')]);
          const extra = Buffer.from(
            body.payload
              .toString('latin1')
              .replace(
                /--\r\n$/,
                `\r\nContent-Disposition: form-data; name="quotedMsgId"\r\n\r\nabc\r\n--${body.headers['content-type'].split('boundary=')[1]}--\r\n`,
              ),
            'latin1',
          );
          return t.app.inject({
            method: 'POST',
            url: ticket,
            payload: extra,
            headers: { ...body.headers, authorization: `Bearer ${admin()}` },
          });
        },
      ],
      [
        'a second file that is not what it claims',
        () =>
          postForm(t, admin(), ticket, {}, [
            png('a.png'),
            { field: 'medias', name: 'b.png', type: 'image/png', content: HTML },
          ]),
      ],
      [
        'a file of an unknown field',
        () =>
          postForm(t, admin(), ticket, {}, [
            png('a.png'),
            { field: 'other', name: 'b.png', type: 'image/png', content: PNG },
          ]),
      ],
      [
        'a quick reply form with a bad field',
        () =>
          postForm(
            t,
            admin(),
            `/quick-messages/${world.a.ids.quickMessage}/media-upload`,
            { typeArch: 'x'.repeat(60) },
            [{ ...png('a.png'), field: 'file' }],
          ),
      ],
      [
        "a file list form naming another company's option",
        () =>
          uploadListForm(world.a.ids.fileList, world.b.ids.fileListOption, {
            name: 'a.png',
            type: 'image/png',
            content: PNG,
          }),
      ],
      [
        'a file list form with a second file that is not what it claims',
        () => {
          const body = formParts([
            { field: 'files', name: 'a.png', type: 'image/png', content: PNG },
            { field: 'id', value: String(world.a.ids.fileListOption) },
            { field: 'files', name: 'b.png', type: 'image/png', content: HTML },
            { field: 'id', value: String(world.a.ids.fileListOption) },
          ]);
          return t.app.inject({
            method: 'POST',
            url: `/files/uploadList/${world.a.ids.fileList}`,
            payload: body.payload,
            headers: { ...body.headers, authorization: `Bearer ${admin()}` },
          });
        },
      ],
      [
        'a phone message PostgreSQL cannot hold',
        () =>
          t.as(admin()).post(`/simulator/connections/${simulator}/phones/5511977770001/messages`, {
            kind: 'document',
            body: 'x\u0000y',
            file: { name: 'a.png', mimeType: 'image/png', base64: PNG.toString('base64') },
          }),
      ],
    ];
    expect(await unreferenced(), 'before').toEqual([]);
    for (const [label, send] of late) {
      const response = await send();
      expect(await unreferenced(), label).toEqual([]);
      expect(response.statusCode, `${label}: ${response.body}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, `${label}: ${response.body}`).toBeLessThan(500);
      counts.uploads += 1;
      counts.refused += 1;
    }
    expect(await unreferenced(), 'after every refusal').toEqual([]);
  });

  it('never accepts SVG or HTML as media that renders, and serves active content as a sandboxed download', async () => {
    const refusals: [string, string, Buffer][] = [
      ['image/svg+xml', 'x.svg', SVG],
      ['text/html', 'x.html', HTML],
      ['application/xhtml+xml', 'x.xhtml', HTML],
      // Active content under an image or audio type fails the type's signature.
      ['image/png', 'x.png', SVG],
      ['image/jpeg', 'x.jpg', HTML],
      ['image/gif', 'x.gif', HTML],
      ['audio/mpeg', 'x.mp3', HTML],
      ['application/pdf', 'x.pdf', HTML],
    ];
    for (const route of [
      'POST /messages/:ticketId (medias)',
      'POST /quick-messages/:id/media-upload (file)',
      'POST /schedules/:id/media-upload (file)',
      'POST /files/uploadList/:fileId (files)',
    ]) {
      for (const [type, name, content] of refusals) {
        counts.uploads += 1;
        const { response } = await ROUTES[route]!(name, type, content);
        expect(response.statusCode, `${route} ${type} ${name}: ${response.body}`).toBe(415);
        counts.refused += 1;
      }
    }
    // Accepted under a harmless type, or from a phone (which may send anything): downloads.
    const accepted: [string, string, string, Buffer][] = [
      ['POST /messages/:ticketId (medias)', 'text/plain', 'page.html', HTML],
      ['POST /messages/:ticketId (medias)', 'application/octet-stream', 'x.svg', SVG],
      ['POST /quick-messages/:id/media-upload (file)', 'text/plain', 'x.svg', SVG],
      ['POST /simulator/.../messages (file)', 'image/svg+xml', 'x.svg', SVG],
      ['POST /simulator/.../messages (file)', 'text/html', 'x.html', HTML],
      ['POST /simulator/.../messages (file)', 'application/xhtml+xml', 'x.xhtml', HTML],
    ];
    for (const [route, type, name, content] of accepted) {
      counts.uploads += 1;
      const { response, url } = await ROUTES[route]!(name, type, content);
      expect(response.statusCode, `${route} ${type}: ${response.body}`).toBeLessThan(300);
      expect(url, `${route} ${type}`).toBeTruthy();
      const media = await t.app.inject({ method: 'GET', url: url! });
      expect(media.statusCode).toBe(200);
      expect(media.headers['content-type'], `${route} ${type}`).not.toMatch(/html|svg|xml/);
      expect(media.headers['content-disposition'], `${route} ${type}`).toMatch(/^attachment/);
      remember(url, `${route} ${type}`);
    }
  });

  it('serves every media address with a sandbox and never sniffed, inline only for passive types', async () => {
    expect(served.length).toBeGreaterThan(10);
    for (const { url, what } of served) {
      const media = await t.app.inject({ method: 'GET', url });
      counts.urls += 1;
      expect(media.statusCode, what).toBe(200);
      const type = String(media.headers['content-type']);
      expect(media.headers['content-security-policy'], what).toMatch(/sandbox/);
      expect(media.headers['content-security-policy'], what).toMatch(/default-src 'none'/);
      expect(media.headers['x-content-type-options'], what).toBe('nosniff');
      expect(type, what).not.toMatch(/html|svg|xml|javascript/);
      const disposition = String(media.headers['content-disposition']);
      if (!INLINE.test(type)) expect(disposition, `${what}: ${type}`).toMatch(/^attachment/);
      // An inline file is what its type says (its signature was checked when it came in).
      if (disposition.startsWith('inline') && type === 'image/png') {
        expect(media.rawPayload.subarray(0, 8).equals(PNG.subarray(0, 8)), what).toBe(true);
      }
    }
  });

  it('saves a file under the name asked for, with no character of it able to break the header', async () => {
    const { url } = served.find(({ url }) => url.includes('.png?'))!;
    const names: [string, RegExp][] = [
      [
        'relatório final.pdf',
        /^attachment; filename="relat_rio final.pdf"; filename\*=UTF-8''relat%C3%B3rio%20final\.pdf$/,
      ],
      [
        'a";\r\nx-injected: 1.txt',
        /^attachment; filename="a____x-injected: 1.txt"; filename\*=UTF-8''a%22%3B%0D%0Ax-injected%3A%201\.txt$/,
      ],
      ['', /^attachment; filename="arquivo"; filename\*=UTF-8''$/],
    ];
    for (const [name, disposition] of names) {
      const media = await t.app.inject({
        method: 'GET',
        url: `${url}&download=${encodeURIComponent(name)}`,
      });
      expect(media.statusCode, name).toBe(200);
      expect(media.headers['content-disposition'], name).toMatch(disposition);
      expect(media.headers['x-injected'], name).toBeUndefined();
      expect(media.headers['content-security-policy'], name).toMatch(/sandbox/);
    }
    // The name is no key: a wrong signature stays a 404 whatever the name.
    const forged = url.replace(/signature=[^&]+/, 'signature=AAAA');
    const refused = await t.app.inject({ method: 'GET', url: `${forged}&download=x.png` });
    expect(refused.statusCode).toBe(404);
  });

  it("answers 404 to another company's media address and to a forged or expired signature", async () => {
    const storage = t.app.platform.storage;
    const a = world.a.ids.mediaKey;
    const b = world.b.ids.mediaKey;
    const signed = storage.signedPath(a);
    const [path, query] = signed.split('?') as [string, string];
    const params = new URLSearchParams(query);
    const fileOf = (key: string) => key.split('/')[1]!;
    const get = (url: string) => t.app.inject({ method: 'GET', url });

    expect((await get(signed)).statusCode).toBe(200);
    expect((await get(storage.signedPath(b))).statusCode).toBe(200);
    const cases: [string, string][] = [
      ["A's address under B's company", `/media/${world.b.companyId}/${fileOf(a)}?${query}`],
      ["B's file with A's signature", `/media/${world.b.companyId}/${fileOf(b)}?${query}`],
      ["B's file under A's company", `/media/${world.a.companyId}/${fileOf(b)}?${query}`],
      [
        "B's address under A's company",
        `/media/${world.a.companyId}/${fileOf(b)}?${storage.signedPath(b).split('?')[1]}`,
      ],
      ['forged signature', `${path}?expires=${params.get('expires')}&signature=${'A'.repeat(43)}`],
      ['empty signature', `${path}?expires=${params.get('expires')}&signature=`],
      [
        'signature of another expiry',
        `${path}?expires=${Number(params.get('expires')) + 3600}&signature=${params.get('signature')}`,
      ],
      [
        'cut signature',
        `${path}?expires=${params.get('expires')}&signature=${params.get('signature')!.slice(0, 20)}`,
      ],
      ['expired signature', storage.signedPath(a, -60)],
      [
        'unknown file, valid signature',
        storage.signedPath(`${world.a.companyId}/${randomUUID()}.png`),
      ],
      [
        'the signing key is not the token secret',
        `${path}?expires=${params.get('expires')}&signature=${createHmac('sha256', TEST_JWT_SECRET)
          .update(`${a}:${params.get('expires')}`)
          .digest('base64url')}`,
      ],
    ];
    for (const [label, url] of cases) {
      const response = await get(url);
      expect(response.statusCode, `${label}: ${url}`).toBe(404);
      expect(response.json(), label).toEqual({ error: 'ERR_NOT_FOUND' });
    }
    // Paths that are not a storage key never reach the disk.
    const traversals = [
      `/media/${world.a.companyId}/..%2f..%2f..%2fetc%2fpasswd?${query}`,
      `/media/..%2f${world.a.companyId}/${fileOf(a)}?${query}`,
      `/media/${world.a.companyId}/${fileOf(a)}%00.html?${query}`,
      `/media/${world.a.companyId}/${fileOf(a).replace('.png', '.html')}?${query}`,
    ];
    for (const url of traversals) {
      const response = await get(url);
      expect([400, 404], url).toContain(response.statusCode);
    }
    // A key of A's sent by B where the API takes a file is ignored (files come by upload only).
    const quick = await t.as(world.b.admin.token).post('/quick-messages', {
      shortcode: 'BRAVO9-borrowed',
      message: 'BRAVO9 borrowed',
      mediaPath: a,
      mediaName: 'borrowed.png',
    });
    expect(quick.statusCode).toBe(201);
    expect(quick.json()).toMatchObject({ mediaPath: null, isMedia: false });
    console.info(
      `files sweep: ${cases.length} forged, expired or other-company addresses answered 404, ` +
        `${traversals.length} path tricks refused; ${counts.urls} served addresses checked for sandbox and nosniff; ` +
        `${counts.uploads} uploads in all, ${counts.refused} refused`,
    );
  });
});
