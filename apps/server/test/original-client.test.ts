import { DEFAULT_SCHEDULES } from '@atendi/shared';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignShipping, contactListItems } from '../src/db/schema';
import { TenantDb } from '../src/db/tenant';
import { FakeAsaas } from './fakes/asaas';
import { serviceAccountKey } from './fakes/bot-services';
import { startTestServer, type TestServer } from './harness';
import { form, formParts, inboxFactories, PNG, pairedSimulator, socketFor } from './inbox';
import { reportsScreenQuery } from './original-screens';
import { seedWorld, type World } from './sweeps/world';

/**
 * The spec's API is a contract: a client built for the original product must keep working.
 * Every call of the spec's tables (core 7 and administration-and-growth 7) that the server
 * registers is replayed here with every method, path, query and body field the tables list,
 * shaped as the original client sends them: forms spread from the record it read (ids, dates and
 * the record's other fields included), `companyId` hints, `session=0`, lists of ids as JSON. None
 * may be refused for its shape. Calls the server does not register yet are listed as pending with
 * the reason; once one is registered, the first test fails until it has a replay.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The calls of the spec's tables, as `METHOD /path/{param}`. */
const SPEC_CALLS: { call: string; pending?: string }[] = [
  // core.md, 7
  { call: 'POST /auth/login' },
  { call: 'POST /auth/refresh_token' },
  { call: 'DELETE /auth/logout' },
  { call: 'GET /auth/me' },
  { call: 'GET /version' },
  { call: 'GET /settings' },
  { call: 'GET /queue' },
  { call: 'GET /users/{id}' },
  { call: 'POST /users' },
  { call: 'PUT /users/{id}' },
  { call: 'GET /users/list' },
  { call: 'GET /users' },
  { call: 'DELETE /users/{id}' },
  { call: 'GET /whatsapp' },
  { call: 'GET /whatsapp/{id}' },
  { call: 'POST /whatsapp' },
  { call: 'PUT /whatsapp/{id}' },
  { call: 'DELETE /whatsapp/{id}' },
  { call: 'POST /whatsappsession/{id}' },
  { call: 'PUT /whatsappsession/{id}' },
  { call: 'DELETE /whatsappsession/{id}' },
  { call: 'GET /tickets' },
  { call: 'GET /tickets/{id}' },
  { call: 'GET /tickets/u/{uuid}' },
  { call: 'POST /tickets' },
  { call: 'PUT /tickets/{id}' },
  { call: 'DELETE /tickets/{id}' },
  { call: 'GET /messages/{ticketId}' },
  { call: 'POST /messages/{ticketId}' },
  { call: 'DELETE /messages/{id}' },
  { call: 'POST /ticket-notes' },
  { call: 'DELETE /ticket-notes/{id}' },
  { call: 'GET /ticket-notes/list' },
  { call: 'GET /contacts' },
  { call: 'GET /contacts/list' },
  { call: 'GET /contacts/{id}' },
  { call: 'POST /contacts' },
  { call: 'PUT /contacts/{id}' },
  { call: 'DELETE /contacts/{id}' },
  { call: 'POST /contacts/import' },
  { call: 'POST /quick-messages' },
  { call: 'GET /quick-messages/{id}' },
  { call: 'PUT /quick-messages/{id}' },
  { call: 'DELETE /quick-messages/{id}' },
  { call: 'GET /quick-messages/list' },
  { call: 'GET /quick-messages' },
  { call: 'POST /quick-messages/{id}/media-upload' },
  { call: 'DELETE /quick-messages/{id}/media-upload' },
  { call: 'GET /tags/list' },
  { call: 'GET /tags' },
  { call: 'POST /tags' },
  { call: 'GET /tags/{id}' },
  { call: 'PUT /tags/{id}' },
  { call: 'DELETE /tags/{id}' },
  { call: 'POST /tags/sync' },
  { call: 'GET /schedules' },
  { call: 'GET /schedules/{id}' },
  { call: 'POST /schedules' },
  { call: 'PUT /schedules/{id}' },
  { call: 'DELETE /schedules/{id}' },
  { call: 'POST /schedules/{id}/media-upload' },
  { call: 'DELETE /schedules/{id}/media-upload' },
  { call: 'POST /companies/cadastro' },
  { call: 'GET /plans/list' },
  { call: 'GET /companies/listPlan/{companyId}' },
  { call: 'GET /prompt' },
  { call: 'GET /prompt/{id}' },
  { call: 'POST /prompt' },
  { call: 'PUT /prompt/{id}' },
  { call: 'DELETE /prompt/{id}' },
  { call: 'GET /chats' },
  { call: 'POST /chats' },
  { call: 'PUT /chats/{id}' },
  { call: 'DELETE /chats/{id}' },
  { call: 'GET /chats/{id}/messages' },
  { call: 'POST /chats/{id}/messages' },
  { call: 'POST /chats/{id}/read' },
  { call: 'GET /announcements' },
  { call: 'GET /announcements/{id}' },
  { call: 'POST /announcements' },
  { call: 'PUT /announcements/{id}' },
  { call: 'DELETE /announcements/{id}' },
  { call: 'POST /announcements/{id}/media-upload' },
  { call: 'DELETE /announcements/{id}/media-upload' },
  { call: 'GET /dashboard' },
  { call: 'GET /dashboard/ticketsUsers' },
  { call: 'GET /dashboard/ticketsDay' },
  // administration-and-growth.md, 7
  { call: 'POST /companies' },
  { call: 'PUT /companies/{id}' },
  { call: 'DELETE /companies/{id}' },
  { call: 'GET /companies/list' },
  { call: 'GET /companies/{id}' },
  { call: 'GET /companies' },
  { call: 'PUT /companies/{id}/schedules' },
  { call: 'GET /plans/all' },
  { call: 'POST /plans' },
  { call: 'PUT /plans/{id}' },
  { call: 'GET /plans/{id}' },
  { call: 'DELETE /plans/{id}' },
  { call: 'GET /helps' },
  { call: 'GET /helps/list' },
  { call: 'POST /helps' },
  { call: 'PUT /helps/{id}' },
  { call: 'DELETE /helps/{id}' },
  { call: 'PUT /settings/{key}' },
  { call: 'GET /queue/{id}' },
  { call: 'POST /queue' },
  { call: 'PUT /queue/{id}' },
  { call: 'DELETE /queue/{id}' },
  { call: 'POST /subscription' },
  { call: 'GET /invoices/all' },
  { call: 'GET /tags/kanban' },
  { call: 'GET /ticket/kanban' },
  { call: 'DELETE /ticket-tags/{ticketId}' },
  { call: 'PUT /ticket-tags/{ticketId}/{tagId}' },
  { call: 'GET /contact-lists' },
  { call: 'GET /contact-lists/{id}' },
  { call: 'GET /contact-lists/list' },
  { call: 'POST /contact-lists' },
  { call: 'PUT /contact-lists/{id}' },
  { call: 'DELETE /contact-lists/{id}' },
  { call: 'POST /contact-lists/{id}/upload' },
  { call: 'GET /contact-list-items' },
  { call: 'GET /contact-list-items/{id}' },
  { call: 'PUT /contact-list-items/{id}' },
  { call: 'POST /contact-list-items' },
  { call: 'DELETE /contact-list-items/{id}' },
  { call: 'GET /campaigns' },
  { call: 'GET /campaigns/{id}' },
  { call: 'POST /campaigns' },
  { call: 'PUT /campaigns/{id}' },
  { call: 'POST /campaigns/{id}/media-upload' },
  { call: 'DELETE /campaigns/{id}/media-upload' },
  { call: 'POST /campaigns/{id}/cancel' },
  { call: 'POST /campaigns/{id}/restart' },
  { call: 'DELETE /campaigns/{id}' },
  { call: 'GET /campaign-settings' },
  { call: 'POST /campaign-settings' },
  { call: 'GET /files' },
  { call: 'GET /files/{id}' },
  { call: 'POST /files' },
  { call: 'PUT /files/{id}' },
  { call: 'POST /files/uploadList/{fileId}' },
  { call: 'DELETE /files/{id}' },
  { call: 'GET /queue-options' },
  { call: 'POST /queue-options' },
  { call: 'PUT /queue-options/{id}' },
  { call: 'DELETE /queue-options/{id}' },
  { call: 'GET /queueIntegration' },
  { call: 'GET /queueIntegration/{id}' },
  { call: 'POST /queueIntegration' },
  { call: 'PUT /queueIntegration/{id}' },
  { call: 'DELETE /queueIntegration/{id}' },
  { call: 'POST /queueIntegration/testSession' },
  { call: 'POST /forgetpassword/{email}' },
  { call: 'POST /resetpasswords/{email}/{token}/{newPassword}' },
  { call: 'POST /api/messages/send' },
];

/** `GET /tags/{id}` and fastify's `GET /tags/:id` alike: parameters named by position only. */
const shapeOf = (method: string, path: string) =>
  `${method} ${
    path
      .replace(/\{[^}]+\}|:[A-Za-z]+/g, ':')
      .replace(/\/+$/, '')
      .toLowerCase() || '/'
  }`;

let t: TestServer;
let world: World;
/** The payment provider the checkout charges through. */
let asaas: FakeAsaas;
/** A simulator connection of company A, paired: messages on its tickets really go out. */
let liveConnection: number;

beforeAll(async () => {
  asaas = await new FakeAsaas('$aact_original_client_key_0001').start();
  t = await startTestServer({
    ASAAS_BASE_URL: asaas.baseUrl,
    OUTBOUND_ALLOW_PRIVATE: new URL(asaas.baseUrl).host,
  });
  world = await seedWorld(t);
  liveConnection = await pairedSimulator(t, world.a.admin.token, 'Original client');
}, 120_000);
afterAll(async () => {
  await t?.stop();
  await asaas?.close();
});

interface Request {
  method: Method;
  /** The path as the client builds it, with its values. */
  url: string;
  token?: string;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  form?: ReturnType<typeof form>;
  cookie?: string;
}

/** The catalog routes each replay reached, by shape. */
const replayed = new Set<string>();
const transcript: string[] = [];

async function send(route: string, request: Request): Promise<LightMyRequestResponse> {
  const query = Object.entries(request.query ?? {})
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
  const url = query ? `${request.url}?${query}` : request.url;
  const headers: Record<string, string> = {};
  if (request.token) headers.authorization = `Bearer ${request.token}`;
  if (request.cookie) headers.cookie = `jrt=${request.cookie}`;
  let payload: string | Buffer | undefined;
  if (request.form) {
    Object.assign(headers, request.form.headers);
    payload = request.form.payload;
  } else if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(request.body);
  }
  const response = await t.app.inject({
    method: request.method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
  const shape = shapeOf(request.method, route);
  expect(
    t.app.routeCatalog.some((r) => shapeOf(r.method, r.url) === shape),
    `${shape} is a registered route`,
  ).toBe(true);
  replayed.add(shape);
  transcript.push(`${request.method} ${url} -> ${response.statusCode}`);
  return response;
}

/** A replay: answered 2xx, so no part of its shape was refused. */
async function replay(route: string, request: Request) {
  const response = await send(route, request);
  const detail = `${request.method} ${request.url} ${JSON.stringify(request.query ?? {})} ${
    request.form ? '(form)' : JSON.stringify(request.body ?? null)
  } -> ${response.statusCode} ${response.body.slice(0, 400)}`;
  expect(response.statusCode, detail).toBeLessThan(300);
  return response.body ? (response.json() as Record<string, unknown> & { id: number }) : undefined;
}

describe('the calls of the spec', () => {
  it('are replayed when the server registers them, and listed as pending with a reason otherwise', () => {
    const registered = new Set(t.app.routeCatalog.map((r) => shapeOf(r.method, r.url)));
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const { call, pending: reason } of SPEC_CALLS) {
      const [method, path] = call.split(' ') as [string, string];
      const shape = shapeOf(method, path);
      if (seen.has(shape)) problems.push(`${call} is listed twice`);
      seen.add(shape);
      if (registered.has(shape) && reason) {
        problems.push(
          `${call} is registered now: replay it below and take it off the pending list`,
        );
      }
      if (!registered.has(shape) && !reason) {
        problems.push(`${call} is not registered: list it as pending with the reason`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the original client', () => {
  it('is refused nothing for its shape, on every call the server registers', async () => {
    const { a } = world;
    const admin = a.admin.token;
    const root = world.superToken;

    // --- sessions (one live session per user: another user's, so A's admin stays signed in) --
    const person = await t.make.user(a.companyId, { name: 'Pessoa Original' });
    const login = await send('/auth/login', {
      method: 'POST',
      url: '/auth/login',
      body: { email: person.email, password: person.password },
    });
    expect(login.statusCode, login.body).toBe(200);
    const cookie = login.cookies.find((c) => c.name === 'jrt')?.value ?? '';
    const refreshed = await replay('/auth/refresh_token', {
      method: 'POST',
      url: '/auth/refresh_token',
      cookie,
    });
    const sessionToken = String(refreshed?.token);
    await replay('/auth/me', { method: 'GET', url: '/auth/me', token: sessionToken });

    // --- password reset, as the spec's client sends it: everything in the path ---------------
    await replay('/forgetpassword/{email}', {
      method: 'POST',
      url: `/forgetpassword/${encodeURIComponent(person.email)}`,
    });
    // the shape is taken; a code nobody mailed is refused by the rule, not by the schema
    const reset = await send('/resetpasswords/{email}/{token}/{newPassword}', {
      method: 'POST',
      url: `/resetpasswords/${encodeURIComponent(person.email)}/123456/NovaSenha1`,
    });
    expect(reset.statusCode, reset.body).toBe(400);
    expect(reset.json()).toEqual({ error: 'ERR_INVALID_RESET_CODE' });
    await replay('/version', { method: 'GET', url: '/version' });
    await replay('/plans/list', { method: 'GET', url: '/plans/list' });
    await replay('/settings', { method: 'GET', url: '/settings/', token: admin });
    await replay('/settings/:key', {
      method: 'PUT',
      url: '/settings/userRating',
      token: admin,
      body: { key: 'userRating', value: 'enabled' },
    });

    // --- queues ---------------------------------------------------------------------------
    await replay('/queue', { method: 'GET', url: '/queue', token: admin });
    await replay('/queue', {
      method: 'GET',
      url: '/queue',
      token: admin,
      query: { companyId: a.companyId },
    });
    const week = [
      ['Segunda-feira', 'monday'],
      ['Terça-feira', 'tuesday'],
      ['Quarta-feira', 'wednesday'],
      ['Quinta-feira', 'thursday'],
      ['Sexta-feira', 'friday'],
      ['Sábado', 'saturday'],
      ['Domingo', 'sunday'],
    ].map(([weekday, weekdayEn]) => ({ weekday, weekdayEn, startTime: '08:00', endTime: '18:00' }));
    const queue = await replay('/queue', {
      method: 'POST',
      url: '/queue',
      token: admin,
      body: {
        name: 'Suporte original',
        color: '#2196f3',
        greetingMessage: 'Olá!',
        complationMessage: 'Atendimento encerrado.',
        outOfHoursMessage: 'Fora do horário.',
        ratingMessage: 'Avalie o atendimento.',
        token: 'queue-integration-token',
        orderQueue: 1,
        integrationId: null,
        promptId: null,
        schedules: week,
      },
    });
    const queueRead = await replay('/queue/:id', {
      method: 'GET',
      url: `/queue/${queue!.id}`,
      token: admin,
    });
    // The edit form is the record as read, with the form's fields over it.
    await replay('/queue/:id', {
      method: 'PUT',
      url: `/queue/${queue!.id}`,
      token: admin,
      body: {
        ...queueRead,
        companyId: a.companyId,
        name: 'Suporte original 2',
        complationMessage: 'Até logo.',
        schedules: week,
        promptId: null,
      },
    });

    // The bot menu: the client reads a level with parentId -1 (the first) or an option's id,
    // and saves each option as it holds it, the editor's own fields and its children included.
    await replay('/queue-options', {
      method: 'GET',
      url: '/queue-options',
      token: admin,
      query: { queueId: queue!.id, parentId: -1 },
    });
    const menuOption = await replay('/queue-options', {
      method: 'POST',
      url: '/queue-options',
      token: admin,
      body: {
        title: 'Financeiro',
        message: 'Escolha: 1 boleto, 2 nota',
        edition: true,
        option: 1,
        queueId: queue!.id,
        parentId: null,
        children: [],
      },
    });
    const subOption = await replay('/queue-options', {
      method: 'POST',
      url: '/queue-options',
      token: admin,
      body: {
        title: 'Boleto',
        message: '',
        edition: true,
        option: 1,
        queueId: queue!.id,
        parentId: menuOption!.id,
        children: [],
      },
    });
    await replay('/queue-options', {
      method: 'GET',
      url: '/queue-options',
      token: admin,
      query: { queueId: queue!.id, parentId: menuOption!.id },
    });
    await replay('/queue-options/:id', {
      method: 'PUT',
      url: `/queue-options/${subOption!.id}`,
      token: admin,
      body: { ...subOption, edition: false, title: 'Segunda via do boleto', option: '2' },
    });
    await replay('/queue-options/:id', {
      method: 'DELETE',
      url: `/queue-options/${menuOption!.id}`,
      token: admin,
    });

    // --- users ----------------------------------------------------------------------------
    await replay('/users', {
      method: 'GET',
      url: '/users/',
      token: admin,
      query: { searchParam: '', pageNumber: 1 },
    });
    // An agent's transfer dialog searches its coworkers by name (TransferTicketModalCustom).
    const coworkers = await replay('/users', {
      method: 'GET',
      url: '/users/',
      token: a.agent.token,
      query: { searchParam: 'ALPHA7 agent' },
    });
    expect(coworkers!.users).toEqual([expect.objectContaining({ id: a.agent.id })]);
    await replay('/users/list', {
      method: 'GET',
      url: '/users/list',
      token: admin,
      query: { companyId: a.companyId },
    });
    const user = await replay('/users', {
      method: 'POST',
      url: '/users',
      token: admin,
      body: {
        name: 'Agente Original',
        email: 'agente.original@example.com',
        password: 'secret-pass',
        profile: 'user',
        allTicket: 'desabled',
        whatsappId: null,
        queueIds: [queue!.id],
        companyId: a.companyId,
      },
    });
    const userRead = await replay('/users/:id', {
      method: 'GET',
      url: `/users/${user!.id}`,
      token: admin,
    });
    await replay('/users/:id', {
      method: 'PUT',
      url: `/users/${user!.id}`,
      token: admin,
      body: {
        ...userRead,
        password: '',
        allTicket: 'enabled',
        whatsappId: liveConnection,
        queueIds: [queue!.id, a.ids.queue],
      },
    });

    // --- connections ----------------------------------------------------------------------
    await replay('/whatsapp', {
      method: 'GET',
      url: '/whatsapp/',
      token: admin,
      query: { companyId: a.companyId, session: 0 },
    });
    const connection = await replay('/whatsapp', {
      method: 'POST',
      url: '/whatsapp',
      token: admin,
      body: {
        name: 'Conexão original',
        provider: 'simulator',
        isDefault: false,
        greetingMessage: '',
        complationMessage: '',
        outOfHoursMessage: '',
        ratingMessage: '',
        token: '',
        expiresInactiveMessage: '',
        expiresTicket: 0,
        timeUseBotQueues: 0,
        maxUseBotQueues: 3,
        timeToTransfer: 0,
        timeSendQueue: 0,
        queueIds: [queue!.id],
        transferQueueId: null,
        promptId: null,
      },
    });
    const connectionRead = await replay('/whatsapp/:id', {
      method: 'GET',
      url: `/whatsapp/${connection!.id}`,
      token: admin,
      query: { session: 0 },
    });
    await replay('/whatsapp/:id', {
      method: 'PUT',
      url: `/whatsapp/${connection!.id}`,
      token: admin,
      body: {
        ...connectionRead,
        name: 'Conexão original 2',
        queueIds: [queue!.id],
        transferQueueId: queue!.id,
        promptId: null,
      },
    });
    await replay('/whatsappsession/:id', {
      method: 'POST',
      url: `/whatsappsession/${connection!.id}`,
      token: admin,
    });
    await replay('/whatsappsession/:id', {
      method: 'PUT',
      url: `/whatsappsession/${connection!.id}`,
      token: admin,
    });
    await replay('/whatsappsession/:id', {
      method: 'DELETE',
      url: `/whatsappsession/${connection!.id}`,
      token: admin,
    });

    // --- contacts -------------------------------------------------------------------------
    await replay('/contacts', {
      method: 'GET',
      url: '/contacts/',
      token: admin,
      query: {
        searchParam: '',
        pageNumber: 1,
        date: '2024-05-01',
        dateStart: '2024-05-01',
        dateEnd: '2030-05-31',
      },
    });
    await replay('/contacts/list', {
      method: 'GET',
      url: '/contacts/list',
      token: admin,
      query: { companyId: a.companyId },
    });
    const contact = await replay('/contacts', {
      method: 'POST',
      url: '/contacts',
      token: admin,
      body: {
        name: 'Cliente Original',
        number: '5511988887777',
        email: '',
        extraInfo: [{ name: 'CPF', value: '000' }],
      },
    });
    const contactRead = await replay('/contacts/:id', {
      method: 'GET',
      url: `/contacts/${contact!.id}`,
      token: admin,
    });
    await replay('/contacts/:id', {
      method: 'PUT',
      url: `/contacts/${contact!.id}`,
      token: admin,
      body: {
        ...contactRead,
        companyId: a.companyId,
        name: 'Cliente Original 2',
        extraInfo: [
          { id: 1, name: 'CPF', value: '111', contactId: contact!.id, createdAt: '2024-05-01' },
        ],
      },
    });
    await replay('/contacts/import', {
      method: 'POST',
      url: '/contacts/import',
      token: admin,
      form: form({}, [
        {
          field: 'file',
          name: 'contatos.csv',
          type: 'text/csv',
          content: Buffer.from('name;number;email\nImportado;5511977776666;imp@example.com\n'),
        },
      ]),
    });

    // --- tickets and messages -------------------------------------------------------------
    await replay('/tickets', {
      method: 'GET',
      url: '/tickets',
      token: admin,
      query: {
        searchParam: '',
        pageNumber: 1,
        tags: JSON.stringify([a.ids.tag]),
        users: JSON.stringify([a.admin.id]),
        status: 'open',
        date: '2024-05-01',
        updatedAt: '2024-05-01',
        showAll: 'true',
        queueIds: JSON.stringify([a.ids.queue, queue!.id]),
        withUnreadMessages: 'false',
      },
    });
    const ticket = await replay('/tickets', {
      method: 'POST',
      url: '/tickets',
      token: admin,
      body: {
        contactId: contact!.id,
        queueId: queue!.id,
        whatsappId: liveConnection,
        userId: a.admin.id,
        status: 'open',
      },
    });
    await replay('/tickets/:id', { method: 'GET', url: `/tickets/${ticket!.id}`, token: admin });
    await replay('/tickets/u/:uuid', {
      method: 'GET',
      url: `/tickets/u/${ticket!.uuid}`,
      token: admin,
    });
    // Accepting, then transferring, as the original screens send them.
    await replay('/tickets/:id', {
      method: 'PUT',
      url: `/tickets/${ticket!.id}`,
      token: admin,
      body: {
        status: 'open',
        userId: a.admin.id,
        queueId: queue!.id,
        useIntegration: false,
        promptId: null,
        integrationId: null,
      },
    });
    await replay('/tickets/:id', {
      method: 'PUT',
      url: `/tickets/${ticket!.id}`,
      token: admin,
      body: {
        userId: a.admin.id,
        queueId: a.ids.queue,
        status: 'open',
        whatsappId: liveConnection,
      },
    });
    await replay('/messages/:ticketId', {
      method: 'GET',
      url: `/messages/${ticket!.id}`,
      token: admin,
      query: { pageNumber: 1 },
    });
    const sent = await replay('/messages/:ticketId', {
      method: 'POST',
      url: `/messages/${ticket!.id}`,
      token: admin,
      body: { read: 1, fromMe: true, mediaUrl: '', body: '*Admin:*\nOlá', quotedMsg: null },
    });
    // A reply quotes the message as the client holds it: the whole record.
    await replay('/messages/:ticketId', {
      method: 'POST',
      url: `/messages/${ticket!.id}`,
      token: admin,
      body: { read: 1, fromMe: true, mediaUrl: '', body: 'Respondendo', quotedMsg: sent },
    });
    await replay('/messages/:ticketId', {
      method: 'POST',
      url: `/messages/${ticket!.id}`,
      token: admin,
      form: form({ fromMe: 'true', body: 'foto.png' }, [
        { field: 'medias', name: 'foto.png', type: 'image/png', content: PNG },
      ]),
    });
    await replay('/messages/:id', { method: 'DELETE', url: `/messages/${sent!.id}`, token: admin });

    // --- notes ----------------------------------------------------------------------------
    const note = await replay('/ticket-notes', {
      method: 'POST',
      url: '/ticket-notes',
      token: admin,
      body: { note: 'Cliente pediu retorno', ticketId: ticket!.id, contactId: contact!.id },
    });
    await replay('/ticket-notes/list', {
      method: 'GET',
      url: '/ticket-notes/list',
      token: admin,
      query: { ticketId: ticket!.id, contactId: contact!.id },
    });
    await replay('/ticket-notes/:id', {
      method: 'DELETE',
      url: `/ticket-notes/${note!.id}`,
      token: admin,
    });

    // --- tags -----------------------------------------------------------------------------
    await replay('/tags/list', {
      method: 'GET',
      url: '/tags/list',
      token: admin,
      query: { searchParam: '', pageNumber: 1 },
    });
    await replay('/tags', {
      method: 'GET',
      url: '/tags/',
      token: admin,
      query: { searchParam: '', pageNumber: 1 },
    });
    // The campaign form's lookup.
    await replay('/tags', {
      method: 'GET',
      url: '/tags',
      token: admin,
      query: { companyId: a.companyId },
    });
    const tag = await replay('/tags', {
      method: 'POST',
      url: '/tags',
      token: admin,
      body: { name: 'Urgente', color: '#ff0000', kanban: 0 },
    });
    const tagRead = await replay('/tags/:id', {
      method: 'GET',
      url: `/tags/${tag!.id}`,
      token: admin,
    });
    await replay('/tags/:id', {
      method: 'PUT',
      url: `/tags/${tag!.id}`,
      token: admin,
      body: { ...tagRead, name: 'Urgentíssimo', color: '#ff0000', kanban: 1 },
    });
    await replay('/tags/sync', {
      method: 'POST',
      url: '/tags/sync',
      token: admin,
      body: { ticketId: ticket!.id, tags: [tagRead] },
    });

    // --- kanban: the lanes, the board of the user's queues, a card moved -------------------
    const lanes = await replay('/tags/kanban', {
      method: 'GET',
      url: '/tags/kanban',
      token: admin,
    });
    // The board reads its lanes from `lista`, and a card's lane from its tags' ids.
    expect(lanes!.lista).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: tag!.id })]),
    );
    const board = () =>
      replay('/ticket/kanban', {
        method: 'GET',
        url: '/ticket/kanban',
        token: admin,
        // the admin's queues: the ticket was transferred to the company's first one above
        query: { queueIds: JSON.stringify([a.ids.queue, queue!.id]), teste: true },
      });
    const card = async () =>
      ((await board())!.tickets as { id: number; uuid: string; tags: { id: number }[] }[]).find(
        (row) => row.id === ticket!.id,
      );
    await card();
    // A card dropped on a lane: its tags are taken off, then the lane's tag put on.
    await replay('/ticket-tags/:ticketId', {
      method: 'DELETE',
      url: `/ticket-tags/${ticket!.id}`,
      token: admin,
    });
    expect((await card())?.tags).toEqual([]);
    await replay('/ticket-tags/:ticketId/:tagId', {
      method: 'PUT',
      url: `/ticket-tags/${ticket!.id}/${tag!.id}`,
      token: admin,
    });
    const moved = await card();
    expect(moved?.tags.map((t) => t.id)).toEqual([tag!.id]);
    expect(moved?.uuid).toEqual(expect.any(String));

    // --- quick messages -------------------------------------------------------------------
    await replay('/quick-messages', {
      method: 'GET',
      url: '/quick-messages/',
      token: admin,
      query: { searchParam: '', pageNumber: 1, userId: a.admin.id },
    });
    await replay('/quick-messages/list', {
      method: 'GET',
      url: '/quick-messages/list',
      token: admin,
      query: { companyId: a.companyId, userId: a.admin.id },
    });
    const quick = await replay('/quick-messages', {
      method: 'POST',
      url: '/quick-messages',
      token: admin,
      body: {
        shortcode: 'bomdia',
        message: 'Bom dia!',
        geral: true,
        status: 'active',
        isMedia: true,
        mediaPath: 'foto.png',
        companyId: a.companyId,
        userId: a.admin.id,
      },
    });
    const quickRead = await replay('/quick-messages/:id', {
      method: 'GET',
      url: `/quick-messages/${quick!.id}`,
      token: admin,
    });
    await replay('/quick-messages/:id', {
      method: 'PUT',
      url: `/quick-messages/${quick!.id}`,
      token: admin,
      body: { ...quickRead, message: 'Bom dia, tudo bem?', isMedia: false, mediaPath: null },
    });
    await replay('/quick-messages/:id/media-upload', {
      method: 'POST',
      url: `/quick-messages/${quick!.id}/media-upload`,
      token: admin,
      form: form({ typeArch: 'quickMessage' }, [
        { field: 'file', name: 'foto.png', type: 'image/png', content: PNG },
      ]),
    });
    await replay('/quick-messages/:id/media-upload', {
      method: 'DELETE',
      url: `/quick-messages/${quick!.id}/media-upload`,
      token: admin,
    });

    // --- the dashboard: a period of days, or dates; the charts send the company's id -------
    await replay('/dashboard', {
      method: 'GET',
      url: '/dashboard',
      token: admin,
      query: { days: 7 },
    });
    await replay('/dashboard', {
      method: 'GET',
      url: '/dashboard',
      token: admin,
      query: { date_from: '2025-03-01', date_to: '2025-03-31' },
    });
    for (const chart of ['/dashboard/ticketsUsers', '/dashboard/ticketsDay']) {
      await replay(chart, {
        method: 'GET',
        url: chart,
        token: admin,
        query: { initialDate: '2025-03-01', finalDate: '2025-03-31', companyId: a.companyId },
      });
    }
    // --- schedules: the modal's local times, the record read spread back --------------------
    await replay('/schedules', {
      method: 'GET',
      url: '/schedules/',
      token: admin,
      query: { searchParam: '', pageNumber: 1 },
    });
    const schedule = await replay('/schedules', {
      method: 'POST',
      url: '/schedules',
      token: admin,
      body: {
        body: 'Olá {{contactName}}, lembrete da sua visita.',
        contactId: a.ids.contact,
        sendAt: '2031-06-01T10:30',
        sentAt: '',
        userId: a.admin.id,
      },
    });
    const scheduleRead = await replay('/schedules/:id', {
      method: 'GET',
      url: `/schedules/${schedule!.id}`,
      token: admin,
    });
    await replay('/schedules/:id', {
      method: 'PUT',
      url: `/schedules/${schedule!.id}`,
      token: admin,
      body: {
        ...scheduleRead,
        companyId: a.companyId,
        sendAt: '2031-06-02 09:00:00',
        userId: a.admin.id,
      },
    });
    await replay('/schedules/:id/media-upload', {
      method: 'POST',
      url: `/schedules/${schedule!.id}/media-upload`,
      token: admin,
      form: form({ typeArch: 'schedule' }, [
        { field: 'file', name: 'lembrete.png', type: 'image/png', content: PNG },
      ]),
    });
    await replay('/schedules/:id/media-upload', {
      method: 'DELETE',
      url: `/schedules/${schedule!.id}/media-upload`,
      token: admin,
    });
    await replay('/schedules/:id', {
      method: 'DELETE',
      url: `/schedules/${schedule!.id}`,
      token: admin,
    });

    // --- contact lists and their items: forms spread from the record read -----------------
    await replay('/contact-lists', {
      method: 'GET',
      url: '/contact-lists/',
      token: admin,
      query: { searchParam: '', pageNumber: 1 },
    });
    const contactList = await replay('/contact-lists', {
      method: 'POST',
      url: '/contact-lists',
      token: admin,
      body: { name: 'Clientes do original' },
    });
    const contactListRead = await replay('/contact-lists/:id', {
      method: 'GET',
      url: `/contact-lists/${contactList!.id}`,
      token: admin,
    });
    await replay('/contact-lists/:id', {
      method: 'PUT',
      url: `/contact-lists/${contactList!.id}`,
      token: admin,
      body: { ...contactListRead, name: 'Clientes do original 2', companyId: a.companyId },
    });
    await replay('/contact-lists/list', {
      method: 'GET',
      url: '/contact-lists/list',
      token: admin,
      query: { companyId: a.companyId },
    });
    await replay('/contact-lists/:id/upload', {
      method: 'POST',
      url: `/contact-lists/${contactList!.id}/upload`,
      token: admin,
      form: form({}, [
        {
          field: 'file',
          name: 'planilha.csv',
          type: 'text/csv',
          content: Buffer.from('nome,numero,email\nMaria,5511987650101,maria@example.com\n'),
        },
      ]),
    });
    await replay('/contact-list-items', {
      method: 'GET',
      url: '/contact-list-items',
      token: admin,
      query: { searchParam: '', pageNumber: 1, contactListId: contactList!.id },
    });
    const listItem = await replay('/contact-list-items', {
      method: 'POST',
      url: '/contact-list-items',
      token: admin,
      body: {
        name: 'João',
        number: '5511987650102',
        email: '',
        contactListId: contactList!.id,
        companyId: a.companyId,
      },
    });
    const listItemRead = await replay('/contact-list-items/:id', {
      method: 'GET',
      url: `/contact-list-items/${listItem!.id}`,
      token: admin,
    });
    await replay('/contact-list-items/:id', {
      method: 'PUT',
      url: `/contact-list-items/${listItem!.id}`,
      token: admin,
      body: { ...listItemRead, name: 'João Pedro' },
    });
    await replay('/contact-list-items/:id', {
      method: 'DELETE',
      url: `/contact-list-items/${listItem!.id}`,
      token: admin,
    });
    // --- campaigns: the settings page, the dialog's form as it posts it, cancel and restart ----
    await replay('/campaign-settings', {
      method: 'GET',
      url: '/campaign-settings',
      token: admin,
      query: { companyId: a.companyId },
    });
    await replay('/campaign-settings', {
      method: 'POST',
      url: '/campaign-settings',
      token: admin,
      body: {
        settings: {
          messageInterval: 20,
          longerIntervalAfter: 20,
          greaterInterval: 60,
          variables: [{ key: 'loja', value: 'Loja Centro' }],
        },
      },
    });
    await replay('/campaigns', {
      method: 'GET',
      url: '/campaigns/',
      token: admin,
      query: { searchParam: '', pageNumber: 1 },
    });
    const campaignForm = {
      name: 'Campanha original',
      message1: 'Olá {{contactFirstName}}',
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
      whatsappId: liveConnection,
      contactListId: contactList!.id,
      tagListId: 'Nenhuma',
      fileListId: '',
      companyId: a.companyId,
    };
    const campaign = await replay('/campaigns', {
      method: 'POST',
      url: '/campaigns',
      token: admin,
      body: campaignForm,
    });
    await replay('/campaigns/:id', {
      method: 'GET',
      url: `/campaigns/${campaign!.id}`,
      token: admin,
    });
    await replay('/campaigns/:id/media-upload', {
      method: 'POST',
      url: `/campaigns/${campaign!.id}/media-upload`,
      token: admin,
      form: form({ typeArch: 'campaign' }, [
        { field: 'file', name: 'foto campanha.png', type: 'image/png', content: PNG },
      ]),
    });
    await replay('/campaigns/:id/media-upload', {
      method: 'DELETE',
      url: `/campaigns/${campaign!.id}/media-upload`,
      token: admin,
    });
    // Programmed for a year ahead, then cancelled and restarted.
    const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 19);
    await replay('/campaigns/:id', {
      method: 'PUT',
      url: `/campaigns/${campaign!.id}`,
      token: admin,
      body: { ...campaignForm, id: campaign!.id, scheduledAt: inAYear.replace('T', ' ') },
    });
    await replay('/campaigns/:id/cancel', {
      method: 'POST',
      url: `/campaigns/${campaign!.id}/cancel`,
      token: admin,
    });
    await replay('/campaigns/:id/restart', {
      method: 'POST',
      url: `/campaigns/${campaign!.id}/restart`,
      token: admin,
    });
    await replay('/campaigns/:id/cancel', {
      method: 'POST',
      url: `/campaigns/${campaign!.id}/cancel`,
      token: admin,
    });
    await replay('/campaigns/:id', {
      method: 'DELETE',
      url: `/campaigns/${campaign!.id}`,
      token: admin,
    });
    await replay('/contact-lists/:id', {
      method: 'DELETE',
      url: `/contact-lists/${contactList!.id}`,
      token: admin,
    });
    // --- file lists: the form's values with the user's id, then the files of its options -----
    await replay('/files', {
      method: 'GET',
      url: '/files/',
      token: admin,
      query: { searchParam: '', pageNumber: 1 },
    });
    await replay('/files', {
      method: 'GET',
      url: '/files/',
      token: admin,
      query: { companyId: a.companyId },
    });
    const fileList = await replay('/files', {
      method: 'POST',
      url: '/files',
      token: admin,
      body: {
        name: 'Catálogo original',
        message: 'Segue nosso catálogo',
        options: [
          { name: 'Foto', path: '', mediaType: '' },
          { name: 'Tabela', path: '', mediaType: '' },
        ],
        userId: a.admin.id,
      },
    });
    const created = fileList as unknown as { id: number; options: { id: number; name: string }[] };
    const uploadForm = (options: { id: number; name: string }[]) =>
      formParts([
        { field: 'fileId', value: String(created.id) },
        { field: 'typeArch', value: 'fileList' },
        ...options.flatMap((option, index) => [
          index === 0
            ? { field: 'files', name: 'foto.png', type: 'image/png', content: PNG }
            : {
                field: 'files',
                name: 'tabela.pdf',
                type: 'application/pdf',
                content: Buffer.from('%PDF-1.4\n%%EOF\n'),
              },
          { field: 'mediaType', value: index === 0 ? 'image/png' : 'application/pdf' },
          { field: 'name', value: option.name },
          { field: 'id', value: String(option.id) },
        ]),
      ]);
    await replay('/files/uploadList/:fileId', {
      method: 'POST',
      url: `/files/uploadList/${created.id}`,
      token: admin,
      form: uploadForm(created.options),
    });
    const fileListRead = await replay('/files/:id', {
      method: 'GET',
      url: `/files/${created.id}`,
      token: admin,
    });
    const updatedList = await replay('/files/:id', {
      method: 'PUT',
      url: `/files/${created.id}`,
      token: admin,
      body: {
        ...fileListRead,
        name: 'Catálogo original 2',
        options: [
          ...(fileListRead!.options as object[]),
          { name: 'Vídeo', path: '', mediaType: '' },
        ],
        userId: a.admin.id,
      },
    });
    expect((updatedList!.options as unknown[]).length).toBe(3);
    await replay('/files/:id', {
      method: 'DELETE',
      url: `/files/${created.id}`,
      token: admin,
    });
    // --- internal chat: the dialog's picked user records, the chat read spread back -----------
    await replay('/chats', {
      method: 'GET',
      url: '/chats/',
      token: admin,
      query: { searchParam: '', pageNumber: 1 },
    });
    const chat = await replay('/chats', {
      method: 'POST',
      url: '/chats',
      token: admin,
      body: { users: [{ id: a.agent.id, name: 'ALPHA7 agent' }], title: 'Conversa original' },
    });
    await replay('/chats/:id', {
      method: 'PUT',
      url: `/chats/${chat!.id}`,
      token: admin,
      body: {
        ...chat,
        users: [{ id: a.agent.id, name: 'ALPHA7 agent', email: a.agent.email }],
        title: 'Conversa original 2',
      },
    });
    await replay('/chats/:id/messages', {
      method: 'POST',
      url: `/chats/${chat!.id}/messages`,
      token: admin,
      body: { message: 'Olá, equipe' },
    });
    await replay('/chats/:id/messages', {
      method: 'GET',
      url: `/chats/${chat!.id}/messages`,
      token: a.agent.token,
      query: { pageNumber: 1 },
    });
    await replay('/chats/:id/read', {
      method: 'POST',
      url: `/chats/${chat!.id}/read`,
      token: a.agent.token,
      body: { userId: a.agent.id },
    });
    await replay('/chats/:id', {
      method: 'DELETE',
      url: `/chats/${chat!.id}`,
      token: admin,
    });

    // --- the company's own hours ----------------------------------------------------------
    await replay('/companies/listPlan/:companyId', {
      method: 'GET',
      url: `/companies/listPlan/${a.companyId}`,
      token: admin,
    });
    await replay('/companies/:id', {
      method: 'GET',
      url: `/companies/${a.companyId}`,
      token: admin,
    });
    await replay('/companies/:id/schedules', {
      method: 'PUT',
      url: `/companies/${a.companyId}/schedules`,
      token: admin,
      body: { id: a.companyId, schedules: week },
    });

    // --- the platform: companies, plans, helps --------------------------------------------
    await replay('/companies/cadastro', {
      method: 'POST',
      url: '/companies/cadastro',
      body: {
        name: 'Empresa Cadastro',
        email: 'cadastro.original@example.com',
        phone: '(11) 99999-9999',
        password: 'secret-pass',
        planId: a.planId,
        recurrence: 'MENSAL',
        dueDate: new Date(Date.now() + 3 * 86_400_000).toISOString(),
        status: 't',
        campaignsEnabled: true,
      },
    });
    await replay('/companies', {
      method: 'GET',
      url: '/companies',
      token: root,
      query: { searchParam: '', pageNumber: 1 },
    });
    await replay('/companies/list', { method: 'GET', url: '/companies/list', token: root });
    const company = await replay('/companies', {
      method: 'POST',
      url: '/companies',
      token: root,
      body: {
        name: 'Empresa Original',
        email: 'empresa.original@example.com',
        phone: '11999999999',
        status: true,
        planId: a.planId,
        campaignsEnabled: true,
        dueDate: '2030-01-01',
        recurrence: 'MENSAL',
      },
    });
    const companyRead = await replay('/companies/:id', {
      method: 'GET',
      url: `/companies/${company!.id}`,
      token: root,
    });
    await replay('/companies/:id', {
      method: 'PUT',
      url: `/companies/${company!.id}`,
      token: root,
      body: { ...companyRead, name: 'Empresa Original 2', campaignsEnabled: false },
    });
    await replay('/plans/all', { method: 'GET', url: '/plans/all', token: root });
    const plan = await replay('/plans', {
      method: 'POST',
      url: '/plans',
      token: root,
      body: {
        name: 'Plano Original',
        users: 5,
        connections: 2,
        queues: 3,
        value: 99.9,
        useCampaigns: true,
        useSchedules: true,
        useInternalChat: true,
        useExternalApi: true,
        useKanban: true,
        useOpenAi: false,
        useIntegrations: false,
      },
    });
    const planRead = await replay('/plans/:id', {
      method: 'GET',
      url: `/plans/${plan!.id}`,
      token: root,
    });
    await replay('/plans/:id', {
      method: 'PUT',
      url: `/plans/${plan!.id}`,
      token: root,
      body: { ...planRead, value: '129.9' },
    });
    await replay('/helps', { method: 'GET', url: '/helps', token: admin });
    await replay('/helps/list', { method: 'GET', url: '/helps/list', token: admin });
    const help = await replay('/helps', {
      method: 'POST',
      url: '/helps',
      token: root,
      body: { title: 'Primeiros passos', video: 'dQw4w9WgXcQ', description: 'Como começar' },
    });
    await replay('/helps/:id', {
      method: 'PUT',
      url: `/helps/${help!.id}`,
      token: root,
      body: { id: help!.id, title: 'Primeiros passos 2', video: 'dQw4w9WgXcQ', description: '' },
    });
    const announcement = await replay('/announcements', {
      method: 'POST',
      url: '/announcements',
      token: root,
      body: {
        title: 'Manutenção',
        text: 'Sábado às 22h',
        status: true,
        priority: 1,
        mediaPath: '',
      },
    });
    const announcementRead = await replay('/announcements/:id', {
      method: 'GET',
      url: `/announcements/${announcement!.id}`,
      token: admin,
    });
    await replay('/announcements/:id', {
      method: 'PUT',
      url: `/announcements/${announcement!.id}`,
      token: root,
      body: { ...announcementRead, companyId: 1, priority: '2', status: false },
    });
    await replay('/announcements/:id/media-upload', {
      method: 'POST',
      url: `/announcements/${announcement!.id}/media-upload`,
      token: root,
      form: form({ typeArch: 'announcements' }, [
        { field: 'file', name: 'aviso.png', type: 'image/png', content: PNG },
      ]),
    });
    await replay('/announcements/:id/media-upload', {
      method: 'DELETE',
      url: `/announcements/${announcement!.id}/media-upload`,
      token: root,
    });
    await replay('/announcements', {
      method: 'GET',
      url: '/announcements',
      token: admin,
      query: { searchParam: '', pageNumber: 1 },
    });

    // --- removals, last -------------------------------------------------------------------
    await replay('/announcements/:id', {
      method: 'DELETE',
      url: `/announcements/${announcement!.id}`,
      token: root,
    });
    await replay('/helps/:id', { method: 'DELETE', url: `/helps/${help!.id}`, token: root });
    await replay('/companies/:id', {
      method: 'DELETE',
      url: `/companies/${company!.id}`,
      token: root,
    });
    await replay('/plans/:id', { method: 'DELETE', url: `/plans/${plan!.id}`, token: root });
    await replay('/tags/:id', { method: 'DELETE', url: `/tags/${tag!.id}`, token: admin });
    await replay('/quick-messages/:id', {
      method: 'DELETE',
      url: `/quick-messages/${quick!.id}`,
      token: admin,
    });
    // --- prompts: the form as the original client fills it, then the record it read sent back --
    const prompt = await replay('/prompt', {
      method: 'POST',
      url: '/prompt',
      token: admin,
      body: {
        name: 'Prompt original',
        prompt: 'Você é um assistente da loja. Responda de forma breve e educada sempre.',
        queueId: queue!.id,
        maxTokens: 100,
        temperature: 1,
        apiKey: 'sk-original-client-key-0001',
        maxMessages: 10,
        voice: 'texto',
        voiceKey: '',
        voiceRegion: '',
        companyId: a.companyId,
      },
    });
    await replay('/prompt', { method: 'GET', url: '/prompt', token: admin });
    const promptRead = await replay('/prompt/:id', {
      method: 'GET',
      url: `/prompt/${prompt!.id}`,
      token: admin,
    });
    await replay('/prompt/:id', {
      method: 'PUT',
      url: `/prompt/${prompt!.id}`,
      token: admin,
      body: { ...promptRead, maxTokens: '120' },
    });
    await replay('/prompt/:id', { method: 'DELETE', url: `/prompt/${prompt!.id}`, token: admin });

    // --- invoices and the Pix checkout, as the original checkout's form sends it ----------
    await replay('/settings/:key', {
      method: 'PUT',
      url: '/settings/asaas',
      token: root,
      body: { value: asaas.apiKey },
    });
    const { rows: due } = await t.database.db.execute<{ id: number }>(
      sql`insert into invoices (company_id, detail, value, due_date)
          values (${a.companyId}, 'Plano original', 99, current_date + 5) returning id`,
    );
    // The provider knows the company already (its CPF/CNPJ, which the original form never asks).
    asaas.customers.push({
      id: 'cus_original_client',
      name: 'Cliente original',
      email: null,
      cpfCnpj: '12345678909',
      externalReference: `company-${a.companyId}`,
    });
    // The original's Financeiro reads a bare list; the spec's paged answer is GET /invoices.
    const invoiceList = await replay('/invoices/all', {
      method: 'GET',
      url: '/invoices/all',
      token: admin,
      query: { searchParam: '', pageNumber: 1 },
    });
    expect(Array.isArray(invoiceList)).toBe(true);
    const pix = await replay('/subscription', {
      method: 'POST',
      url: '/subscription',
      token: admin,
      body: {
        firstName: 'Cliente original',
        lastName: '',
        address2: 'Rua A, 1',
        city: 'São Paulo',
        state: 'SP',
        zipcode: '01001000',
        country: 'BR',
        useAddressForPaymentDetails: false,
        nameOnCard: '',
        cardNumber: '',
        cvv: '',
        plan: JSON.stringify({ title: 'Plano original', price: 99, users: 10, connections: 1 }),
        price: 99,
        users: 10,
        connections: 1,
        invoiceId: due[0]!.id,
      },
    });
    expect((pix!.qrcode as { qrcode: string }).qrcode).toMatch(/^000201/);
    expect((pix!.valor as { original: string }).original).toBe('99.00');
    // --- queue integrations: the dialog as the original client fills it, read back, tried ----
    const integration = await replay('/queueIntegration', {
      method: 'POST',
      url: '/queueIntegration',
      token: admin,
      body: {
        type: 'typebot',
        name: 'Typebot original',
        projectName: 'Typebot original',
        jsonContent: '',
        language: '',
        urlN8N: 'https://typebot.example.com',
        typebotSlug: 'atendimento',
        typebotExpires: 1,
        typebotKeywordFinish: '',
        typebotKeywordRestart: '',
        typebotUnknownMessage: '',
        typebotDelayMessage: 1000,
        typebotRestartMessage: '',
      },
    });
    await replay('/queueIntegration', { method: 'GET', url: '/queueIntegration', token: admin });
    const integrationRead = await replay('/queueIntegration/:id', {
      method: 'GET',
      url: `/queueIntegration/${integration!.id}`,
      token: admin,
    });
    await replay('/queueIntegration/:id', {
      method: 'PUT',
      url: `/queueIntegration/${integration!.id}`,
      token: admin,
      body: { ...integrationRead, typebotExpires: '5' },
    });
    // The dialogflow test: its project, key and language; the key's token URL is refused here.
    await replay('/queueIntegration/testSession', {
      method: 'POST',
      url: '/queueIntegration/testSession',
      token: admin,
      body: {
        projectName: 'projeto-original',
        jsonContent: serviceAccountKey('http://127.0.0.1:9/token').json,
        language: 'pt-BR',
      },
    });
    await replay('/queueIntegration/:id', {
      method: 'DELETE',
      url: `/queueIntegration/${integration!.id}`,
      token: admin,
    });

    // --- the external messaging API, with the connection's token: JSON, then a form -------
    const apiToken = (await t.as(admin).get(`/whatsapp/${liveConnection}`)).json().token as string;
    await replay('/api/messages/send', {
      method: 'POST',
      url: '/api/messages/send',
      token: apiToken,
      body: { number: '5511988887777', body: 'Mensagem pela API' },
    });
    await replay('/api/messages/send', {
      method: 'POST',
      url: '/api/messages/send',
      token: apiToken,
      form: form({ number: '5511988887777', body: 'Arquivo pela API' }, [
        { field: 'medias', name: 'foto.png', type: 'image/png', content: PNG },
      ]),
    });
    await replay('/tickets/:id', { method: 'DELETE', url: `/tickets/${ticket!.id}`, token: admin });
    await replay('/contacts/:id', {
      method: 'DELETE',
      url: `/contacts/${contact!.id}`,
      token: admin,
    });
    await replay('/whatsapp/:id', {
      method: 'DELETE',
      url: `/whatsapp/${connection!.id}`,
      token: admin,
    });
    await replay('/users/:id', { method: 'DELETE', url: `/users/${user!.id}`, token: admin });
    await replay('/queue/:id', { method: 'DELETE', url: `/queue/${queue!.id}`, token: admin });
    await replay('/auth/logout', {
      method: 'DELETE',
      url: '/auth/logout',
      token: sessionToken,
    });

    // Every registered call of the tables was replayed above.
    const missing = SPEC_CALLS.filter(({ pending: reason }) => !reason)
      .map(({ call }) => call)
      .filter((call) => {
        const [method, path] = call.split(' ') as [string, string];
        return !replayed.has(shapeOf(method, path));
      });
    expect(missing, transcript.join('\n')).toEqual([]);
  }, 120_000);
});

describe('what the original client may send, and what is still refused', () => {
  it('refuses wrong types and bad values: 400 ERR_VALIDATION naming the field', async () => {
    const { a } = world;
    const admin = a.admin.token;
    const cases: [Method, string, Record<string, string>, unknown, string][] = [
      ['GET', '/tickets', { pageNumber: 'abc' }, undefined, 'querystring.pageNumber'],
      ['GET', '/tickets', { status: 'archived' }, undefined, 'querystring.status'],
      ['GET', '/tickets', { queueIds: '[1,"x"]' }, undefined, 'querystring.queueIds'],
      ['GET', '/tickets', { showAll: 'yes' }, undefined, 'querystring.showAll'],
      ['GET', '/tickets', { companyId: 'abc' }, undefined, 'querystring.companyId'],
      ['GET', '/contacts', { date: '2024-13-45' }, undefined, 'querystring.date'],
      ['GET', '/tags/list', { pageNumber: '0' }, undefined, 'querystring.pageNumber'],
      ['GET', '/tags/list', { searchParam: 'x'.repeat(201) }, undefined, 'querystring.searchParam'],
      ['GET', '/whatsapp', { session: 'abc' }, undefined, 'querystring.session'],
      ['GET', '/queue', { companyId: '1.5' }, undefined, 'querystring.companyId'],
      ['POST', '/queue', {}, { name: 'Q', color: '#010101' }, 'body.name'],
      [
        'POST',
        '/queue',
        {},
        { name: 'Fila ok', color: '#010102', complationMessage: 5 },
        'body.complationMessage',
      ],
      ['POST', '/queue', {}, { name: 'Fila ok', color: '#010103', token: {} }, 'body.token'],
      [
        'POST',
        '/queue',
        {},
        { name: 'Fila ok', color: '#010104', ratingMessage: 'x'.repeat(10_001) },
        'body.ratingMessage',
      ],
      [
        'PUT',
        `/companies/${a.companyId}/schedules`,
        {},
        { id: a.companyId, schedules: 'monday' },
        'body.schedules',
      ],
      [
        'PUT',
        `/companies/${a.companyId}/schedules`,
        {},
        {
          id: a.companyId,
          schedules: [{ weekday: 'x', weekdayEn: 'funday', startTime: '08:00', endTime: '18:00' }],
        },
        'body.schedules.0.weekdayEn',
      ],
      ['POST', '/contacts', {}, { name: 'Cliente', number: 'abc' }, 'body.number'],
      ['POST', '/users', {}, { name: 'Agente', email: 'no', password: 'secret' }, 'body.email'],
      [
        'POST',
        '/users',
        {},
        { name: 'Agente', email: 'a@example.com', password: 'secret', companyId: 'abc' },
        'body.companyId',
      ],
      ['POST', '/tags', {}, { name: 'ab' }, 'body.name'],
      ['POST', '/tags/sync', {}, { ticketId: 'x', tags: [] }, 'body.ticketId'],
      ['POST', `/messages/${a.ids.ticket}`, {}, { body: 5 }, 'body.body'],
      ['POST', `/messages/${a.ids.ticket}`, {}, { body: 'x', read: 2 }, 'body.read'],
      ['POST', '/tickets', {}, { contactId: a.ids.contact, status: 'closed' }, 'body.status'],
      [
        'PUT',
        `/contacts/${a.ids.contact}`,
        {},
        { extraInfo: [{ name: '', value: 'x' }] },
        'body.extraInfo.0.name',
      ],
    ];
    for (const [method, url, query, body, field] of cases) {
      const response = await send(url.replace(/\/\d+/g, '/:id'), {
        method,
        url,
        token: admin,
        query,
        body,
      });
      const label = `${method} ${url} ${JSON.stringify(query)} ${JSON.stringify(body ?? null)}`;
      expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
      const answer = response.json() as { error: string; fields?: { path: string }[] };
      expect(answer.error, label).toBe('ERR_VALIDATION');
      const paths = answer.fields?.map((f) => f.path) ?? [];
      expect(
        paths.some((path) => path === field || path.startsWith(`${field}.`)),
        `${label} names ${field}: ${paths.join(', ')}`,
      ).toBe(true);
    }
  });

  it("never lets a companyId reach another company: B's admin naming A gets B's rows only", async () => {
    const { a, b } = world;
    const asB = t.as(b.admin.token);
    const hint = `companyId=${a.companyId}`;
    const lists: [string, (answer: unknown) => { id: number }[]][] = [
      [`/queue?${hint}`, (answer) => answer as { id: number }[]],
      [`/users/list?${hint}`, (answer) => answer as { id: number }[]],
      [`/whatsapp?${hint}&session=0`, (answer) => answer as { id: number }[]],
      [`/contacts/list?${hint}`, (answer) => answer as { id: number }[]],
      [`/contacts?${hint}`, (answer) => (answer as { contacts: { id: number }[] }).contacts],
      [
        `/tickets?${hint}&showAll=true`,
        (answer) => (answer as { tickets: { id: number }[] }).tickets,
      ],
      [`/tags?${hint}`, (answer) => (answer as { tags: { id: number }[] }).tags],
      [`/tags/list?${hint}`, (answer) => answer as { id: number }[]],
      [`/quick-messages/list?${hint}`, (answer) => answer as { id: number }[]],
      [`/quick-messages?${hint}`, (answer) => (answer as { records: { id: number }[] }).records],
    ];
    for (const [url, rowsOf] of lists) {
      const response = await asB.get(url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      expect(response.body, url).not.toContain(a.marker);
      expect(rowsOf(response.json()).length, `${url} answers B's own rows`).toBeGreaterThan(0);
    }

    // Writes naming A are made in B, with the extra fields of the form ignored.
    const user = await asB.post('/users', {
      name: 'Agente B',
      email: 'agente.b.original@example.com',
      password: 'secret-pass',
      profile: 'user',
      companyId: a.companyId,
      super: true,
    });
    expect(user.statusCode, user.body).toBe(201);
    expect(user.json()).toMatchObject({ companyId: b.companyId, super: false, profile: 'user' });
    const queue = await asB.post('/queue', {
      name: 'Fila B',
      color: '#0b0b0b',
      companyId: a.companyId,
      id: a.ids.queue,
    });
    expect(queue.statusCode, queue.body).toBe(201);
    expect(queue.json().id).not.toBe(a.ids.queue);
    const quick = await asB.post('/quick-messages', {
      shortcode: 'b-only',
      message: 'B',
      companyId: a.companyId,
    });
    expect(quick.statusCode, quick.body).toBe(201);
    expect((await t.as(a.admin.token).get('/queue')).body).not.toContain('Fila B');
    expect((await t.as(a.admin.token).get('/quick-messages/list')).body).not.toContain('b-only');
    expect((await t.as(a.admin.token).get('/users/list')).body).not.toContain('Agente B');
    // Company hours: the path names the company; B naming A in path or body changes nothing of A.
    const hours = await asB.put(`/companies/${a.companyId}/schedules`, {
      id: a.companyId,
      schedules: DEFAULT_SCHEDULES,
    });
    expect(hours.statusCode, hours.body).toBeGreaterThanOrEqual(403);
    expect(hours.statusCode, hours.body).toBeLessThan(405);
  });
});

/**
 * The original client as its source really shapes each call (frontend/src of the original
 * product): the empty values its forms start with (`false`, `""`), numbers as typed text, its
 * two-period days of hours, its multipart schedule form, the calls of its login, sign-up and
 * dashboard screens. Each answer is checked for what that client reads from it.
 */
describe('the original client, screen by screen', () => {
  it('Usuários: the user modal saves with whatsappId false or "", super "" and SuperIs "1"', async () => {
    const { a } = world;
    const admin = t.as(a.admin.token);
    // UserModal's initial state, spread into the body with the select's `false`.
    const created = await admin.post('/users', {
      name: 'Agente do Modal',
      email: 'agente.modal@example.com',
      password: 'secret-pass',
      profile: 'user',
      super: '',
      allTicket: 'desabled',
      whatsappId: false,
      queueIds: [],
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ whatsappId: null, super: false, queues: [] });
    const read = (await admin.get(`/users/${created.json().id}`)).json();
    // On edit it holds the record read, its select at '' when none, and the SuperIs select.
    const edited = await admin.put(`/users/${read.id}`, {
      ...read,
      password: '',
      whatsappId: '',
      SuperIs: '1',
      queueIds: [a.ids.queue],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ whatsappId: null, super: false });
    const withConnection = await admin.put(`/users/${read.id}`, {
      ...read,
      whatsappId: String(a.ids.connection),
    });
    expect(withConnection.json().whatsappId).toBe(a.ids.connection);
    // A value that means nothing is still refused.
    for (const whatsappId of ['abc', true, [1]]) {
      const refused = await admin.put(`/users/${read.id}`, { ...read, whatsappId });
      expect(refused.statusCode, `${JSON.stringify(whatsappId)}: ${refused.body}`).toBe(400);
    }
  });

  it('Atendimentos: resolving sends useIntegration, promptId and integrationId as false', async () => {
    const { a } = world;
    const make = inboxFactories(t);
    const ticket = await make.ticket(a.companyId, {
      status: 'open',
      userId: a.admin.id,
      whatsappId: a.ids.connection,
    });
    const resolved = await t.as(a.admin.token).put(`/tickets/${ticket.id}`, {
      status: 'closed',
      userId: a.admin.id,
      useIntegration: false,
      promptId: false,
      integrationId: false,
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toMatchObject({
      status: 'closed',
      promptId: null,
      integrationId: null,
    });
    const nonsense = await t.as(a.admin.token).put(`/tickets/${ticket.id}`, { promptId: 'x' });
    expect(nonsense.statusCode, nonsense.body).toBe(400);
  });

  it('Filas: the queue modal sends the order as text, "" for no integration and two periods a day', async () => {
    const admin = t.as(world.a.admin.token);
    const periods = (A: [string, string], B: [string, string]) => ({
      startTimeA: A[0],
      endTimeA: A[1],
      startTimeB: B[0],
      endTimeB: B[1],
    });
    const day = (weekdayEn: string, times: ReturnType<typeof periods>) => ({
      weekday: `queueModal.serviceHours.${weekdayEn}`,
      weekdayEn,
      ...times,
    });
    const workday = periods(['08:00', '12:00'], ['13:30', '18:00']);
    const schedules = [
      day('monday', workday),
      day('tuesday', workday),
      day('wednesday', workday),
      day('thursday', workday),
      day('friday', periods(['', ''], ['14:00', '20:00'])),
      day('saturday', periods(['08:00', '12:00'], ['00:00', '00:00'])),
      day('sunday', periods(['00:00', '00:00'], ['00:00', '00:00'])),
    ];
    const created = await admin.post('/queue', {
      name: 'Fila do modal',
      color: '#5c6bc0',
      greetingMessage: 'Olá',
      outOfHoursMessage: 'Fechado',
      orderQueue: '3',
      integrationId: '',
      promptId: null,
      schedules,
    });
    expect(created.statusCode, created.body).toBe(201);
    const queue = created.json();
    expect(queue).toMatchObject({ orderQueue: 3, integrationId: null, promptId: null });
    const hours = Object.fromEntries(
      (queue.schedules as { weekdayEn: string; startTime: string; endTime: string }[]).map(
        (entry) => [entry.weekdayEn, `${entry.startTime}-${entry.endTime}`],
      ),
    );
    // The form reads back each day's two periods as it sent them (SchedulesForm's fields).
    const periodFields = ({
      weekdayEn,
      startTimeA,
      endTimeA,
      startTimeB,
      endTimeB,
    }: Record<string, string>) => ({
      weekdayEn,
      startTimeA,
      endTimeA,
      startTimeB,
      endTimeB,
    });
    const periodsOf = (answer: { schedules: Record<string, string>[] }) =>
      answer.schedules.map(periodFields);
    expect(periodsOf(queue)).toEqual(schedules.map(periodFields));
    expect(periodsOf((await admin.get(`/queue/${queue.id}`)).json())).toEqual(periodsOf(queue));
    // A day sent as our one span reads as its first period, the second unused.
    const ours = await admin.post('/queue', {
      name: 'Fila de um período',
      color: '#26a69a',
      schedules: DEFAULT_SCHEDULES,
    });
    expect(ours.statusCode, ours.body).toBe(201);
    expect(periodsOf(ours.json())[0]).toEqual({
      weekdayEn: 'monday',
      startTimeA: '08:00',
      endTimeA: '18:00',
      startTimeB: '00:00',
      endTimeB: '00:00',
    });
    expect(hours).toEqual({
      monday: '08:00-18:00',
      tuesday: '08:00-18:00',
      wednesday: '08:00-18:00',
      thursday: '08:00-18:00',
      friday: '14:00-20:00',
      saturday: '08:00-12:00',
      sunday: '00:00-00:00',
    });
    // Editing: the record read with the form over it (order blank is none).
    const edited = await admin.put(`/queue/${queue.id}`, {
      ...queue,
      orderQueue: '',
      integrationId: '',
      schedules,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().orderQueue).toBeNull();
    for (const [field, value] of [
      ['orderQueue', 'x'],
      ['orderQueue', true],
      ['integrationId', 'abc'],
    ] as const) {
      const refused = await admin.post('/queue', {
        name: 'Fila ruim',
        color: '#000',
        [field]: value,
      });
      expect(refused.statusCode, `${field} ${String(value)}: ${refused.body}`).toBe(400);
    }
    const badDay = await admin.post('/queue', {
      name: 'Fila ruim',
      color: '#000',
      schedules: schedules.map((entry) =>
        entry.weekdayEn === 'monday' ? { ...entry, endTimeB: '07:00' } : entry,
      ),
    });
    expect(badDay.statusCode, badDay.body).toBe(400);
  });

  it('Respostas rápidas: the dialog saves with status true and isMedia true', async () => {
    const created = await t.as(world.a.admin.token).post('/quick-messages', {
      shortcode: 'modal-original',
      message: 'Olá do modal',
      geral: false,
      status: true,
      isMedia: true,
      mediaPath: null,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ shortcode: 'modal-original', mediaPath: null });
  });

  it('Tags: the tag dialog saves with color "" when no colour was picked', async () => {
    const admin = t.as(world.a.admin.token);
    // TagModal's initial state { name, color: "", kanban: 0 }, with the caller's userId.
    const created = await admin.post('/tags', {
      name: 'Sem cor',
      color: '',
      kanban: 0,
      userId: world.a.admin.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().color).toMatch(/^#[0-9a-fA-F]{6}$/);
    // On edit it sends the tag read, and "" again leaves its colour as it was.
    const read = (await admin.get(`/tags/${created.json().id}`)).json();
    const edited = await admin.put(`/tags/${read.id}`, { ...read, color: '', kanban: 1 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ color: read.color, kanban: 1 });
    const refused = await admin.post('/tags', { name: 'Cor errada', color: 'azul', kanban: 0 });
    expect(refused.statusCode, refused.body).toBe(400);
  });

  it('Lista de arquivos: the dialog saves with its untouched option row', async () => {
    const admin = t.as(world.a.admin.token);
    // FilesModal's initial state: one option row { name: "", path: "", mediaType: "" }.
    const created = await admin.post('/files', {
      name: 'Catálogo do modal',
      message: 'Segue o catálogo',
      options: [{ name: '', path: '', mediaType: '' }],
      userId: world.a.admin.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().options).toEqual([]);
    // A named row is an option; a row with only a path still needs its name.
    const edited = await admin.put(`/files/${created.json().id}`, {
      ...(created.json() as Record<string, unknown>),
      options: [
        { name: 'Tabela', path: '', mediaType: '' },
        { name: '', path: '', mediaType: '' },
      ],
      userId: world.a.admin.id,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().options.map((o: { name: string }) => o.name)).toEqual(['Tabela']);
    const refused = await admin.put(`/files/${created.json().id}`, {
      options: [{ name: '', path: 'x.pdf', mediaType: 'application/pdf' }],
    });
    expect(refused.statusCode, refused.body).toBe(400);
  });

  it('Agendamentos: the schedule modal sends a form, the schedule as JSON and its image', async () => {
    const { a } = world;
    const scheduleData = {
      body: 'Lembrete do modal original',
      contactId: a.ids.contact,
      sendAt: '2099-05-01T10:30',
      sentAt: '',
      geral: '',
      queueId: null,
      whatsappId: a.ids.connection,
      repeatEvery: '',
      selectDaysRecorrenci: '',
      userId: null,
    };
    const created = await send('/schedules', {
      method: 'POST',
      url: '/schedules',
      token: a.admin.token,
      form: formParts([
        { field: 'file', name: 'lembrete.png', type: 'image/png', content: PNG },
        { field: 'scheduleData', value: JSON.stringify(scheduleData) },
      ]),
    });
    expect(created.statusCode, created.body).toBe(201);
    const schedule = created.json();
    expect(schedule).toMatchObject({
      body: scheduleData.body,
      contactId: a.ids.contact,
      whatsappId: a.ids.connection,
      mediaName: 'lembrete.png',
    });
    expect(schedule.mediaPath).toEqual(expect.any(String));
    // Editing without a new image: that client appends the empty attachment, the text 'null'.
    const edited = await send('/schedules/:id', {
      method: 'PUT',
      url: `/schedules/${schedule.id}`,
      token: a.admin.token,
      form: formParts([
        { field: 'file', value: 'null' },
        {
          field: 'scheduleData',
          value: JSON.stringify({ ...schedule, body: 'Lembrete alterado', whatsappId: '' }),
        },
      ]),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      body: 'Lembrete alterado',
      mediaName: 'lembrete.png',
      whatsappId: null,
    });
    const broken = await send('/schedules', {
      method: 'POST',
      url: '/schedules',
      token: a.admin.token,
      form: formParts([{ field: 'scheduleData', value: '{"body": ' }]),
    });
    expect(broken.statusCode, broken.body).toBe(400);
  });

  it("Configurações: the Opções tab's IXC and MK-AUTH fields save as typed; the secrets come back masked", async () => {
    const admin = world.a.admin.token;
    // The page saves each field on change with PUT /settings/{key} { key, value }.
    const typed = {
      ipixc: 'https://ixc.provedor.example',
      tokenixc: '12:tokenixcsecreto0123456789',
      ipmkauth: 'https://mkauth.provedor.example',
      clientidmkauth: 'cliente-mk',
      clientsecretmkauth: 'segredo-mkauth-0123456789',
    };
    for (const [key, value] of Object.entries(typed)) {
      await replay('/settings/:key', {
        method: 'PUT',
        url: `/settings/${key}`,
        token: admin,
        body: { key, value },
      });
    }
    const listed = (await t.as(admin).get('/settings/')).json() as { key: string; value: string }[];
    const stored = (key: string) => listed.find((setting) => setting.key === key)?.value;
    expect(stored('ipixc')).toBe(typed.ipixc);
    expect(stored('ipmkauth')).toBe(typed.ipmkauth);
    expect(stored('clientidmkauth')).toBe(typed.clientidmkauth);
    // the token and the client secret are sealed at rest and never read back whole
    expect(stored('tokenixc')).toBe(`********${typed.tokenixc.slice(-4)}`);
    expect(stored('clientsecretmkauth')).toBe(`********${typed.clientsecretmkauth.slice(-4)}`);
    const { rows } = await t.database.pool.query(
      `select value from settings where company_id = $1 and key in ('tokenixc', 'clientsecretmkauth')`,
      [world.a.companyId],
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.value).not.toContain('tokenixcsecreto');
      expect(row.value).not.toContain('segredo-mkauth');
    }
    // another company's list holds none of it
    const other = (await t.as(world.b.admin.token).get('/settings/')).json();
    expect(JSON.stringify(other)).not.toContain('provedor.example');
  });

  it('Login and sign-up: the switches are read without a session, set by the super user', async () => {
    const anyone = (url: string) => t.app.inject({ method: 'GET', url });
    expect((await anyone('/settings/viewregister')).json()).toEqual({
      key: 'viewregister',
      value: 'enabled',
    });
    expect((await anyone('/settings/trial')).json()).toEqual({ key: 'trial', value: '3' });
    for (const key of ['asaas', 'userRating', 'timezone', 'userCreation']) {
      const refused = await anyone(`/settings/${key}`);
      expect(refused.statusCode, `${key}: ${refused.body}`).toBeGreaterThanOrEqual(400);
      expect(refused.body).not.toContain('value');
    }
    // The original's Opções tab (super user): PUT /settings/{key} with { key, value }.
    for (const [key, value] of [
      ['viewregister', 'disabled'],
      ['trial', '7'],
      ['allowregister', 'enabled'],
    ]) {
      const saved = await t.as(world.superToken).put(`/settings/${key}`, { key, value });
      expect(saved.statusCode, `${key}: ${saved.body}`).toBe(200);
      const byAdmin = await t.as(world.a.admin.token).put(`/settings/${key}`, { key, value });
      expect(byAdmin.statusCode, `${key} by a company admin`).toBe(403);
    }
    expect((await anyone('/settings/viewregister')).json().value).toBe('disabled');
    expect((await anyone('/settings/trial')).json().value).toBe('7');
    const nonsense = await t.as(world.superToken).put('/settings/trial', { value: 'muitos' });
    expect(nonsense.statusCode).toBe(400);

    // Sign-up reads its plans without a session, and the trial lasts the days set.
    const plans = await anyone('/plans/register');
    expect(plans.statusCode, plans.body).toBe(200);
    const offered = plans.json() as { id: number }[];
    expect(offered.length).toBeGreaterThan(0);
    const signup = await t.app.inject({
      method: 'POST',
      url: '/companies/cadastro',
      payload: {
        name: 'Empresa do Cadastro',
        email: 'cadastro.tela@example.com',
        phone: '(11) 98765-4321',
        password: 'secret-pass',
        planId: offered[0]!.id,
        recurrence: 'MENSAL',
        dueDate: '2099-01-01',
        status: 't',
        campaignsEnabled: true,
      },
    });
    expect(signup.statusCode, signup.body).toBe(201);
    const dueDate = new Date(`${signup.json().dueDate.slice(0, 10)}T12:00:00Z`);
    const days = Math.round((dueDate.getTime() - Date.now()) / 86_400_000);
    expect(days).toBeGreaterThanOrEqual(6);
    expect(days).toBeLessThanOrEqual(7);
    await t.as(world.superToken).put('/settings/trial', { value: '3' });
    await t.as(world.superToken).put('/settings/viewregister', { value: 'enabled' });
  });

  it("Atendimentos, as an agent: GET /settings answers what an agent may read, none of the super's", async () => {
    const response = await send('/settings', {
      method: 'GET',
      url: '/settings/',
      token: world.a.agent.token,
    });
    expect(response.statusCode, response.body).toBe(200);
    const keys = (response.json() as { key: string }[]).map((setting) => setting.key);
    expect(keys).toEqual(expect.arrayContaining(['userRating', 'scheduleType', 'CheckMsgIsGroup']));
    for (const key of ['asaas', 'userCreation', 'viewregister', 'allowregister', 'trial']) {
      expect(keys).not.toContain(key);
    }
    // Reading is all: the agent still changes nothing.
    const write = await t.as(world.a.agent.token).put('/settings/userRating', { value: 'enabled' });
    expect(write.statusCode).toBe(403);
  });

  it("Configurações > Opções: the agents' closed and groups tabs are kept, and its agents read them", async () => {
    const { a, b } = world;
    // Options.js sends the select's value with its key; TicketsManagerTabs reads them back as
    // an agent (enabled: the agent's tickets screen shows the closed tab, the groups tab).
    for (const key of ['viewclosed', 'viewgroups']) {
      const saved = await send('/settings/:key', {
        method: 'PUT',
        url: `/settings/${key}`,
        token: a.admin.token,
        body: { key, value: 'enabled' },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toMatchObject({ key, value: 'enabled' });
    }
    const read = async (token: string) =>
      Object.fromEntries(
        ((await t.as(token).get('/settings/')).json() as { key: string; value: string }[]).map(
          (setting) => [setting.key, setting.value],
        ),
      );
    expect(await read(a.agent.token)).toMatchObject({
      viewclosed: 'enabled',
      viewgroups: 'enabled',
    });
    // Another company keeps its own: off until its admin turns them on.
    expect(await read(b.admin.token)).toMatchObject({
      viewclosed: 'disabled',
      viewgroups: 'disabled',
    });
    // A value that means nothing is still refused, and the agent changes nothing.
    const nonsense = await t.as(a.admin.token).put('/settings/viewclosed', { value: 'sim' });
    expect(nonsense.statusCode, nonsense.body).toBe(400);
    const byAgent = await t.as(a.agent.token).put('/settings/viewclosed', { value: 'disabled' });
    expect(byAgent.statusCode).toBe(403);
    for (const key of ['viewclosed', 'viewgroups']) {
      await t.as(a.admin.token).put(`/settings/${key}`, { value: 'disabled' });
    }
  });

  it('Empresas: each row of GET /companies/list carries its plan (the tab shows row.plan.name)', async () => {
    const response = await send('/companies/list', {
      method: 'GET',
      url: '/companies/list',
      token: world.superToken,
    });
    expect(response.statusCode, response.body).toBe(200);
    const rows = response.json() as { id: number; planId: number; plan: { name: string } }[];
    const a = rows.find((row) => row.id === world.a.companyId);
    expect(a?.plan).toMatchObject({ id: world.a.planId, name: `${world.a.marker} plan` });
    expect(rows.every((row) => row.plan && typeof row.plan.name === 'string')).toBe(true);
  });

  it("Kanban: a user's queues carry UserQueue { queueId, userId }, in the session and the user", async () => {
    const { a } = world;
    const me = await send('/auth/me', { method: 'GET', url: '/auth/me', token: a.agent.token });
    const queues = me.json().queues as { id: number; UserQueue: { queueId: number } }[];
    expect(queues.length).toBeGreaterThan(0);
    // The board's own use: user.queues.map(queue => queue.UserQueue.queueId)
    expect(queues.map((queue) => queue.UserQueue.queueId)).toEqual(queues.map((q) => q.id));
    expect(queues[0]).toMatchObject({ UserQueue: { queueId: a.ids.queue, userId: a.agent.id } });
    const user = await send('/users/:id', {
      method: 'GET',
      url: `/users/${a.agent.id}`,
      token: a.admin.token,
    });
    expect(user.json().queues[0]).toMatchObject({
      id: a.ids.queue,
      UserQueue: { queueId: a.ids.queue, userId: a.agent.id },
    });
  });

  it('Financeiro: GET /invoices/all answers the array the screen walks (invoices.forEach)', async () => {
    const response = await send('/invoices/all', {
      method: 'GET',
      url: '/invoices/all',
      token: world.a.admin.token,
      query: { searchParam: '', pageNumber: 1 },
    });
    expect(response.statusCode, response.body).toBe(200);
    const invoices = response.json() as { id: number; companyId: number }[];
    expect(Array.isArray(invoices)).toBe(true);
    expect(invoices.map((invoice) => invoice.id)).toContain(world.a.ids.invoice);
    expect(invoices.every((invoice) => invoice.companyId === world.a.companyId)).toBe(true);
  });

  it('Relatório da campanha: GET /campaigns/:id carries shipping and contactList.contacts', async () => {
    const { a } = world;
    const db = new TenantDb(t.database.db, a.companyId);
    await db.update(contactListItems, { isWhatsappValid: true }, sql`true`);
    const now = new Date();
    await db.insert(campaignShipping, [
      { campaignId: a.ids.campaign, number: '5511900000001', deliveredAt: now },
      {
        campaignId: a.ids.campaign,
        number: '5511900000002',
        deliveredAt: now,
        confirmationRequestedAt: now,
      },
      { campaignId: a.ids.campaign, number: '5511900000003' },
    ]);
    const response = await send('/campaigns/:id', {
      method: 'GET',
      url: `/campaigns/${a.ids.campaign}`,
      token: a.admin.token,
    });
    expect(response.statusCode, response.body).toBe(200);
    const campaign = response.json() as {
      shipping: { deliveredAt: string | null; confirmationRequestedAt: string | null }[];
      contactList: { contacts: { isWhatsappValid: boolean | null }[] };
      report: { delivered: number };
    };
    // What the report screen counts: valid contacts, delivered, confirmation requested.
    expect(campaign.contactList.contacts.filter((c) => c.isWhatsappValid)).toHaveLength(1);
    expect(campaign.shipping).toHaveLength(3);
    expect(campaign.shipping.filter((c) => c.deliveredAt !== null)).toHaveLength(2);
    expect(campaign.shipping.filter((c) => c.confirmationRequestedAt !== null)).toHaveLength(1);
    expect(new Date(campaign.shipping[0]!.deliveredAt!).getTime()).toBe(now.getTime());
    expect(campaign.report.delivered).toBe(2);
    // Our own web asks for the counts only.
    const counts = await t.as(a.admin.token).get(`/campaigns/${a.ids.campaign}?withRows=false`);
    expect(counts.json().shipping).toBeUndefined();
    expect(counts.json().contactList.contacts).toBeUndefined();
  });
});

/** A day as the original's date pickers format it (yyyy-MM-dd, the browser's own day). */
const pickerDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(
    date.getDate(),
  ).padStart(2, '0')}`;

describe('the original client, its reports', () => {
  /** What the charts and the reports screen start on: this month, its first and last day. */
  const today = new Date();
  const firstDay = pickerDay(new Date(today.getFullYear(), today.getMonth(), 1));
  const lastDay = pickerDay(new Date(today.getFullYear(), today.getMonth() + 1, 0));

  it('Dashboard: each report chart sends the month and its company id, and reads its fields', async () => {
    const { a } = world;
    const chart = (path: string) =>
      replay(path, {
        method: 'GET',
        url: path,
        token: a.admin.token,
        query: { initialDate: firstDay, finalDate: lastDay, companyId: a.companyId },
      });
    // ChartsAppointmentsAtendent: two doughnuts, by user_name and by queue name.
    const appointments = (await chart('/reports/appointmentsAtendent')) as unknown as {
      appointmentsByAttendents: { user_name: string; total_tickets: number }[];
      ticketsByQueues: { name: string; total_tickets: number }[];
    };
    expect(appointments.appointmentsByAttendents.length).toBeGreaterThan(0);
    for (const row of appointments.appointmentsByAttendents) {
      expect(row).toEqual({ user_name: expect.any(String), total_tickets: expect.any(Number) });
    }
    expect(appointments.ticketsByQueues.map((row) => row.name)).toContain(
      (await t.as(a.admin.token).get(`/queue/${a.ids.queue}`)).json().name,
    );
    // ChartsRushHour: `${message_hour}:00` against message_count, the seed's ticket among them.
    const hours = (await chart('/reports/rushHour')) as unknown as {
      message_hour: number;
      message_count: number;
    }[];
    expect(hours.map((hour) => hour.message_hour)).toEqual([...Array(24).keys()]);
    expect(hours.reduce((sum, hour) => sum + hour.message_count, 0)).toBeGreaterThan(0);
    // ChartsDepartamentRatings: parseFloat(total_rate).toFixed(2) per queue name.
    const ratings = (await chart('/reports/departamentRatings')) as unknown as {
      name: string;
      total_rate: number;
    }[];
    for (const row of ratings) {
      expect(Number.isNaN(Number.parseFloat(String(row.total_rate)))).toBe(false);
      expect(typeof row.name).toBe('string');
    }
  });

  it('Relatórios: the pickers, the filters as JSON text, the pages and the export', async () => {
    const { a, b } = world;
    const admin = a.admin.token;
    // The screen's pickers: contacts (with its company hint), users, connections and queues.
    await replay('/contacts/list', {
      method: 'GET',
      url: '/contacts/list',
      token: admin,
      query: { companyId: a.companyId },
    });
    await replay('/users/list', { method: 'GET', url: '/users/list', token: admin });
    await replay('/whatsapp', { method: 'GET', url: '/whatsapp', token: admin });
    await replay('/queue', { method: 'GET', url: '/queue', token: admin });
    type Report = {
      tickets: Record<string, unknown>[];
      totalTickets: { total: number };
    };
    const report = async (filters: Record<string, string> = {}) =>
      (await replay('/ticket/reports', {
        method: 'GET',
        url: '/ticket/reports',
        token: admin,
        query: reportsScreenQuery(firstDay, pickerDay(today), filters),
      })) as unknown as Report;
    // "Filtrar" with nothing picked: the month's tickets, A's only.
    const all = await report();
    const ids = all.tickets.map((row) => row.id);
    expect(ids).toContain(a.ids.ticket);
    expect(ids).not.toContain(b.ids.ticket);
    expect(Math.ceil(all.totalTickets.total / 10)).toBeGreaterThanOrEqual(1);
    const seeded = all.tickets.find((row) => row.id === a.ids.ticket)!;
    expect(seeded).toEqual({
      id: a.ids.ticket,
      uuid: a.ids.ticketUuid,
      whatsappName: expect.any(String),
      contactName: expect.any(String),
      userName: expect.toBeOneOf([expect.any(String), null]),
      queueName: expect.toBeOneOf([expect.any(String), null]),
      queueColor: expect.toBeOneOf([expect.any(String), null]),
      lastMessage: expect.any(String),
      status: expect.stringMatching(/^(ABERTO|PENDENTE|FECHADO)$/),
      createdAt: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/),
      closedAt: null,
    });
    // Each filter the screen has: the contact picked, a connection, the agents, a queue, the
    // statuses, the ticket's id typed; and a company's other ids find nothing.
    const picked = await report({
      contactId: String(a.ids.contact),
      whatsappId: JSON.stringify([a.ids.connection]),
      status: JSON.stringify(['open', 'pending', 'closed', 'group']),
      ticketId: String(a.ids.ticket),
    });
    expect(picked.tickets.map((row) => row.id)).toEqual([a.ids.ticket]);
    const theirs = await report({
      whatsappId: JSON.stringify([b.ids.connection]),
      queueIds: JSON.stringify([b.ids.queue]),
    });
    expect(theirs).toEqual({ tickets: [], totalTickets: { total: 0 } });
    // A page past the end, and the export: the picked contact as axios writes an object, every
    // row in one page.
    expect((await report({ page: '999', pageSize: '50' })).tickets).toEqual([]);
    const exported = await report({
      'currentContact[id]': '',
      'currentContact[name]': '',
      page: '1',
      pageSize: '9999999',
    });
    expect(exported.totalTickets.total).toBe(all.totalTickets.total);
  });
});

describe('the realtime events its screens listen to', () => {
  /** Every event of A's company one socket of `token` hears, in order. */
  async function listener(token: string) {
    const heard: { event: string; payload: Record<string, unknown> }[] = [];
    const socket = await socketFor(t, token);
    socket.onAny((event: string, payload: Record<string, unknown>) =>
      heard.push({ event, payload }),
    );
    return heard;
  }
  const A = () => `company-${world.a.companyId}`;

  it('tickets screen: an accepted ticket leaves the Aguardando tab (delete, then update)', async () => {
    const admin = world.a.admin.token;
    const heard = await listener(admin);
    const contact = await replay('/contacts', {
      method: 'POST',
      url: '/contacts',
      token: admin,
      body: { name: 'Realtime Original', number: '5511955551234', email: '' },
    });
    const ticket = await replay('/tickets', {
      method: 'POST',
      url: '/tickets',
      token: admin,
      body: { contactId: contact!.id, status: 'pending', userId: null, queueId: null },
    });
    // TicketListItem's "Aceitar"
    await replay('/tickets/:ticketId', {
      method: 'PUT',
      url: `/tickets/${ticket!.id}`,
      token: admin,
      body: { status: 'open', userId: world.a.admin.id, queueId: null },
    });
    // The pending list drops a ticket only on delete; the open list takes it on update.
    await expect
      .poll(() =>
        heard
          .filter((h) => h.event === `${A()}-ticket`)
          .filter(
            (h) =>
              h.payload.ticketId === ticket!.id ||
              (h.payload.ticket as { id?: number })?.id === ticket!.id,
          )
          .map((h) =>
            `${h.payload.action} ${(h.payload.ticket as { status?: string })?.status ?? ''}`.trim(),
          ),
      )
      .toEqual(['update pending', 'delete', 'update open']);
  });

  it('connections screen: an added connection comes as update, the only action its list adds from', async () => {
    const admin = world.a.admin.token;
    const heard = await listener(admin);
    // WhatsAppModal's form as it posts it (useWhatsApps reads only update and delete)
    const created = await replay('/whatsapp', {
      method: 'POST',
      url: '/whatsapp',
      token: admin,
      body: {
        name: 'Conexão do Modal',
        greetingMessage: 'Olá!',
        complationMessage: '',
        outOfHoursMessage: '',
        ratingMessage: '',
        isDefault: false,
        token: '',
        provider: 'beta',
        expiresInactiveMessage: '',
        expiresTicket: 0,
        timeUseBotQueues: 0,
        maxUseBotQueues: 3,
        queueIds: [],
        transferQueueId: null,
        promptId: null,
      },
    });
    await expect
      .poll(() => heard.filter((h) => h.event === `${A()}-whatsapp`).length)
      .toBeGreaterThanOrEqual(1);
    const added = heard.filter((h) => h.event === `${A()}-whatsapp`).map((h) => h.payload);
    expect(added[0]).toMatchObject({
      action: 'update',
      whatsapp: { id: created!.id, name: 'Conexão do Modal' },
    });
    expect(added[0]!.whatsapp).not.toHaveProperty('token');
  });

  it('queues screen: an edited queue, or its options, comes whole (the row is replaced with it)', async () => {
    const admin = world.a.admin.token;
    const heard = await listener(admin);
    const queueId = world.a.ids.queue;
    await replay('/queue/:queueId', {
      method: 'PUT',
      url: `/queue/${queueId}`,
      token: admin,
      body: { name: 'Fila Original Editada', color: '#5C59A0', greetingMessage: 'Olá!' },
    });
    await replay('/queue-options', {
      method: 'POST',
      url: '/queue-options',
      token: admin,
      body: { queueId, title: 'Opção Original', option: '2', message: 'Você escolheu 2' },
    });
    await expect
      .poll(() => heard.filter((h) => h.event === `${A()}-queue`).length)
      .toBeGreaterThanOrEqual(2);
    const updates = heard.filter((h) => h.event === `${A()}-queue`).map((h) => h.payload);
    for (const update of updates) {
      expect(update).toMatchObject({
        action: 'update',
        queue: {
          id: queueId,
          name: 'Fila Original Editada',
          color: '#5C59A0',
          greetingMessage: 'Olá!',
        },
      });
      expect(update.queue).not.toHaveProperty('token');
    }
  });
  it("internal chat: the list on its own topic, the open chat on the chat's, the popover on chat", async () => {
    const { a } = world;
    const adminHeard = await listener(a.admin.token);
    const agentHeard = await listener(a.agent.token);
    const outsider = await t.make.user(a.companyId, { name: 'Fora da conversa' });
    const outsiderToken = (await t.login(outsider.email)).token;
    const outsiderHeard = await listener(outsiderToken);
    // The chat modal saves the users it picked, as /users/list answered them.
    const chat = await replay('/chats', {
      method: 'POST',
      url: '/chats',
      token: a.admin.token,
      body: { users: [{ id: a.agent.id, name: 'Agente' }], title: 'Conversa do original' },
    });
    // ChatMessages' send, then the other member opening it (marked read with its userId).
    const sent = await replay('/chats/:id/messages', {
      method: 'POST',
      url: `/chats/${chat!.id}/messages`,
      token: a.agent.token,
      body: { message: 'Olá pelo original' },
    });
    await replay('/chats/:id/read', {
      method: 'POST',
      url: `/chats/${chat!.id}/read`,
      token: a.admin.token,
      body: { userId: a.admin.id },
    });
    const own = (heard: typeof adminHeard, userId: number) =>
      heard.filter((h) => h.event === `${A()}-chat-user-${userId}`).map((h) => h.payload);
    const channel = (heard: typeof adminHeard) =>
      heard.filter((h) => h.event === `${A()}-chat-${chat!.id}`).map((h) => h.payload);
    for (const [heard, userId] of [
      [adminHeard, a.admin.id],
      [agentHeard, a.agent.id],
    ] as const) {
      // The chat list adds data.record on create.
      await expect
        .poll(() => own(heard, userId))
        .toEqual([{ action: 'create', record: expect.objectContaining({ id: chat!.id }) }]);
      // The open chat appends data.newMessage and merges data.chat; the read comes as update.
      await expect
        .poll(() => channel(heard).map((p) => p.action))
        .toEqual(['new-message', 'update']);
      const [message, read] = channel(heard) as {
        newMessage?: { id: number; chatId: number; senderId: number };
        chat: { id: number };
      }[];
      expect(message!.newMessage).toMatchObject({ id: sent!.id, chatId: chat!.id });
      expect(read!.chat.id).toBe(chat!.id);
      // The popover, on company-{id}-chat: data.newMessage.chat.users.map(u => u.userId).
      const popover = heard.find(
        (h) => h.event === `${A()}-chat` && h.payload.action === 'new-message',
      )!.payload as { newMessage: { senderId: number; chat: { users: { userId: number }[] } } };
      expect(popover.newMessage.chat.users.map((u) => u.userId).sort()).toEqual(
        [a.admin.id, a.agent.id].sort(),
      );
      expect(popover.newMessage.senderId).toBe(a.agent.id);
    }
    // A chat of the outsider's as a marker: once it is heard, the first chat's would have been.
    await replay('/chats', {
      method: 'POST',
      url: '/chats',
      token: a.admin.token,
      body: { users: [{ id: outsider.id, name: 'Fora da conversa' }], title: 'Marcador' },
    });
    await expect.poll(() => own(outsiderHeard, outsider.id).length).toBe(1);
    expect(outsiderHeard.filter((h) => h.event.includes(`-chat-${chat!.id}`))).toEqual([]);
    expect(
      outsiderHeard.filter(
        (h) => h.event === `${A()}-chat` && (h.payload.newMessage || h.payload.id === chat!.id),
      ),
    ).toEqual([]);
  });
});
