import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import {
  campaigns,
  chatMessages,
  chats,
  chatUsers,
  connectionAuthKeys,
  contactListItems,
  contactLists,
  fileListOptions,
  fileLists,
  integrationDeliveries,
  invoices,
  messages,
  prompts,
  queueIntegrations,
  queueOptions,
  quickMessages,
  schedules,
  settings,
  ticketNotes,
  users,
} from '../../src/db/schema';
import { TenantDb } from '../../src/db/tenant';
import type { CatalogRoute } from '../../src/platform/auth/guard';
import type { TestServer } from '../harness';
import { inboxFactories, PNG } from '../inbox';

/**
 * Two companies seeded with one of everything, for the sweeps that walk every registered route.
 * Every text of a company carries its marker, so a leak is found by searching for the marker.
 */
export interface Tenant {
  marker: string;
  companyId: number;
  planId: number;
  admin: { id: number; email: string; token: string };
  /** An agent of the company's queue. */
  agent: { id: number; email: string; token: string };
  ids: {
    user: number;
    queue: number;
    /** An option of the queue's bot menu. */
    queueOption: number;
    connection: number;
    contact: number;
    contactNumber: string;
    ticket: number;
    ticketUuid: string;
    message: number;
    note: number;
    tag: number;
    quickMessage: number;
    schedule: number;
    prompt: number;
    queueIntegration: number;
    contactList: number;
    contactListItem: number;
    campaign: number;
    fileList: number;
    fileListOption: number;
    chat: number;
    invoice: number;
    settingKey: string;
    mediaKey: string;
  };
  /** Values that must never leave the server (connection token, session key material). */
  secrets: string[];
  /** The connection's external-API token (also the first of the secrets). */
  apiToken: string;
}

export interface World {
  a: Tenant;
  b: Tenant;
  superToken: string;
  /** A user whose company's plan has every flag off. */
  planlessUserToken: string;
  help: number;
  /** An active announcement of the platform. */
  announcement: number;
}

const ALL_FLAGS = {
  useCampaigns: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
};

async function tenant(t: TestServer, marker: string): Promise<Tenant> {
  const make = inboxFactories(t);
  const plan = await t.make.plan({ name: `${marker} plan`, ...ALL_FLAGS });
  const { company, admin } = await t.make.company({ name: `${marker} company`, planId: plan.id });
  const db = new TenantDb(t.database.db, company.id);
  const queue = await t.make.queue(company.id, { name: `${marker} queue` });
  const agentUser = await t.make.user(company.id, {
    name: `${marker} agent`,
    queueIds: [queue.id],
  });
  await db.update(users, { name: `${marker} admin` }, eq(users.id, admin.id));
  const [queueOption] = await db
    .insert(queueOptions, {
      queueId: queue.id,
      title: `${marker} menu option`,
      message: `${marker} menu message`,
      option: '1',
    })
    .returning();
  const token = `${marker}-connection-token-${'x'.repeat(40)}`;
  const connection = await make.connection(company.id, { name: `${marker} connection`, token });
  const sessionKey = `${marker}-session-key-material`;
  await db.insert(connectionAuthKeys, {
    connectionId: connection.id,
    key: 'creds',
    value: { noiseKey: sessionKey },
  });
  const contact = await make.contact(company.id, { name: `${marker} contact` });
  const ticket = await make.ticket(company.id, {
    contactId: contact.id,
    status: 'open',
    queueId: queue.id,
    userId: agentUser.id,
    whatsappId: connection.id,
    lastMessage: `${marker} last message`,
  });
  const stored = await t.app.platform.storage.save(company.id, 'image/png', Readable.from(PNG));
  const message = await make.message(company.id, ticket.id, {
    body: `${marker} message body`,
    contactId: contact.id,
    connectionId: connection.id,
    providerMessageId: `${marker}-provider-id`,
  });
  await db.update(
    messages,
    { mediaPath: stored.key, mediaType: 'image', mediaName: 'a.png' },
    eq(messages.id, message.id),
  );
  const [note] = await db
    .insert(ticketNotes, {
      note: `${marker} note`,
      userId: admin.id,
      ticketId: ticket.id,
      contactId: contact.id,
    })
    .returning();
  const tag = await make.tag(company.id, { name: `${marker} tag`, color: '#123456', kanban: 1 });
  await make.tagTicket(company.id, ticket.id, tag.id);
  const [quick] = await db
    .insert(quickMessages, {
      shortcode: `${marker}-shortcode`,
      message: `${marker} quick reply`,
      userId: admin.id,
      geral: true,
    })
    .returning();
  // Far ahead: no sweep sends it while the sweeps run.
  const [prompt] = await db
    .insert(prompts, {
      name: `${marker} prompt`,
      prompt: `${marker} prompt text`,
      queueId: queue.id,
    })
    .returning();
  // A webhook with one logged delivery. Its address (a documentation range) is refused by the
  // outbound guard at once, so a sweep that tries it never waits on the network.
  const [integration] = await db
    .insert(queueIntegrations, {
      type: 'webhook',
      name: `${marker} integration`,
      projectName: `${marker} integration`,
      urlN8N: `http://192.0.2.${marker === 'ALPHA7' ? 7 : 9}/${marker}/hook`,
    })
    .returning();
  await db.insert(integrationDeliveries, {
    integrationId: integration!.id,
    event: 'message.received',
    payload: { marker },
    status: 'delivered',
    attempts: 1,
  });
  const [schedule] = await db
    .insert(schedules, {
      body: `${marker} scheduled message`,
      contactId: contact.id,
      sendAt: new Date(Date.now() + 365 * 86_400_000),
      userId: admin.id,
    })
    .returning();
  const [contactList] = await db
    .insert(contactLists, { name: `${marker} contact list` })
    .returning();
  const [contactListItem] = await db
    .insert(contactListItems, {
      contactListId: contactList!.id,
      name: `${marker} list item`,
      number: contact.number,
    })
    .returning();
  const [invoice] = await db
    .insert(invoices, { detail: `${marker} invoice`, value: 99, dueDate: '2099-01-01' })
    .returning();
  // Without a date: no sweep of the engine starts it while the sweeps run.
  const [campaign] = await db
    .insert(campaigns, {
      name: `${marker} campaign`,
      message1: `${marker} campaign message`,
      contactListId: contactList!.id,
      whatsappId: connection.id,
    })
    .returning();
  const [fileList] = await db
    .insert(fileLists, { name: `${marker} file list`, message: `${marker} file list message` })
    .returning();
  const [fileListOption] = await db
    .insert(fileListOptions, { fileListId: fileList!.id, name: `${marker} file option` })
    .returning();
  // The admin's chat with the agent, with one message.
  const [chat] = await db.insert(chats, { title: `${marker} chat`, ownerId: admin.id }).returning();
  await db.insert(chatUsers, [
    { chatId: chat!.id, userId: admin.id },
    { chatId: chat!.id, userId: agentUser.id, unreads: 1 },
  ]);
  await db.insert(chatMessages, {
    chatId: chat!.id,
    senderId: admin.id,
    message: `${marker} chat message`,
  });
  await db.insert(settings, { key: 'userRating', value: 'disabled' }).onConflictDoNothing();
  return {
    marker,
    companyId: company.id,
    planId: plan.id,
    admin: { id: admin.id, email: admin.email, token: (await t.login(admin.email)).token },
    agent: {
      id: agentUser.id,
      email: agentUser.email,
      token: (await t.login(agentUser.email)).token,
    },
    ids: {
      user: agentUser.id,
      queue: queue.id,
      queueOption: queueOption!.id,
      connection: connection.id,
      contact: contact.id,
      contactNumber: contact.number,
      ticket: ticket.id,
      ticketUuid: ticket.uuid,
      message: message.id,
      note: note!.id,
      tag: tag.id,
      quickMessage: quick!.id,
      schedule: schedule!.id,
      prompt: prompt!.id,
      queueIntegration: integration!.id,
      contactList: contactList!.id,
      contactListItem: contactListItem!.id,
      campaign: campaign!.id,
      fileList: fileList!.id,
      fileListOption: fileListOption!.id,
      chat: chat!.id,
      invoice: invoice!.id,
      settingKey: 'userRating',
      mediaKey: stored.key,
    },
    secrets: [token, sessionKey],
    apiToken: token,
  };
}

export async function seedWorld(t: TestServer): Promise<World> {
  const a = await tenant(t, 'ALPHA7');
  const b = await tenant(t, 'BRAVO9');
  const { admin: root } = await t.make.company({
    name: 'SUPER platform',
    super: true,
  });
  const planless = await t.make.plan({ name: 'Planless plan' });
  const { company: small } = await t.make.company({ planId: planless.id });
  const planlessUser = await t.make.user(small.id);
  const [help] = (
    await t.database.db.execute<{ id: number }>(
      sql`insert into helps (title, video, description) values ('Sweep help', 'abc', 'x') returning id`,
    )
  ).rows;
  const [announcement] = (
    await t.database.db.execute<{ id: number }>(
      sql`insert into announcements (title, text) values ('Sweep announcement', 'x') returning id`,
    )
  ).rows;
  return {
    a,
    b,
    superToken: (await t.login(root.email)).token,
    planlessUserToken: (await t.login(planlessUser.email)).token,
    help: help!.id,
    announcement: announcement!.id,
  };
}

/**
 * The value of each path parameter for `tenant`'s rows, by the route's first segment and the
 * parameter's name. An unknown parameter throws: a new route must say what its ids are.
 */
export function pathFor(route: CatalogRoute, owner: Tenant, world: World): string {
  const area = route.url.split('/')[1] ?? '';
  const byArea: Record<string, number | string> = {
    users: owner.ids.user,
    companies: owner.companyId,
    plans: owner.planId,
    queue: owner.ids.queue,
    'queue-options': owner.ids.queueOption,
    helps: world.help,
    announcements: world.announcement,
    whatsapp: owner.ids.connection,
    whatsappsession: owner.ids.connection,
    simulator: owner.ids.connection,
    webhooks: owner.ids.connection,
    tickets: owner.ids.ticket,
    messages: owner.ids.message,
    contacts: owner.ids.contact,
    'ticket-notes': owner.ids.note,
    tags: owner.ids.tag,
    'quick-messages': owner.ids.quickMessage,
    schedules: owner.ids.schedule,
    prompt: owner.ids.prompt,
    queueIntegration: owner.ids.queueIntegration,
    'contact-lists': owner.ids.contactList,
    'contact-list-items': owner.ids.contactListItem,
    campaigns: owner.ids.campaign,
    files: owner.ids.fileList,
    chats: owner.ids.chat,
    invoices: owner.ids.invoice,
  };
  const [companyId, file] = owner.ids.mediaKey.split('/');
  const byName: Record<string, number | string | undefined> = {
    id: byArea[area],
    ticketId: owner.ids.ticket,
    tagId: owner.ids.tag,
    fileId: owner.ids.fileList,
    // A simulated phone's message: any id of the owner's, the connection decides the company.
    messageId: owner.ids.message,
    uuid: owner.ids.ticketUuid,
    companyId: area === 'media' ? companyId : owner.companyId,
    connectionId: owner.ids.connection,
    phone: owner.ids.contactNumber,
    key: owner.ids.settingKey,
    file,
    // password reset: an address, a code and a password, none of them a row
    email: 'sweep-nobody@example.com',
    token: '123456',
    newPassword: 'SweepPass1',
  };
  return route.url.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = byName[name];
    if (value === undefined) {
      throw new Error(`${route.method} ${route.url}: the sweeps do not know the id ':${name}'`);
    }
    return encodeURIComponent(String(value));
  });
}

export const takesId = (route: CatalogRoute) => route.url.includes(':');

/** A fingerprint of every tenant row of a company, to prove a sweep changed nothing there. */
export async function snapshot(t: TestServer, companyId: number): Promise<string> {
  const { rows: tables } = await t.database.db.execute<{ table_name: string }>(
    sql`select table_name from information_schema.columns
        where table_schema = 'public' and column_name = 'company_id' order by table_name`,
  );
  const parts: string[] = [];
  for (const { table_name } of tables) {
    const { rows } = await t.database.db.execute<{ digest: string | null }>(
      sql`select md5(string_agg(x::text, '|' order by x::text)) as digest
          from ${sql.identifier(table_name)} x where company_id = ${companyId}`,
    );
    parts.push(`${table_name}:${rows[0]?.digest ?? 'empty'}`);
  }
  const { rows } = await t.database.db.execute<{ digest: string }>(
    sql`select md5(row(c.*)::text) as digest from companies c where id = ${companyId}`,
  );
  parts.push(`companies:${rows[0]?.digest}`);
  return parts.join('\n');
}
