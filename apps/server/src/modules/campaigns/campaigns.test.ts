import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { agent, closeSockets, emittedOf, inboxFactories, PNG, postForm } from '../../../test/inbox';
import { campaigns, fileLists } from '../../db/schema';

let t: TestServer;
let make: ReturnType<typeof inboxFactories>;

/** A company whose plan has campaigns, with its admin signed in, a connection and a list. */
async function campaigning() {
  const plan = await t.make.plan({ useCampaigns: true });
  const { company, admin } = await t.make.company({ planId: plan.id });
  const adminToken = (await t.login(admin.email)).token;
  const connection = await make.connection(company.id);
  const list = (await t.as(adminToken).post('/contact-lists', { name: 'Clientes' })).json() as {
    id: number;
  };
  return { companyId: company.id, admin, adminToken, connection, list };
}

let home: Awaited<ReturnType<typeof campaigning>>;
let other: Awaited<ReturnType<typeof campaigning>>;

beforeAll(async () => {
  t = await startTestServer();
  make = inboxFactories(t);
  home = await campaigning();
  other = await campaigning();
});
afterEach(() => closeSockets());
afterAll(() => t.stop());

const create = (token: string, body: Record<string, unknown>) =>
  t.as(token).post('/campaigns', body);
const row = async (id: number) =>
  (await t.database.db.select().from(campaigns).where(eq(campaigns.id, id)))[0]!;
/** 'YYYY-MM-DD HH:mm:ss' on São Paulo's clock (UTC-3), `hours` from now. */
const localIn = (hours: number) =>
  new Date(Date.now() + hours * 3_600_000 - 3 * 3_600_000)
    .toISOString()
    .slice(0, 19)
    .replace('T', ' ');

/** The original client's form as it posts it. */
const originalForm = (overrides: Record<string, unknown> = {}) => ({
  name: 'Promoção de março',
  message1: 'Olá {{contactFirstName}}, temos novidades!',
  message2: '',
  message3: '',
  message4: '',
  message5: '',
  confirmationMessage1: '',
  confirmationMessage2: '',
  confirmationMessage3: '',
  confirmationMessage4: '',
  confirmationMessage5: '',
  status: 'INATIVA',
  confirmation: false,
  scheduledAt: '',
  whatsappId: home.connection.id,
  contactListId: home.list.id,
  tagListId: 'Nenhuma',
  fileListId: '',
  companyId: home.companyId,
  ...overrides,
});

describe('who may use campaigns', () => {
  it('answers 401 without a session and 403 to a user who is not an admin', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/campaigns' })).statusCode).toBe(401);
    const ana = await agent(t, home.companyId);
    const refused = await t.as(ana.token).get('/campaigns');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await t.as(ana.token).get('/campaign-settings')).statusCode).toBe(403);
  });

  it('answers 403 when the plan has no campaigns or the company switched them off', async () => {
    const plan = await t.make.plan({ useCampaigns: false });
    const { admin } = await t.make.company({ planId: plan.id });
    const token = (await t.login(admin.email)).token;
    expect((await t.as(token).get('/campaigns')).statusCode).toBe(403);
    expect((await create(token, { name: 'Sem plano' })).statusCode).toBe(403);

    const company = await campaigning();
    const made = (await create(company.adminToken, { name: 'Antes' })).json();
    await make.setting(company.companyId, 'campaignsEnabled', 'false');
    for (const res of [
      await t.as(company.adminToken).get('/campaigns'),
      await t.as(company.adminToken).get(`/campaigns/${made.id}`),
      await create(company.adminToken, { name: 'Depois' }),
      await t.as(company.adminToken).post(`/campaigns/${made.id}/cancel`),
      await t.as(company.adminToken).get('/campaign-settings'),
      await t.as(company.adminToken).post('/campaign-settings', { settings: {} }),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    await make.setting(company.companyId, 'campaignsEnabled', 'true');
    expect((await t.as(company.adminToken).get('/campaigns')).statusCode).toBe(200);
  });
});

describe('POST /campaigns', () => {
  it("takes the original client's form: empty strings and 'Nenhuma' as none", async () => {
    const res = await create(home.adminToken, originalForm());
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Promoção de março',
      status: 'INATIVA',
      confirmation: false,
      scheduledAt: null,
      completedAt: null,
      whatsappId: home.connection.id,
      contactListId: home.list.id,
      tagListId: null,
      fileListId: null,
      companyId: home.companyId,
      contactList: { id: home.list.id, name: 'Clientes' },
      whatsapp: { id: home.connection.id, name: home.connection.name },
      message1: 'Olá {{contactFirstName}}, temos novidades!',
      message2: '',
    });
    // read back, the placeholder is not an id either
    const read = await t.as(home.adminToken).get(`/campaigns/${res.json().id}`);
    expect(read.json().tagListId).toBeNull();
    expect(emittedOf(t, `company-${home.companyId}-campaign`)).toContainEqual(
      expect.objectContaining({
        action: 'create',
        record: expect.objectContaining({ id: res.json().id }),
      }),
    );
  });

  it('is PROGRAMADA with a date, read on the company clock', async () => {
    const res = await create(home.adminToken, originalForm({ scheduledAt: '2031-05-10 09:30:00' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      status: 'PROGRAMADA',
      scheduledAt: '2031-05-10T12:30:00.000Z',
    });
  });

  it("keeps a file list as chosen, and refuses one that is not the company's", async () => {
    const [mine] = await t.database.db
      .insert(fileLists)
      .values({ companyId: home.companyId, name: 'Catálogo', message: 'Veja' })
      .returning();
    const res = await create(home.adminToken, originalForm({ fileListId: mine!.id }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().fileListId).toBe(mine!.id);
    const other = await campaigning();
    const [theirs] = await t.database.db
      .insert(fileLists)
      .values({ companyId: other.companyId, name: 'Alheio', message: 'Não' })
      .returning();
    const refused = await create(home.adminToken, originalForm({ fileListId: theirs!.id }));
    expect(refused.statusCode).toBe(404);
  });

  it("refuses bad names, dates and more than the messages' fields with the spec's words", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'A' }, 'body.name', 'Too Short!'],
      [{ name: 'x'.repeat(51) }, 'body.name', 'Too Long!'],
      [{ name: '' }, 'body.name', 'Required'],
      [{ name: undefined }, 'body.name', 'Required'],
      [{ scheduledAt: 'amanhã' }, 'body.scheduledAt', 'Invalid date'],
      [{ scheduledAt: '2031-02-30 10:00:00' }, 'body.scheduledAt', 'Invalid date'],
      [{ whatsappId: 'abc' }, 'body.whatsappId', expect.any(String)],
      [{ confirmation: 'talvez' }, 'body.confirmation', expect.any(String)],
    ];
    for (const [change, path, message] of cases) {
      const res = await create(home.adminToken, originalForm(change));
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().fields).toContainEqual({ path, message });
    }
  });

  it("refuses another company's connection, list and tag, and never shows theirs", async () => {
    const tag = await t.as(other.adminToken).post('/tags', { name: 'Deles', color: '#000000' });
    for (const change of [
      { whatsappId: other.connection.id },
      { contactListId: other.list.id },
      { tagListId: tag.json().id },
    ]) {
      const res = await create(home.adminToken, originalForm(change));
      expect(res.statusCode, JSON.stringify(change)).toBe(404);
    }
    const theirs = (
      await create(
        other.adminToken,
        originalForm({
          whatsappId: other.connection.id,
          contactListId: other.list.id,
          name: 'Campanha deles',
        }),
      )
    ).json();
    for (const res of [
      await t.as(home.adminToken).get(`/campaigns/${theirs.id}`),
      await t.as(home.adminToken).put(`/campaigns/${theirs.id}`, { name: 'Nossa' }),
      await t.as(home.adminToken).delete(`/campaigns/${theirs.id}`),
      await t.as(home.adminToken).post(`/campaigns/${theirs.id}/cancel`),
      await t.as(home.adminToken).post(`/campaigns/${theirs.id}/restart`),
      await t.as(home.adminToken).delete(`/campaigns/${theirs.id}/media-upload`),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
    }
    expect((await row(theirs.id)).name).toBe('Campanha deles');
    const listed = (await t.as(home.adminToken).get('/campaigns')).json();
    expect(listed.records.map((c: { name: string }) => c.name)).not.toContain('Campanha deles');
  });
});

describe('GET /campaigns', () => {
  it('pages and searches by name', async () => {
    const company = await campaigning();
    for (const name of ['Natal 2030', 'Páscoa 2030', 'Natal 2031']) {
      await create(company.adminToken, { name });
    }
    const all = (await t.as(company.adminToken).get('/campaigns?pageNumber=1')).json();
    expect(all).toMatchObject({ count: 3, hasMore: false });
    const natal = (await t.as(company.adminToken).get('/campaigns?searchParam=natal')).json();
    expect(natal.records.map((c: { name: string }) => c.name).sort()).toEqual([
      'Natal 2030',
      'Natal 2031',
    ]);
    expect(natal.records[0]).toMatchObject({ contactList: null, whatsapp: null });
  });
});

describe('editing by state', () => {
  it('edits INATIVA and PROGRAMADA more than an hour ahead, not within the hour', async () => {
    const made = (await create(home.adminToken, originalForm())).json();
    const later = await t.as(home.adminToken).put(
      `/campaigns/${made.id}`,
      originalForm({
        name: 'Mais tarde',
        scheduledAt: localIn(3),
      }),
    );
    expect(later.statusCode, later.body).toBe(200);
    expect(later.json()).toMatchObject({ name: 'Mais tarde', status: 'PROGRAMADA' });
    // Back to no date: INATIVA again.
    const undated = await t.as(home.adminToken).put(`/campaigns/${made.id}`, { scheduledAt: '' });
    expect(undated.json()).toMatchObject({ status: 'INATIVA', scheduledAt: null });

    const soon = (
      await create(home.adminToken, originalForm({ scheduledAt: localIn(0.5) }))
    ).json();
    expect(soon.status).toBe('PROGRAMADA');
    const refused = await t.as(home.adminToken).put(`/campaigns/${soon.id}`, { name: 'Tarde' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('ERR_VALIDATION');
    expect((await row(soon.id)).name).toBe('Promoção de março');
  });

  it('cancels only a running or programmed one; a cancelled one takes messages only', async () => {
    const made = (await create(home.adminToken, originalForm())).json();
    const notRunning = await t.as(home.adminToken).post(`/campaigns/${made.id}/cancel`);
    expect(notRunning.statusCode).toBe(400);

    const programmed = (
      await create(home.adminToken, originalForm({ scheduledAt: localIn(5) }))
    ).json();
    const cancelled = await t.as(home.adminToken).post(`/campaigns/${programmed.id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().status).toBe('CANCELADA');
    const edited = await t.as(home.adminToken).put(
      `/campaigns/${programmed.id}`,
      originalForm({
        name: 'Outro nome',
        message1: 'Mensagem nova',
        contactListId: '',
      }),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      name: 'Promoção de março',
      message1: 'Mensagem nova',
      contactListId: home.list.id,
      status: 'CANCELADA',
    });
    const media = await postForm(
      t,
      home.adminToken,
      `/campaigns/${programmed.id}/media-upload`,
      {},
      [{ field: 'file', name: 'foto.png', type: 'image/png', content: PNG }],
    );
    expect(media.statusCode).toBe(400);
  });

  it('starts now a campaign left without a schedule, once it has a connection and recipients', async () => {
    const bare = (await create(home.adminToken, originalForm({ whatsappId: '' }))).json();
    expect(bare.status).toBe('INATIVA');
    const refused = await t.as(home.adminToken).post(`/campaigns/${bare.id}/restart`);
    expect(refused.statusCode).toBe(400);
    expect((await row(bare.id)).status).toBe('INATIVA');

    const made = (await create(home.adminToken, originalForm())).json();
    const started = await t.as(home.adminToken).post(`/campaigns/${made.id}/restart`);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ id: made.id, status: 'EM_ANDAMENTO' });
    expect(emittedOf(t, `company-${home.companyId}-campaign`)).toContainEqual(
      expect.objectContaining({
        action: 'update',
        record: expect.objectContaining({ id: made.id, status: 'EM_ANDAMENTO' }),
      }),
    );
    // a programmed one keeps its date: it is not started by hand
    const programmed = (
      await create(home.adminToken, originalForm({ scheduledAt: localIn(5) }))
    ).json();
    expect(
      (await t.as(home.adminToken).post(`/campaigns/${programmed.id}/restart`)).statusCode,
    ).toBe(400);
  });

  it("takes the original client's empty selects ('', false, 'Nenhuma') as none", async () => {
    const made = await create(
      home.adminToken,
      originalForm({ tagListId: false, fileListId: false, contactListId: '' }),
    );
    expect(made.statusCode, made.body).toBe(201);
    const read = (await t.as(home.adminToken).get(`/campaigns/${made.json().id}`)).json();
    expect(read).toMatchObject({ tagListId: null, fileListId: null, contactListId: null });
  });

  it('attaches one media file (spaces to underscores), replaces and removes it', async () => {
    const made = (await create(home.adminToken, originalForm())).json();
    const upload = (name: string) =>
      postForm(t, home.adminToken, `/campaigns/${made.id}/media-upload`, {}, [
        { field: 'file', name, type: 'image/png', content: PNG },
      ]);
    const first = await upload('minha foto.png');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().mediaName).toBe('minha_foto.png');
    expect(first.json().mediaPath).toEqual(expect.any(String));
    expect((await row(made.id)).mediaMime).toBe('image/png');
    const text = await postForm(t, home.adminToken, `/campaigns/${made.id}/media-upload`, {}, [
      { field: 'file', name: 'a.exe', type: 'application/x-msdownload', content: PNG },
    ]);
    expect(text.statusCode).toBe(415);
    const removed = await t.as(home.adminToken).delete(`/campaigns/${made.id}/media-upload`);
    expect(removed.json()).toMatchObject({ mediaPath: null, mediaName: null });
  });

  it('deletes a campaign and tells the company', async () => {
    const made = (await create(home.adminToken, originalForm())).json();
    const res = await t.as(home.adminToken).delete(`/campaigns/${made.id}`);
    expect(res.statusCode).toBe(204);
    expect((await t.as(home.adminToken).get(`/campaigns/${made.id}`)).statusCode).toBe(404);
    expect(emittedOf(t, `company-${home.companyId}-campaign`)).toContainEqual({
      action: 'delete',
      id: made.id,
    });
  });
});

describe('campaign settings', () => {
  it('answers the defaults, saves the intervals and keeps the first of a repeated key', async () => {
    const company = await campaigning();
    const before = (await t.as(company.adminToken).get('/campaign-settings')).json();
    expect(before).toEqual(
      expect.arrayContaining([
        { key: 'messageInterval', value: '20' },
        { key: 'longerIntervalAfter', value: '20' },
        { key: 'greaterInterval', value: '60' },
        { key: 'variables', value: '[]' },
        { key: 'optOutWords', value: '["SAIR","PARAR","STOP"]' },
      ]),
    );
    const saved = await t.as(company.adminToken).post('/campaign-settings', {
      settings: {
        messageInterval: 5,
        longerIntervalAfter: 10,
        greaterInterval: 120,
        variables: [
          { key: 'loja', value: 'Loja Centro' },
          { key: 'loja', value: 'Outra' },
        ],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const after = (await t.as(company.adminToken).get('/campaign-settings')).json();
    expect(after).toEqual(
      expect.arrayContaining([
        { key: 'messageInterval', value: '5' },
        { key: 'greaterInterval', value: '120' },
        { key: 'variables', value: '[{"key":"loja","value":"Loja Centro"}]' },
      ]),
    );
    // Another company keeps its own.
    const theirs = (await t.as(other.adminToken).get('/campaign-settings')).json();
    expect(theirs).toContainEqual({ key: 'messageInterval', value: '20' });
  });

  it('refuses an interval that is not an option', async () => {
    for (const settings of [{ messageInterval: 7 }, { greaterInterval: 61 }, { dailyLimit: -1 }]) {
      const res = await t.as(home.adminToken).post('/campaign-settings', { settings });
      expect(res.statusCode, JSON.stringify(settings)).toBe(400);
    }
  });
});
