import { ANNOUNCEMENT_EVENT, DEFAULT_SCHEDULES } from '@atendi/shared';
import type { LightMyRequestResponse } from 'fastify';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness';
import { closeSockets, inboxFactories, socketFor } from '../inbox';

/**
 * Who hears what, against what each may read. Six profiles listen with real socket.io clients
 * (the super user, an admin, a user with allTicket, a user of a queue, a user of no queue, and
 * another company's admin) while company A works through its HTTP routes. After each step every
 * record an event carried is read back through the GET routes as each profile that heard it:
 * a profile hears a record only if it may read it, never a field its GET does not answer, and a
 * drop only for what it can no longer read; and whoever may read a record a step changed heard
 * of it (`company` excepted: its users may read it, but no screen of theirs follows it; and
 * draft announcements, announced to nobody: the super user's screen reads them over HTTP).
 */

const PROFILES = ['super', 'admin', 'allTicket', 'queueUser', 'noQueue', 'outsider'] as const;
type Profile = (typeof PROFILES)[number];

interface Heard {
  event: string;
  payload: Record<string, unknown>;
}

/** What an event is about: its topic, the record's key and, unless a drop, the record. */
interface About {
  topic: string;
  key: string | number;
  record?: Record<string, unknown>;
  drop: boolean;
}

let t: TestServer;
let A: number;
const tokens = {} as Record<Profile, string>;
const ids = {} as Record<Profile, number>;
const companyOf = {} as Record<Profile, number>;
const heard = {} as Record<Profile, Heard[]>;
let queue1: number;
let queue2: number;
let connectionId: number;
let contactId: number;
const findings: string[] = [];

const ok = (response: LightMyRequestResponse, what: string) => {
  expect(response.statusCode, `${what}: ${response.body.slice(0, 300)}`).toBeLessThan(300);
  return response.statusCode === 204 ? undefined : (response.json() as Record<string, unknown>);
};

/** The id of the record a POST created. */
const created = (response: LightMyRequestResponse, what: string) =>
  Number((ok(response, what) as { id: number }).id);

const as = (profile: Profile) => t.as(tokens[profile]);

/** Reads `path` as the profile: the answer's JSON, or undefined when it may not read it. */
async function read(profile: Profile, path: string): Promise<unknown> {
  const response = await as(profile).get(path);
  if (response.statusCode === 200) return response.json();
  expect([403, 404], `${profile} GET ${path}: ${response.body}`).toContain(response.statusCode);
  return undefined;
}

type Row = Record<string, unknown>;
const byId = (rows: unknown, id: string | number) =>
  (rows as Row[] | undefined)?.find((row) => row.id === id || row.key === id);

/** The record a topic's event names, as the profile's GET routes answer it (or undefined). */
const readers: Record<string, (profile: Profile, key: string | number) => Promise<unknown>> = {
  tag: (p, id) => read(p, `/tags/${id}`),
  contact: (p, id) => read(p, `/contacts/${id}`),
  quickmessage: (p, id) => read(p, `/quick-messages/${id}`),
  schedule: (p, id) => read(p, `/schedules/${id}`),
  queue: (p, id) => read(p, `/queue/${id}`),
  whatsapp: (p, id) => read(p, `/whatsapp/${id}`),
  whatsappSession: (p, id) => read(p, `/whatsapp/${id}`),
  // The whole user through GET /users/:id (admins, the user itself), else the list's fields.
  user: async (p, id) => (await read(p, `/users/${id}`)) ?? byId(await read(p, '/users/list'), id),
  // Named by key within the caller's company: another company's reader reads its own.
  settings: async (p, key) =>
    companyOf[p] === A ? byId(await read(p, '/settings'), key) : undefined,
  company: (p, id) => read(p, `/companies/${id}`),
  prompt: (p, id) => read(p, `/prompt/${id}`),
  queueIntegration: (p, id) => read(p, `/queueIntegration/${id}`),
  ContactList: (p, id) => read(p, `/contact-lists/${id}`),
  ContactListItem: (p, id) => read(p, `/contact-list-items/${id}`),
  campaign: (p, id) => read(p, `/campaigns/${id}`),
  file: (p, id) => read(p, `/files/${id}`),
  chat: (p, id) => read(p, `/chats/${id}`),
  ticket: (p, id) => read(p, `/tickets/${id}`),
  announcement: (p, id) => read(p, `/announcements/${id}`),
};

/** A message is read in its ticket's conversation (GET /messages/:ticketId). */
async function readMessage(profile: Profile, ticketId: number, messageId: number) {
  const page = (await read(profile, `/messages/${ticketId}`)) as { messages: Row[] } | undefined;
  return page?.messages.find((message) => message.id === messageId);
}

/** The topic of an event of A (or the platform's announcement), else undefined. */
function topicOf(event: string): string | undefined {
  if (event === ANNOUNCEMENT_EVENT) return 'announcement';
  const prefix = `company-${A}-`;
  if (!event.startsWith(prefix)) return undefined;
  const topic = event.slice(prefix.length);
  // A chat's own channel and a member's chat list (chat-{id}, chat-user-{id}) carry a chat too.
  return /^chat-(user-)?\d+$/.test(topic) ? 'chat' : topic;
}

/** Where each topic's payload carries its record, and its key when dropped. */
const SHAPES: Record<string, { record: string[]; key: string[] }> = {
  tag: { record: ['tag'], key: ['tagId'] },
  contact: { record: ['contact'], key: ['contactId'] },
  quickmessage: { record: ['record'], key: ['id'] },
  schedule: { record: ['schedule'], key: ['scheduleId'] },
  queue: { record: ['queue'], key: ['queueId'] },
  whatsapp: { record: ['whatsapp'], key: ['whatsappId'] },
  whatsappSession: { record: ['session'], key: [] },
  user: { record: ['user'], key: ['userId'] },
  settings: { record: ['setting'], key: [] },
  company: { record: ['company'], key: [] },
  prompt: { record: ['prompt'], key: ['promptId'] },
  queueIntegration: { record: ['queueIntegration'], key: ['integrationId'] },
  ContactList: { record: ['record'], key: ['id'] },
  ContactListItem: { record: ['record'], key: ['id'] },
  campaign: { record: ['record'], key: ['id'] },
  file: { record: ['files'], key: ['fileId'] },
  chat: { record: ['chat', 'record'], key: ['id'] },
  ticket: { record: ['ticket'], key: ['ticketId'] },
  appMessage: { record: ['message'], key: [] },
  announcement: { record: ['record'], key: ['id'] },
};

function about(h: Heard): About | undefined {
  const topic = topicOf(h.event);
  // a sign-in elsewhere is told to the user's own sockets only
  if (!topic || topic === 'auth') return undefined;
  const shape = SHAPES[topic];
  expect(shape, `a topic the test knows: ${topic}`).toBeDefined();
  const { payload } = h;
  const action = String(payload.action);
  for (const name of shape!.record) {
    const record = payload[name] as Row | undefined;
    if (record && typeof record === 'object') {
      const key = (record.id ?? record.key) as string | number;
      return { topic, key, record, drop: action === 'delete' };
    }
  }
  for (const name of shape!.key) {
    if (payload[name] !== undefined) {
      return { topic, key: payload[name] as number, drop: action === 'delete' };
    }
  }
  // presence, reload and progress name a record without carrying one
  const key = (payload.userId ?? payload.contactListId) as number;
  const listTopic = topic === 'ContactListItem' ? 'ContactList' : topic;
  return { topic: listTopic, key, drop: false };
}

let fenceSequence = 0;
/** Everything emitted before it has reached every socket once each socket heard the fence. */
async function fence() {
  const mark = `fence-${++fenceSequence}`;
  // Work a request started (a session's status, a moved socket) settles first.
  await new Promise((resolve) => setTimeout(resolve, 150));
  t.realtime.io.emit('fence', mark);
  for (const profile of PROFILES) {
    await expect
      .poll(() => heard[profile].some((h) => h.event === 'fence' && h.payload.mark === mark))
      .toBe(true);
  }
}

interface Touched {
  topic: string;
  key: string | number;
  /** The ticket of a message, to read it in its conversation. */
  ticketId?: number;
}

/**
 * Runs one step of work and holds what each profile heard during it against what it may read:
 * what `touched` names is read before (for drops) and after the step, as every profile.
 */
async function step(
  name: string,
  touched: Touched[] | (() => Touched[]),
  work: () => Promise<unknown>,
) {
  const readNow = (profile: Profile, thing: Touched) =>
    thing.topic === 'appMessage'
      ? readMessage(profile, thing.ticketId!, Number(thing.key))
      : readers[thing.topic]!(profile, thing.key);
  const before = new Map<string, unknown>();
  for (const profile of PROFILES) {
    for (const thing of Array.isArray(touched) ? touched : []) {
      before.set(`${profile} ${thing.topic} ${thing.key}`, await readNow(profile, thing));
    }
  }
  const marks = Object.fromEntries(PROFILES.map((p) => [p, heard[p].length])) as Record<
    Profile,
    number
  >;
  await work();
  await fence();
  for (const profile of PROFILES) {
    const during = heard[profile].slice(marks[profile]).filter((h) => h.event !== 'fence');
    const events = during.map((h) => ({ h, about: about(h) }));
    for (const { h, about: it } of events) {
      if (!it) continue;
      const where = `${name}: ${profile} heard ${h.event} ${JSON.stringify(h.payload).slice(0, 160)}`;
      const readable =
        it.topic === 'appMessage'
          ? await readMessage(profile, Number(it.record?.ticketId), Number(it.key))
          : await readers[it.topic]!(profile, it.key);
      if (it.drop) {
        // a withdrawn announcement leaves the screens of live ones, the super user's too; a
        // ticket that changed list is dropped from the old one, then updated into the new one
        const draft =
          it.topic === 'announcement' && (readable as Row | undefined)?.status === false;
        const moved = events
          .slice(events.findIndex((e) => e.h === h))
          .some((e) => e.about?.topic === it.topic && e.about.key === it.key && !e.about.drop);
        if (readable !== undefined && !draft && !moved) {
          findings.push(`${where}: told to drop what it can read`);
        }
        continue;
      }
      if (readable === undefined) {
        findings.push(`${where}: which it may not read`);
      } else if (it.record && typeof readable === 'object') {
        const extra = Object.keys(it.record).filter((key) => !(key in (readable as Row)));
        if (extra.length) findings.push(`${where}: fields its GET does not answer: ${extra}`);
      }
    }
    // Whoever may read what the step changed heard of it; who read it before and no more, a drop.
    for (const thing of Array.isArray(touched) ? touched : touched()) {
      if (thing.topic === 'company') continue;
      const after = await readNow(profile, thing);
      const was = before.get(`${profile} ${thing.topic} ${thing.key}`);
      // A draft is announced to nobody: the super user who writes it has the answer.
      const draft = (record: unknown) => (record as Row | undefined)?.status === false;
      if (thing.topic === 'announcement' && (draft(after) || draft(was))) continue;
      const told = events.filter(
        (e) => e.about?.topic === thing.topic && String(e.about.key) === String(thing.key),
      );
      const what = `${name}: ${profile} on ${thing.topic} ${thing.key}`;
      if (after !== undefined && !told.some((e) => !e.about!.drop)) {
        findings.push(`${what}: may read it, heard nothing`);
      } else if (after === undefined && was !== undefined && !told.some((e) => e.about!.drop)) {
        findings.push(`${what}: read it before, was not told to drop it`);
      }
    }
  }
}

beforeAll(async () => {
  t = await startTestServer();
  const make = inboxFactories(t);
  const plan = await t.make.plan({
    useCampaigns: true,
    useKanban: true,
    useOpenAi: true,
    useIntegrations: true,
    useSchedules: true,
    useInternalChat: true,
    useExternalApi: true,
  });
  const a = await t.make.company({ planId: plan.id });
  A = a.company.id;
  const b = await t.make.company({ planId: plan.id });
  queue1 = (await t.make.queue(A)).id;
  queue2 = (await t.make.queue(A)).id;
  connectionId = (await make.connection(A)).id;
  contactId = (await make.contact(A)).id;
  const superUser = await t.make.user(A, { profile: 'admin', super: true });
  const allTicket = await t.make.user(A, { allTicket: 'enabled' });
  const queueUser = await t.make.user(A, { queueIds: [queue1] });
  const noQueue = await t.make.user(A);
  const people: Record<Profile, { id: number; email: string }> = {
    super: superUser,
    admin: a.admin,
    allTicket,
    queueUser,
    noQueue,
    outsider: b.admin,
  };
  for (const profile of PROFILES) {
    ids[profile] = people[profile].id;
    companyOf[profile] = profile === 'outsider' ? b.company.id : A;
    tokens[profile] = (await t.login(people[profile].email)).token;
    heard[profile] = [];
    const socket: Socket = await socketFor(t, tokens[profile]);
    socket.onAny((event: string, payload: unknown) =>
      heard[profile].push({
        event,
        payload: (typeof payload === 'object' && payload ? payload : { mark: payload }) as Record<
          string,
          unknown
        >,
      }),
    );
  }
});

afterAll(async () => {
  closeSockets();
  await t?.stop();
});

/** Each test's findings, all of them at once. */
const noFindings = () => expect(findings.splice(0)).toEqual([]);

describe('what each profile hears, against what it may read', () => {
  it('tags, contacts and quick replies', async () => {
    const admin = as('admin');
    let tag = 0;
    await step('tag created', [], async () => {
      tag = created(await admin.post('/tags', { name: 'Aud tag', color: '#123456' }), 'tag');
    });
    await step('tag renamed', [{ topic: 'tag', key: tag }], async () =>
      ok(await admin.put(`/tags/${tag}`, { name: 'Aud tag 2' }), 'tag edit'),
    );
    await step('tag deleted', [{ topic: 'tag', key: tag }], async () =>
      ok(await admin.delete(`/tags/${tag}`), 'tag delete'),
    );

    let contact = 0;
    await step('contact created', [], async () => {
      contact = created(
        await admin.post('/contacts', { name: 'Aud person', number: '5511955550001' }),
        'c',
      );
    });
    await step('contact edited', [{ topic: 'contact', key: contact }], async () =>
      ok(await admin.put(`/contacts/${contact}`, { name: 'Aud person 2' }), 'contact edit'),
    );
    await step('contact deleted', [{ topic: 'contact', key: contact }], async () =>
      ok(await admin.delete(`/contacts/${contact}`), 'contact delete'),
    );

    let shared = 0;
    await step('shared quick reply', [], async () => {
      shared = created(
        await admin.post('/quick-messages', { shortcode: 'aud-all', message: 'x', geral: true }),
        'quick',
      );
    });
    let own = 0;
    await step('personal quick reply of a user', [], async () => {
      own = created(
        await as('queueUser').post('/quick-messages', { shortcode: 'aud-own', message: 'y' }),
        'own quick',
      );
    });
    await step('personal reply edited', [{ topic: 'quickmessage', key: own }], async () =>
      ok(await as('queueUser').put(`/quick-messages/${own}`, { message: 'y2' }), 'own edit'),
    );
    await step('shared reply made personal', [{ topic: 'quickmessage', key: shared }], async () =>
      ok(await admin.put(`/quick-messages/${shared}`, { geral: false }), 'unshare'),
    );
    await step('personal reply deleted', [{ topic: 'quickmessage', key: own }], async () =>
      ok(await as('queueUser').delete(`/quick-messages/${own}`), 'own delete'),
    );
    let ofQueue = 0;
    await step("a queue's reply", [], async () => {
      ofQueue = created(
        await admin.post('/quick-messages', { shortcode: 'aud-q', message: 'q', queueId: queue1 }),
        'queue quick',
      );
    });
    await step(
      "a queue's reply moved to another queue",
      [{ topic: 'quickmessage', key: ofQueue }],
      async () => ok(await admin.put(`/quick-messages/${ofQueue}`, { queueId: queue2 }), 'move'),
    );
    await step("a queue's reply deleted", [{ topic: 'quickmessage', key: ofQueue }], async () =>
      ok(await admin.delete(`/quick-messages/${ofQueue}`), 'queue delete'),
    );
    noFindings();
  });

  it('users, settings, the company, queues and connections', async () => {
    const admin = as('admin');
    let user = 0;
    await step('user created', [], async () => {
      user = created(
        await admin.post('/users', {
          name: 'Aud hire',
          email: `aud-hire-${process.pid}@example.com`,
          password: 'Aud-pass-1',
          profile: 'user',
          queueIds: [queue1],
        }),
        'user',
      );
    });
    await step('user edited', [{ topic: 'user', key: user }], async () =>
      ok(await admin.put(`/users/${user}`, { name: 'Aud hire 2' }), 'user edit'),
    );
    await step('a user edited by an admin', [{ topic: 'user', key: ids.noQueue }], async () =>
      ok(await admin.put(`/users/${ids.noQueue}`, { name: 'Aud no queue' }), 'agent edit'),
    );
    await step('user deleted', [{ topic: 'user', key: user }], async () =>
      ok(await admin.delete(`/users/${user}`), 'user delete'),
    );
    await step('setting changed', [{ topic: 'settings', key: 'userRating' }], async () =>
      ok(await admin.put('/settings/userRating', { value: 'enabled' }), 'setting'),
    );
    await step('company hours changed', [{ topic: 'company', key: A }], async () =>
      ok(await admin.put(`/companies/${A}/schedules`, { schedules: DEFAULT_SCHEDULES }), 'hours'),
    );

    let queue = 0;
    await step('queue created', [], async () => {
      queue = created(await admin.post('/queue', { name: 'Aud queue', color: '#a1b2c3' }), 'q');
    });
    await step('queue edited', [{ topic: 'queue', key: queue }], async () =>
      ok(await admin.put(`/queue/${queue}`, { name: 'Aud queue 2' }), 'queue edit'),
    );
    await step('queue deleted', [{ topic: 'queue', key: queue }], async () =>
      ok(await admin.delete(`/queue/${queue}`), 'queue delete'),
    );

    let connection = 0;
    await step('connection created', [], async () => {
      connection = created(
        await admin.post('/whatsapp', { name: 'Aud extra', provider: 'simulator' }),
        'conn',
      );
    });
    await step('connection edited', [{ topic: 'whatsapp', key: connection }], async () =>
      ok(await admin.put(`/whatsapp/${connection}`, { name: 'Aud extra 2' }), 'conn edit'),
    );
    await step('session started', [{ topic: 'whatsappSession', key: connection }], async () =>
      ok(await admin.post(`/whatsappsession/${connection}`), 'session start'),
    );
    await step('session stopped', [{ topic: 'whatsappSession', key: connection }], async () =>
      ok(await admin.delete(`/whatsappsession/${connection}`), 'session stop'),
    );
    await step('connection deleted', [{ topic: 'whatsapp', key: connection }], async () =>
      ok(await admin.delete(`/whatsapp/${connection}`), 'conn delete'),
    );
    noFindings();
  });

  it("the admins' areas: schedules, prompts, integrations, lists, campaigns and files", async () => {
    const admin = as('admin');
    let schedule = 0;
    await step('schedule created', [], async () => {
      schedule = created(
        await admin.post('/schedules', {
          body: 'Aud schedule',
          contactId,
          sendAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        }),
        'schedule',
      );
    });
    await step('schedule deleted', [{ topic: 'schedule', key: schedule }], async () =>
      ok(await admin.delete(`/schedules/${schedule}`), 'schedule delete'),
    );
    let prompt = 0;
    await step('prompt created', [], async () => {
      prompt = created(
        await admin.post('/prompt', {
          name: 'Aud prompt',
          prompt: 'Be kind',
          apiKey: 'sk-audiences',
          queueId: queue1,
        }),
        'prompt',
      );
    });
    await step('prompt deleted', [{ topic: 'prompt', key: prompt }], async () =>
      ok(await admin.delete(`/prompt/${prompt}`), 'prompt delete'),
    );
    let integration = 0;
    await step('integration created', [], async () => {
      integration = created(
        await admin.post('/queueIntegration', {
          type: 'webhook',
          name: 'Aud hook',
          urlN8N: 'https://example.com/aud-hook',
        }),
        'integration',
      );
    });
    await step('integration deleted', [{ topic: 'queueIntegration', key: integration }], async () =>
      ok(await admin.delete(`/queueIntegration/${integration}`), 'integration delete'),
    );
    let list = 0;
    await step('contact list created', [], async () => {
      list = created(await admin.post('/contact-lists', { name: 'Aud list' }), 'list');
    });
    let item = 0;
    await step('list item added', [{ topic: 'ContactList', key: list }], async () => {
      item = created(
        await admin.post('/contact-list-items', {
          contactListId: list,
          name: 'Aud item',
          number: '5511955550002',
        }),
        'item',
      );
    });
    await step('list item deleted', [{ topic: 'ContactListItem', key: item }], async () =>
      ok(await admin.delete(`/contact-list-items/${item}`), 'item delete'),
    );
    let campaign = 0;
    await step('campaign created', [], async () => {
      campaign = created(
        await admin.post('/campaigns', {
          name: 'Aud campaign',
          message1: 'Oi',
          contactListId: list,
          whatsappId: connectionId,
        }),
        'campaign',
      );
    });
    await step('campaign deleted', [{ topic: 'campaign', key: campaign }], async () =>
      ok(await admin.delete(`/campaigns/${campaign}`), 'campaign delete'),
    );
    await step('contact list deleted', [{ topic: 'ContactList', key: list }], async () =>
      ok(await admin.delete(`/contact-lists/${list}`), 'list delete'),
    );
    let files = 0;
    await step('file list created', [], async () => {
      files = created(
        await admin.post('/files', { name: 'Aud files', message: 'x', options: [{ name: 'a' }] }),
        'files',
      );
    });
    await step('file list deleted', [{ topic: 'file', key: files }], async () =>
      ok(await admin.delete(`/files/${files}`), 'files delete'),
    );
    noFindings();
  });

  it('a chat between an admin and a user', async () => {
    let chat = 0;
    await step('chat created', [], async () => {
      chat = created(
        await as('admin').post('/chats', { title: 'Aud chat', users: [{ id: ids.queueUser }] }),
        'chat',
      );
    });
    await step('chat message', [{ topic: 'chat', key: chat }], async () =>
      ok(await as('queueUser').post(`/chats/${chat}/messages`, { message: 'Aud line' }), 'line'),
    );
    await step('chat deleted', [{ topic: 'chat', key: chat }], async () =>
      ok(await as('admin').delete(`/chats/${chat}`), 'chat delete'),
    );
    noFindings();
  });

  it('a ticket from waiting without a queue to resolved, and its messages', async () => {
    const admin = as('admin');
    let ticket = 0;
    await step('ticket opened, waiting without a queue', [], async () => {
      ticket = created(
        await admin.post('/tickets', { contactId, whatsappId: connectionId, status: 'pending' }),
        'ticket',
      );
    });
    const it = [{ topic: 'ticket', key: ticket }];
    await step('ticket put in queue 1', it, async () =>
      ok(await admin.put(`/tickets/${ticket}`, { queueId: queue1 }), 'to queue 1'),
    );
    await step('ticket accepted by the queue user', it, async () =>
      ok(
        await as('queueUser').put(`/tickets/${ticket}`, { status: 'open', userId: ids.queueUser }),
        'accept',
      ),
    );
    let message = 0;
    await step(
      'reply in the ticket',
      () => [{ topic: 'appMessage', key: message, ticketId: ticket }],
      async () => {
        message = created(
          await as('queueUser').post(`/messages/${ticket}`, { body: 'Aud reply' }),
          'reply',
        );
      },
    );
    await step('ticket transferred to queue 2, waiting', it, async () =>
      ok(await admin.put(`/tickets/${ticket}`, { queueId: queue2, userId: null }), 'transfer'),
    );
    await step('ticket accepted by the admin', it, async () =>
      ok(await admin.put(`/tickets/${ticket}`, { status: 'open', userId: ids.admin }), 'accept'),
    );
    await step('ticket resolved', it, async () =>
      ok(await admin.put(`/tickets/${ticket}`, { status: 'closed' }), 'resolve'),
    );
    await step('ticket deleted', it, async () =>
      ok(await admin.delete(`/tickets/${ticket}`), 'ticket delete'),
    );
    noFindings();
  });

  it("the platform's announcements: a draft to nobody, a withdrawn one dropped", async () => {
    const root = as('super');
    let draft = 0;
    await step('draft announcement', [], async () => {
      draft = created(
        await root.post('/announcements', { title: 'Aud draft', text: 'x', status: false }),
        'draft',
      );
    });
    const it = [{ topic: 'announcement', key: draft }];
    await step('announcement published', it, async () =>
      ok(await root.put(`/announcements/${draft}`, { status: true }), 'publish'),
    );
    await step('announcement back to draft', it, async () =>
      ok(await root.put(`/announcements/${draft}`, { status: false }), 'unpublish'),
    );
    await step('announcement deleted', it, async () =>
      ok(await root.delete(`/announcements/${draft}`), 'delete'),
    );
    noFindings();
  });
});
