import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BufferJSON } from '@whiskeysockets/baileys';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BaileysAuthStore } from '../src/channels/baileys/baileys.auth';
import { tenantDb } from '../src/db/tenant';
import { WhaticketImporter } from '../src/import/whaticket/importer';
import type { ImportReport } from '../src/import/whaticket/report';
import { WhaticketSource } from '../src/import/whaticket/source.repository';
import { ImportTarget } from '../src/import/whaticket/target.repository';
import { systemContext } from '../src/platform/auth/context';
import { SecretBox } from '../src/platform/secrets';
import { Storage } from '../src/platform/storage';
import { seed } from '../src/seed';
import { createTestDatabase } from './database';
import { FakeWhatsAppWeb } from './fakes/whatsapp-web';
import { buildWhaticketSource, type Fixture } from './fixtures/whaticket/generate';
import type { Dialect } from './fixtures/whaticket/schema';
import { startTestServer, TEST_SECRETS_KEY, type TestServer } from './harness';

/**
 * `npm run import:whaticket` against a Whaticket 6.0.0 source of our own making on each dialect
 * (fixtures/whaticket): on PostgreSQL with `Messages.isEdited`, on MariaDB without it.
 */

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const POSTGRES = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const MARIADB = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/';

async function mariadbReachable(): Promise<boolean> {
  try {
    const connection = await mysql.createConnection({ uri: MARIADB, connectTimeout: 2000 });
    await connection.end();
    return true;
  } catch {
    return false;
  }
}
const withMariadb = await mariadbReachable();
if (!withMariadb)
  console.warn(`MariaDB is not reachable at ${MARIADB}: the MySQL source tests are skipped.`);

/** Every table the import writes, as one fingerprint each: equal fingerprints, equal rows. */
const WRITTEN = [
  'plans',
  'companies',
  'users',
  'queues',
  'queue_options',
  'user_queues',
  'connections',
  'connection_queues',
  'tags',
  'contacts',
  'tickets',
  'ticket_search',
  'ticket_tags',
  'ticket_notes',
  'user_ratings',
  'messages',
  'quick_messages',
  'settings',
  'schedules',
  'contact_lists',
  'contact_list_items',
  'prompts',
  'helps',
  'announcements',
  'queue_integrations',
  'file_lists',
  'file_list_options',
  'campaigns',
  'campaign_settings',
  'campaign_shipping',
  'chats',
  'chat_users',
  'chat_messages',
  'invoices',
];

const SESSION_STATE = ['status', 'qrcode', 'retries', 'lease_epoch', 'lease_owner', 'updated_at']
  .map((column) => `'${column}'`)
  .join(' - ');

async function fingerprints(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const found: Record<string, string> = {};
    for (const table of [...WRITTEN, 'whaticket_import_map']) {
      const exists = await client.query('select to_regclass($1) is not null as e', [table]);
      if (!exists.rows[0].e) continue;
      // A connection's session state is the running server's to change (the demo connection of
      // our first boot starts there), not the import's.
      const row = table === 'connections' ? `(to_jsonb(t) - ${SESSION_STATE})::text` : 't::text';
      const { rows } = await client.query(
        `select count(*) || ':' || md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) as f from ${table} t`,
      );
      found[table] = rows[0].f;
    }
    return found;
  } finally {
    await client.end();
  }
}

/**
 * What was imported, without our ids (two runs number rows differently): each row by the
 * natural keys of what it points at.
 */
async function content(url: string): Promise<Record<string, unknown[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const queries: Record<string, string> = {
    companies: `select c.name, c.due_date::text, c.status, p.name as plan from companies c join plans p on p.id = c.plan_id`,
    users: `select u.email, c.name, u.password_hash, u.profile, u.super, w.name as connection from users u
      join companies c on c.id = u.company_id left join connections w on w.id = u.whatsapp_id`,
    queues: `select c.name, q.name, q.color, q.schedules::text from queues q join companies c on c.id = q.company_id`,
    options: `select q.name, o.title, o.option, p.title as parent, q.company_id = o.company_id as same
      from queue_options o join queues q on q.id = o.queue_id left join queue_options p on p.id = o.parent_id`,
    contacts: `select c.name as company, k.number, k.name, k.extra_info::text from contacts k join companies c on c.id = k.company_id`,
    tickets: `select t.uuid, k.number, t.status, u.email, q.name as queue, t.accepted_at, t.finished_at, t.created_at
      from tickets t join contacts k on k.id = t.contact_id left join users u on u.id = t.user_id left join queues q on q.id = t.queue_id`,
    tags: `select t.uuid, g.name from ticket_tags x join tickets t on t.id = x.ticket_id join tags g on g.id = x.tag_id`,
    notes: `select t.uuid, n.note from ticket_notes n join tickets t on t.id = n.ticket_id`,
    ratings: `select t.uuid, r.rate from user_ratings r join tickets t on t.id = r.ticket_id`,
    search: `select t.uuid, array(select distinct w from ticket_search s
      cross join unnest(tsvector_to_array(s.document)) w where s.ticket_id = t.id order by w) as words from tickets t`,
    messages: `select m.provider_message_id, t.uuid, m.body, m.from_me, m.ack, m.media_type, m.media_name,
      split_part(m.media_path, '/', 2) as file, m.is_deleted, m.is_edited, q.provider_message_id as quoted, m.created_at
      from messages m join tickets t on t.id = m.ticket_id left join messages q on q.id = m.quoted_msg_id`,
    quick: `select c.name, q.shortcode, q.message, q.geral from quick_messages q join companies c on c.id = q.company_id`,
    settings: `select c.name, s.key, case when s.key = 'asaas' then '' else s.value end from settings s join companies c on c.id = s.company_id`,
    schedules: `select c.name, s.body, s.send_at, s.status, k.number from schedules s join companies c on c.id = s.company_id join contacts k on k.id = s.contact_id`,
    lists: `select l.name, i.number, i.name as item from contact_list_items i join contact_lists l on l.id = i.contact_list_id`,
    prompts: `select p.name, p.api_key_hint, q.name as queue, q.prompt_id = p.id as linked from prompts p join queues q on q.id = p.queue_id`,
    platform: `select title from helps union all select title from announcements`,
    integrations: `select c.name, i.type, i.name, i.url_n8n, i.json_content_hint, i.secret_hint is not null as signed,
      (select string_agg(q.name, ',' order by q.name) from queues q where q.integration_id = i.id) as queues
      from queue_integrations i join companies c on c.id = i.company_id`,
    files: `select l.name, o.name as file, o.media_type, split_part(o.media_path, '/', 2) as path
      from file_list_options o join file_lists l on l.id = o.file_list_id`,
    campaigns: `select c.name, c.status, c.scheduled_at, l.name as list, f.name as files, w.name as connection,
      split_part(c.media_path, '/', 2) as media from campaigns c left join contact_lists l on l.id = c.contact_list_id
      left join file_lists f on f.id = c.file_list_id left join connections w on w.id = c.whatsapp_id`,
    campaignSettings: `select c.name, s.key, s.value from campaign_settings s join companies c on c.id = s.company_id`,
    shipping: `select c.name, s.number, s.name as item, s.delivered_at, s.confirmed_at
      from campaign_shipping s join campaigns c on c.id = s.campaign_id`,
    chats: `select c.title, c.uuid, o.email as owner, u.email, m.unreads from chats c left join users o on o.id = c.owner_id
      left join chat_users m on m.chat_id = c.id left join users u on u.id = m.user_id`,
    chatMessages: `select c.title, m.message, u.email, m.created_at from chat_messages m join chats c on c.id = m.chat_id
      left join users u on u.id = m.sender_id`,
    invoices: `select c.name, i.due_date::text, i.status, i.value, i.paid_at from invoices i join companies c on c.id = i.company_id`,
  };
  try {
    const found: Record<string, unknown[]> = {};
    for (const [name, sql] of Object.entries(queries)) {
      const { rows } = await client.query(sql);
      found[name] = rows.map((row) => JSON.stringify(row)).sort();
    }
    return found;
  } finally {
    await client.end();
  }
}

async function sourceRows(fixture: Fixture, sql: string): Promise<Record<string, unknown>[]> {
  if (fixture.dialect === 'postgres') {
    const client = new pg.Client({ connectionString: fixture.url });
    await client.connect();
    try {
      return (await client.query(sql.replaceAll('`', '"'))).rows;
    } finally {
      await client.end();
    }
  }
  const connection = await mysql.createConnection({ uri: fixture.url });
  try {
    const [rows] = await connection.query(sql);
    return rows as Record<string, unknown>[];
  } finally {
    await connection.end();
  }
}

const importers = new Set<string>();

async function importInto(
  fixture: Fixture,
  mediaDir: string,
  targetUrl: string,
  storageDir: string,
  options: { dryRun?: boolean; merge?: boolean; batchSize?: number } = {},
): Promise<ImportReport> {
  const source = await WhaticketSource.open(fixture.url);
  const target = await ImportTarget.open(targetUrl, source.label, options.dryRun ?? false);
  importers.add(targetUrl);
  try {
    const importer = new WhaticketImporter({
      source,
      target,
      storage: new Storage(storageDir, 'test-media-signing-key-0123456789abcdef'),
      secretsKey: TEST_SECRETS_KEY,
      mediaDir,
      batchSize: options.batchSize ?? 7,
    });
    await importer.checkTarget(options.merge ?? false);
    return await importer.run();
  } finally {
    await target.close();
    await source.close();
  }
}

const table = (report: ImportReport, name: string) => report.tables.find((t) => t.source === name)!;
const sum = (bucket: Record<string, number>) => Object.values(bucket).reduce((a, b) => a + b, 0);

describe.each([
  { dialect: 'postgres' as Dialect, serverUrl: POSTGRES.toString(), isEdited: true, run: true },
  { dialect: 'mysql' as Dialect, serverUrl: MARIADB, isEdited: false, run: withMariadb },
])('Whaticket 6.0.0 on $dialect', ({ dialect, serverUrl, isEdited, run }) => {
  let fixture: Fixture;
  let mediaDir: string;
  let storageDir: string;
  let t: TestServer;
  let report: ImportReport;
  const scratch: { drop(): Promise<void> }[] = [];
  const whatsappWeb = new FakeWhatsAppWeb();

  beforeAll(async () => {
    if (!run) return;
    mediaDir = mkdtempSync(join(tmpdir(), 'whaticket-public-'));
    storageDir = mkdtempSync(join(tmpdir(), 'atendi-import-storage-'));
    fixture = await buildWhaticketSource({ dialect, serverUrl, mediaDir, isEdited });
    t = await startTestServer({ STORAGE_DIR: storageDir }, undefined, {
      channels: { baileys: { createSocket: whatsappWeb.createSocket } },
    });
    // Our first boot: "Empresa 1" and "Plano 1", the names of the original's seeded ones.
    const { loadConfig } = await import('../src/config');
    await seed(loadConfig({ NODE_ENV: 'test', DATABASE_URL: t.databaseUrl }), t.database);
    report = await importInto(fixture, mediaDir, t.databaseUrl, storageDir);
  }, 120_000);

  afterAll(async () => {
    if (!run) return;
    await t.stop();
    await whatsappWeb.close();
    await fixture.drop();
    for (const database of scratch) await database.drop();
    rmSync(mediaDir, { recursive: true, force: true });
    rmSync(storageDir, { recursive: true, force: true });
  });

  it.runIf(run)(
    'merges our first boot’s Empresa 1 and Plano 1 with the original’s seeded ones',
    async () => {
      expect(table(report, 'Companies').merged).toEqual({ 'company of the same name here': 1 });
      expect(table(report, 'Plans').merged).toEqual({
        'plan of the same name here (its limits set to the source’s)': 1,
      });
      const { rows } = await t.database.pool.query(
        `select c.name, count(u.*)::int as users from companies c join users u on u.company_id = c.id group by c.name order by c.name`,
      );
      // Our demo admin stays beside the original's users of Empresa 1.
      expect(rows).toEqual([
        { name: 'Clínica Sol', users: 2 },
        { name: 'Empresa 1', users: 1 + 3 },
        { name: 'Loja Azul', users: 2 },
      ]);
    },
  );

  it.runIf(run)(
    'signs the imported users in with their original passwords, then keeps argon2id',
    async () => {
      for (const user of fixture.users) {
        const session = await t.login(user.email, user.password);
        expect(session.body.user.email).toBe(user.email);
      }
      const { rows } = await t.database.pool.query(
        'select count(*)::int as n from users where password_hash like $1',
        ['$2%'],
      );
      expect(rows[0].n).toBe(0);
      // The super user of the original is the platform's.
      const superUser = await t.login('contato@fenixpr.com.br', 'Fenix*123');
      expect(superUser.body.user.super).toBe(true);
    },
  );

  it.runIf(run)(
    'holds per company the source’s users, contacts, tickets, messages, tags and queues',
    async () => {
      const source = async (sql: string) =>
        Object.fromEntries(
          (await sourceRows(fixture, sql)).map((row) => [String(row.company), Number(row.n)]),
        );
      const target = async (sql: string) =>
        Object.fromEntries(
          (await t.database.pool.query(sql)).rows.map((row) => [
            String(row.company),
            Number(row.n),
          ]),
        );
      const names = { 1: 'Empresa 1', 2: 'Loja Azul', 3: 'Clínica Sol' } as Record<string, string>;
      const byName = (counts: Record<string, number>) =>
        Object.fromEntries(Object.entries(counts).map(([id, n]) => [names[id]!, n]));
      const ours = (what: string, join = '') =>
        target(
          `select c.name as company, count(*) as n from ${what} x ${join} join companies c on c.id = x.company_id group by c.name`,
        );

      const users = byName(
        await source(
          'select `companyId` as company, count(*) as n from `Users` group by `companyId`',
        ),
      );
      // Empresa 1: our demo admin in, the e-mail differing only in case out: the source's count.
      expect(await ours('users')).toEqual(users);

      const contacts = byName(
        await source(
          'select `companyId` as company, count(*) as n from `Contacts` group by `companyId`',
        ),
      );
      contacts['Empresa 1']! -= 2; // the masked number and the one without its ninth digit, merged
      expect(await ours('contacts')).toEqual(contacts);
      expect(sum(table(report, 'Contacts').merged)).toBe(2);

      expect(await ours('tickets')).toEqual(
        byName(
          await source(
            'select `companyId` as company, count(*) as n from `Tickets` group by `companyId`',
          ),
        ),
      );
      expect(await ours('messages')).toEqual(
        byName(
          await source(
            'select t.`companyId` as company, count(*) as n from `Messages` m join `Tickets` t on t.`id` = m.`ticketId` group by t.`companyId`',
          ),
        ),
      );
      expect(table(report, 'Messages').skipped).toEqual({ 'its ticket does not exist': 1 });
      expect(await ours('tags')).toEqual(
        byName(
          await source(
            'select `companyId` as company, count(*) as n from `Tags` group by `companyId`',
          ),
        ),
      );
      // Empresa 1's queues are the demo's Suporte and Vendas, the same names as the source's.
      expect(await ours('queues')).toEqual(
        byName(
          await source(
            'select `companyId` as company, count(*) as n from `Queues` group by `companyId`',
          ),
        ),
      );
      expect(table(report, 'Schedules').skipped).toEqual({ 'no date to send it': 1 });
      expect(table(report, 'QuickMessages').mended).toEqual({
        'shortcode differing only in case from another: numbered': 1,
      });
      expect(report.notImported.map((n) => n.table)).toEqual(['Subscriptions', 'Baileys']);
    },
  );

  it.runIf(run)(
    'moves contact lists, prompts with their keys sealed under ours, helps and announcements',
    async () => {
      const { rows: items } = await t.database.pool.query(
        `select i.number, i.is_whatsapp_valid from contact_list_items i join contact_lists l on l.id = i.contact_list_id
       where l.name = 'Clientes VIP' order by i.number`,
      );
      expect(items).toEqual([
        { number: '5511977770001', is_whatsapp_valid: true },
        { number: '5511977770002', is_whatsapp_valid: null },
      ]);
      expect(table(report, 'ContactListItems').skipped).toEqual({
        'number already in the list': 1,
        'its list does not exist': 1,
      });
      const { rows: prompts } = await t.database.pool.query(
        `select p.api_key_encrypted, p.api_key_hint, q.name as queue, q.prompt_id = p.id as linked
       from prompts p join queues q on q.id = p.queue_id`,
      );
      expect(prompts).toHaveLength(1);
      expect(prompts[0].api_key_encrypted).not.toContain('sk-whaticket');
      expect(new SecretBox(TEST_SECRETS_KEY).open(prompts[0].api_key_encrypted)).toBe(
        'sk-whaticket-openai-key-0001',
      );
      expect(prompts[0]).toMatchObject({
        api_key_hint: '********0001',
        queue: 'Suporte',
        linked: true,
      });
      const { rows: platform } = await t.database.pool.query(
        `select (select count(*)::int from helps) as helps, (select count(*)::int from announcements) as announcements`,
      );
      expect(platform[0]).toEqual({ helps: 1, announcements: 1 });
    },
  );

  it.runIf(run)(
    'moves integrations with the Dialogflow key sealed under ours, linked where the source links them',
    async () => {
      const { rows } = await t.database.pool.query(
        `select c.name as company, i.type, i.name, i.project_name, i.url_n8n, i.typebot_slug, i.typebot_expires,
           i.typebot_delay_message, i.typebot_keyword_finish, i.typebot_keyword_restart, i.typebot_unknown_message,
           i.typebot_restart_message, i.json_content_encrypted, i.json_content_hint, i.secret_encrypted, i.secret_hint,
           (select string_agg(cq.name || '@' || qc.name, ',' order by cq.name) from queues cq
             join companies qc on qc.id = cq.company_id where cq.integration_id = i.id) as queues,
           (select string_agg(w.name || '@' || wc.name, ',') from connections w
             join companies wc on wc.id = w.company_id where w.integration_id = i.id) as connections
         from queue_integrations i join companies c on c.id = i.company_id order by i.name`,
      );
      expect(rows.map((r) => [r.company, r.type, r.name])).toEqual([
        ['Empresa 1', 'typebot', 'Bot de vendas'],
        ['Empresa 1', 'dialogflow', 'Dialogflow'],
        ['Loja Azul', 'webhook', 'Webhook CRM'],
      ]);
      const [typebot, dialogflow, webhook] = rows;
      expect(typebot).toMatchObject({
        project_name: 'Bot de vendas',
        url_n8n: 'https://typebot.example',
        typebot_slug: 'vendas',
        typebot_expires: 10,
        typebot_delay_message: 1500,
        typebot_keyword_finish: 'sair',
        typebot_keyword_restart: 'reiniciar',
        typebot_unknown_message: 'Não entendi',
        typebot_restart_message: 'Recomeçando',
        json_content_encrypted: null,
        secret_encrypted: null,
        // Company 3's Vendas names it too, but it is not company 3's.
        queues: 'Vendas@Empresa 1',
        connections: null,
      });
      expect(dialogflow).toMatchObject({
        project_name: 'projeto-df',
        url_n8n: '',
        json_content_hint: 'bot@projeto-df.iam.gserviceaccount.com',
      });
      expect(dialogflow.json_content_encrypted).not.toContain('chave-secreta');
      const key = new SecretBox(TEST_SECRETS_KEY).open(dialogflow.json_content_encrypted);
      expect(JSON.parse(key!).private_key).toContain('chave-secreta-do-dialogflow');
      // A receiver here signs its posts: the import gave it a secret of its own.
      expect(new SecretBox(TEST_SECRETS_KEY).open(webhook.secret_encrypted)).toMatch(
        new RegExp(`${webhook.secret_hint}$`),
      );
      expect(webhook).toMatchObject({
        url_n8n: 'https://crm.example/hook',
        connections: 'Principal@Loja Azul',
      });
      expect(table(report, 'QueueIntegrations').skipped).toEqual({
        'its company does not exist': 1,
      });
    },
  );

  it.runIf(run)(
    'moves campaigns with their states, settings and shipping, and file lists with their files',
    async () => {
      const { rows: campaigns } = await t.database.pool.query(
        `select c.name, co.name as company, c.status, c.scheduled_at, c.completed_at, c.confirmation, c.message1,
           c.confirmation_message1, l.name as list, f.name as files, w.name as connection, c.media_path, c.media_name
         from campaigns c join companies co on co.id = c.company_id left join contact_lists l on l.id = c.contact_list_id
         left join file_lists f on f.id = c.file_list_id left join connections w on w.id = c.whatsapp_id
         order by c.name`,
      );
      expect(campaigns.map((c) => [c.name, c.company, c.status])).toEqual([
        ['Black Friday', 'Empresa 1', 'FINALIZADA'],
        ['Esquecida', 'Empresa 1', 'INATIVA'],
        ['Natal', 'Empresa 1', 'PROGRAMADA'],
        ['Reativação', 'Loja Azul', 'CANCELADA'],
      ]);
      const [black, , natal, reativacao] = campaigns;
      expect(black).toMatchObject({
        confirmation: true,
        message1: 'Oferta para {nome}',
        confirmation_message1: 'Quer receber a oferta?',
        list: 'Clientes VIP',
        files: 'Catálogo',
        connection: 'Principal',
        media_name: 'campanha.jpeg',
        completed_at: new Date('2024-03-01T14:10:00Z'),
      });
      const served = readFileSync(join(storageDir, black.media_path));
      expect(served.equals(readFileSync(join(mediaDir, 'company1', 'campanha.jpeg')))).toBe(true);
      expect(natal.scheduled_at).toEqual(new Date('2099-12-20T12:00:00Z'));
      // Company 1's list is not Loja Azul's to send to.
      expect(reativacao).toMatchObject({ list: null, connection: 'Principal' });
      expect(table(report, 'Campaigns')).toMatchObject({
        skipped: { 'its company does not exist': 1 },
        mended: {
          'in progress: cancelled (restart it here to go on)': 1,
          'scheduled for a time gone by: made inactive': 1,
        },
      });

      const { rows: settings } = await t.database.pool.query(
        `select key, value from campaign_settings order by key`,
      );
      expect(settings).toEqual([
        { key: 'messageInterval', value: '20' },
        { key: 'variables', value: '[{"key":"cupom","value":"BF10"}]' },
      ]);
      expect(table(report, 'CampaignSettings').skipped).toEqual({
        'no such campaign setting here (sabado)': 1,
        'its company does not exist': 1,
      });

      const { rows: shipping } = await t.database.pool.query(
        `select c.name as campaign, s.number, s.name, s.email, s.skipped, s.sent_at, s.delivered_at,
           s.confirmation_requested_at, s.confirmed_at, s.company_id = c.company_id as same
         from campaign_shipping s join campaigns c on c.id = s.campaign_id order by s.number`,
      );
      expect(shipping).toEqual([
        {
          campaign: 'Black Friday',
          number: '5511977770001',
          name: 'Ana',
          email: 'ana@example.com',
          // Written to by the original: a restart here leaves it out.
          skipped: 'imported',
          sent_at: new Date('2024-03-01T13:50:00Z'),
          delivered_at: new Date('2024-03-01T13:50:00Z'),
          confirmation_requested_at: new Date('2024-03-01T13:45:00Z'),
          confirmed_at: new Date('2024-03-01T13:48:00Z'),
          same: true,
        },
        {
          campaign: 'Black Friday',
          number: '5511977770002',
          name: 'Bruno',
          email: '',
          skipped: 'imported',
          sent_at: new Date('2024-03-01T13:51:00Z'),
          delivered_at: new Date('2024-03-01T13:51:00Z'),
          confirmation_requested_at: null,
          confirmed_at: null,
          same: true,
        },
        expect.objectContaining({ campaign: 'Reativação', number: '5521977770003', same: true }),
        expect.objectContaining({
          campaign: 'Reativação',
          number: '5521977770004',
          sent_at: null,
          skipped: null,
        }),
      ]);
      expect(table(report, 'CampaignShipping').skipped).toEqual({
        'number already in the campaign': 1,
        'its campaign does not exist': 1,
      });

      const { rows: files } = await t.database.pool.query(
        `select l.name as list, l.message, o.name, o.media_path, o.media_type, o.media_name,
           o.company_id = l.company_id as same
         from file_list_options o join file_lists l on l.id = o.file_list_id order by o.id`,
      );
      expect(files.map((f) => [f.list, f.name, f.media_type, f.media_name, f.same])).toEqual([
        ['Catálogo', 'Tabela de preços', 'application/pdf', 'tabela.pdf', true],
        ['Catálogo', 'Fora da pasta', null, null, true],
        ['Catálogo', 'Sumida', null, null, true],
      ]);
      expect(files[0].media_path).toMatch(/^\d+\/[0-9a-f-]{36}\.pdf$/);
      expect(
        readFileSync(join(storageDir, files[0].media_path)).equals(
          readFileSync(join(mediaDir, 'company1', 'fileList', '1', 'tabela.pdf')),
        ),
      ).toBe(true);
      expect(table(report, 'FilesOptions')).toMatchObject({
        skipped: { 'its file list does not exist': 1 },
        mended: { 'file missing in --media: kept without its file': 2 },
      });
      expect(table(report, 'Files').skipped).toEqual({ 'its company does not exist': 1 });
    },
  );

  it.runIf(run)(
    'moves internal chats with their members’ unread counts and messages, and invoices',
    async () => {
      const { rows: chats } = await t.database.pool.query(
        `select c.title, co.name as company, c.uuid::text, o.email as owner, c.last_message,
           (select string_agg(u.email || '=' || m.unreads, ',' order by u.email) from chat_users m
             join users u on u.id = m.user_id and u.company_id = m.company_id where m.chat_id = c.id) as members,
           (select string_agg(coalesce(u.email, '?') || ': ' || x.message, ' | ' order by x.created_at)
             from chat_messages x left join users u on u.id = x.sender_id
             where x.chat_id = c.id and x.company_id = c.company_id) as messages
         from chats c join companies co on co.id = c.company_id left join users o on o.id = c.owner_id
         order by c.title`,
      );
      expect(chats.map(({ uuid, ...chat }) => chat)).toEqual([
        {
          title: 'Equipe',
          company: 'Empresa 1',
          owner: 'admin@empresa1.example',
          last_message: 'Até amanhã',
          // Loja Azul's agent named in Empresa 1's chat is left out.
          members: 'admin@empresa1.example=0,agente@empresa1.example=2',
          messages:
            'admin@empresa1.example: Bom dia | agente@empresa1.example: Bom dia! | admin@empresa1.example: Segue a escala | agente@empresa1.example: E a foto? | admin@empresa1.example: Até amanhã',
        },
        {
          title: 'Loja',
          company: 'Loja Azul',
          owner: 'admin@empresa2.example',
          last_message: 'Oi',
          members: 'admin@empresa2.example=0,agente@empresa2.example=1',
          messages: '?: Oi',
        },
      ]);
      expect(chats[0].uuid).toBe('6f1c2d3e-4b5a-4c6d-8e7f-901a2b3c4d5e');
      expect(chats[1].uuid).not.toBe(chats[0].uuid);
      expect(table(report, 'Chats')).toMatchObject({
        skipped: { 'its company does not exist': 1 },
        mended: { 'uuid missing or another chat’s: a new one': 1 },
      });
      expect(table(report, 'ChatUsers').skipped).toEqual({
        'its user does not exist in the chat’s company': 1,
        'its chat does not exist': 1,
      });
      expect(table(report, 'ChatMessages')).toMatchObject({
        skipped: { 'its chat does not exist': 1 },
        mended: { 'file missing in --media: text kept': 1 },
      });
      // A message's file: copied under a generated name, served to the chat's members.
      const admin = fixture.users.find((u) => u.email === 'admin@empresa1.example')!;
      const { token } = await t.login(admin.email, admin.password);
      const [equipe] = (await t.database.pool.query(`select id from chats where title = 'Equipe'`))
        .rows;
      const page = await t.as(token).get(`/chats/${equipe.id}/messages`);
      expect(page.statusCode).toBe(200);
      const files = (
        page.json().records as {
          message: string;
          mediaPath: string | null;
          mediaName: string | null;
        }[]
      ).map((m) => [m.message, m.mediaName, m.mediaPath !== null]);
      expect(files).toEqual([
        ['Bom dia', null, false],
        ['Bom dia!', null, false],
        ['Segue a escala', 'Escala de março.pdf', true],
        ['E a foto?', null, false],
        ['Até amanhã', null, false],
      ]);
      const signed = page.json().records[2].mediaPath as string;
      expect(signed).toMatch(/^\/media\/\d+\/[0-9a-f-]{36}\.pdf\?/);
      const served = await t.app.inject({ method: 'GET', url: signed });
      expect(served.statusCode).toBe(200);
      expect(
        served.rawPayload.equals(readFileSync(join(mediaDir, 'company1', 'escala-marco.pdf'))),
      ).toBe(true);

      const { rows: invoices } = await t.database.pool.query(
        `select c.name as company, i.detail, i.value::float8 as value, i.due_date::text as due, i.status, i.paid_at
         from invoices i join companies c on c.id = i.company_id order by c.name, i.due_date`,
      );
      expect(invoices).toEqual([
        {
          company: 'Clínica Sol',
          detail: 'Plano Pro',
          value: 199.9,
          due: '2024-03-15',
          status: 'open',
          paid_at: null,
        },
        {
          company: 'Loja Azul',
          detail: 'Plano Pro',
          value: 199.9,
          due: '2024-02-10',
          status: 'paid',
          paid_at: new Date('2024-03-01T17:00:00Z'),
        },
        {
          company: 'Loja Azul',
          detail: 'Plano Pro',
          value: 199.9,
          due: '2024-03-10',
          status: 'open',
          paid_at: null,
        },
      ]);
      expect(table(report, 'Invoices').skipped).toEqual({
        'a second invoice of the same due date': 1,
        "status 'cancelled' (no place here)": 1,
        'its company does not exist': 1,
      });
    },
  );

  it.runIf(run)(
    'reads a conversation as the source has it: order, quotes, edits, deletions, media bytes',
    async () => {
      const admin = fixture.users.find((u) => u.email === 'admin@empresa1.example')!;
      const { token } = await t.login(admin.email, admin.password);
      const [ticket] = (
        await t.database.pool.query(
          `select t.id from tickets t join whaticket_import_map m on m.new_id = t.id and m.kind = 'ticket' where m.old_id = $1`,
          [String(fixture.sampleTicketId)],
        )
      ).rows;
      const page = await t.as(token).get(`/messages/${ticket.id}`);
      expect(page.statusCode).toBe(200);
      const messages = page.json().messages as {
        body: string;
        fromMe: boolean;
        mediaUrl: string | null;
        mediaType: string;
        isDeleted: boolean;
        isEdited: boolean;
        isForwarded: boolean;
        ack: number;
        quotedMsg: { body: string } | null;
      }[];
      const source = await sourceRows(
        fixture,
        `select \`id\`, \`body\`, \`fromMe\`, \`mediaUrl\`, \`quotedMsgId\`, \`isDeleted\`, \`isForwarded\` from \`Messages\` where \`ticketId\` = ${fixture.sampleTicketId} order by \`createdAt\`, \`id\``,
      );
      // A deleted message's text is kept, but not shown (as ours are).
      expect(messages.map((m) => m.body)).toEqual(source.map((m) => (m.isDeleted ? '' : m.body)));
      expect(messages.map((m) => m.fromMe)).toEqual(source.map((m) => Boolean(m.fromMe)));
      expect(messages.map((m) => m.isDeleted)).toEqual(source.map((m) => Boolean(m.isDeleted)));
      expect(messages[2]!.quotedMsg?.body).toBe(source[1]!.body);
      expect(messages[5]!.isEdited).toBe(isEdited);
      // Forwarded as the source marks it (6.0.0's Messages.isForwarded).
      expect(messages.map((m) => m.isForwarded)).toEqual(source.map((m) => Boolean(m.isForwarded)));
      expect(messages[4]!.isForwarded).toBe(true);
      expect(messages.filter((m) => !m.fromMe).every((m) => m.ack === 3)).toBe(true);
      const withMedia = messages.filter((m) => m.mediaUrl);
      expect(withMedia.map((m) => m.mediaType)).toEqual(['image', 'audio']);
      for (const message of withMedia) {
        const file = source.find((s) => s.body === message.body)!.mediaUrl as string;
        const served = await t.app.inject({ method: 'GET', url: message.mediaUrl! });
        expect(served.statusCode).toBe(200);
        expect(served.rawPayload.equals(readFileSync(join(mediaDir, 'company1', file)))).toBe(true);
      }
    },
  );

  it.runIf(run)(
    'keeps messages written at one instant in the order of their source ids',
    async () => {
      const [ticket] = (
        await t.database.pool.query(
          `select t.id from tickets t join whaticket_import_map m on m.new_id = t.id and m.kind = 'ticket' where m.old_id = $1`,
          [String(fixture.burst.ticketId)],
        )
      ).rows;
      const { rows } = await t.database.pool.query(
        `select provider_message_id as id, created_at from messages
         where ticket_id = $1 and provider_message_id = any($2::text[]) order by id`,
        [ticket.id, fixture.burst.ids],
      );
      // One instant; our ids (what breaks the tie in every list) ascend as the source's ids do.
      expect(new Set(rows.map((r) => r.created_at.getTime())).size).toBe(1);
      expect(rows.map((r) => r.id)).toEqual(fixture.burst.ids);
      const admin = fixture.users.find((u) => u.email === 'admin@empresa1.example')!;
      const { token } = await t.login(admin.email, admin.password);
      const page = await t.as(token).get(`/messages/${ticket.id}`);
      expect(page.statusCode).toBe(200);
      const bodies = (page.json().messages as { body: string }[])
        .map((m) => m.body)
        .filter((body) => body.startsWith('Rajada'));
      expect(bodies).toEqual(['Rajada 1', 'Rajada 2', 'Rajada 3', 'Rajada 4']);
    },
  );

  it.runIf(run)(
    'finds imported tickets by their messages’ words, as it finds those of messages written here',
    async () => {
      // Each imported ticket's search holds the words of its contact and of every message of it
      // not deleted: the words the triggers add for messages written one at a time.
      const { rows } = await t.database.pool.query(
        `select t.id,
           array(select distinct w from unnest(search_words(c.name) || search_number(c.number)
             || coalesce((select array_agg(x) from messages m cross join unnest(search_words(m.body)) x
                          where m.ticket_id = t.id and not m.is_deleted), '{}')) w order by w) as expected,
           array(select distinct w from ticket_search s cross join unnest(tsvector_to_array(s.document)) w
             where s.ticket_id = t.id order by w) as found
         from tickets t join contacts c on c.id = t.contact_id
         join whaticket_import_map x on x.kind = 'ticket' and x.new_id = t.id`,
      );
      expect(rows.length).toBeGreaterThan(1);
      for (const row of rows) expect(row.found, `ticket ${row.id}`).toEqual(row.expected);
      // A long conversation keeps its first words too (a rebuild after an edit would not).
      const [long] = (
        await t.database.pool.query(
          `select t.id from tickets t join whaticket_import_map m on m.new_id = t.id and m.kind = 'ticket' where m.old_id = $1`,
          [String(fixture.long.ticketId)],
        )
      ).rows;
      expect(rows.find((row) => row.id === long.id).found).toContain(fixture.long.word);
      // Nothing is left to build once the import is done.
      const pending = await t.database.pool.query(
        `select count(*)::int as n from whaticket_import_map where kind = 'searchPending'`,
      );
      expect(pending.rows[0].n).toBe(0);

      const [burst] = (
        await t.database.pool.query(
          `select t.id from tickets t join whaticket_import_map m on m.new_id = t.id and m.kind = 'ticket' where m.old_id = $1`,
          [String(fixture.burst.ticketId)],
        )
      ).rows;
      const admin = fixture.users.find((u) => u.email === 'admin@empresa1.example')!;
      const { token } = await t.login(admin.email, admin.password);
      const search = async (term: string) => {
        const answer = await t.as(token).get(`/tickets?searchParam=${encodeURIComponent(term)}`);
        expect(answer.statusCode).toBe(200);
        return (answer.json().tickets as { id: number }[]).map((ticket) => ticket.id);
      };
      expect(await search('rajada 3')).toEqual([burst.id]);
      expect(await search('RAJ')).toEqual([burst.id]);
      // A deleted message's words are not searched.
      expect(await search('apagada')).toEqual([]);
    },
  );

  it.runIf(run)(
    'keeps each company to itself: the shared number is two contacts, no ticket crosses',
    async () => {
      const { rows } = await t.database.pool.query(
        `select c.name from contacts k join companies c on c.id = k.company_id where k.number = $1 order by c.name`,
        [fixture.broken.sharedNumber],
      );
      expect(rows.map((r) => r.name)).toEqual(['Clínica Sol', 'Empresa 1', 'Loja Azul']);
      const crossing = await t.database.pool.query(
        `select count(*)::int as n from tickets t left join users u on u.id = t.user_id left join queues q on q.id = t.queue_id
       left join connections w on w.id = t.whatsapp_id
       where u.company_id <> t.company_id or q.company_id <> t.company_id or w.company_id <> t.company_id`,
      );
      expect(crossing.rows[0].n).toBe(0);
      const loja = fixture.users.find((u) => u.email === 'admin@empresa2.example')!;
      const { token } = await t.login(loja.email, loja.password);
      const [theirs] = (
        await t.database.pool.query(
          `select t.id from tickets t join companies c on c.id = t.company_id where c.name = 'Empresa 1' limit 1`,
        )
      ).rows;
      expect((await t.as(token).get(`/messages/${theirs.id}`)).statusCode).toBeGreaterThanOrEqual(
        403,
      );
      const listed = await t.as(token).get('/contacts');
      expect(listed.statusCode).toBe(200);
      expect(JSON.stringify(listed.json())).not.toContain('Cliente 1.');
    },
  );

  it.runIf(run)(
    'stops with one line on a wrong address, a database that is not Whaticket, or no permission',
    async () => {
      const attempt = async (url: string) => {
        try {
          const source = await WhaticketSource.open(url);
          try {
            await source.verify();
          } finally {
            await source.close();
          }
          return 'verified';
        } catch (error) {
          return (error as Error).message;
        }
      };
      const at = (path: string, user?: string) => {
        const url = new URL(serverUrl);
        url.pathname = `/${path}`;
        if (user) {
          url.username = user;
          url.password = 'senha-do-leitor';
        }
        return url.toString();
      };
      const unreachable = new URL(serverUrl);
      unreachable.port = '1';
      expect(await attempt(unreachable.toString())).toMatch(
        /^Cannot reach the source database at 127\.0\.0\.1:1/,
      );
      expect(await attempt(at(dialect === 'postgres' ? 'postgres' : 'mysql'))).toBe(
        'This database is not a Whaticket database: it has no SequelizeMeta migration table.',
      );
      expect(await attempt(at('no_such_database_here'))).toMatch(/does not exist\.$/);
      const reader = `reader_${process.pid}`;
      if (dialect === 'postgres') {
        // The role lives on the source's server, which need not be the one of our database.
        const admin = new pg.Client({ connectionString: serverUrl });
        await admin.connect();
        await admin.query(`create role ${reader} login password 'senha-do-leitor'`);
        try {
          expect(await attempt(at(fixture.database, reader))).toMatch(
            /grant it SELECT on the Whaticket database/,
          );
        } finally {
          await admin.query(`drop role ${reader}`);
          await admin.end();
        }
      } else {
        const admin = await mysql.createConnection({ uri: MARIADB });
        await admin.query(`create user '${reader}'@'%' identified by 'senha-do-leitor'`);
        try {
          expect(await attempt(at(fixture.database, reader))).toMatch(
            /grant it SELECT on the Whaticket database/,
          );
        } finally {
          await admin.query(`drop user '${reader}'@'%'`);
          await admin.end();
        }
      }
      expect(await attempt(fixture.url)).toBe('verified');
    },
  );

  it.runIf(run)('changes nothing when run a second time', async () => {
    const before = await fingerprints(t.databaseUrl);
    const second = await importInto(fixture, mediaDir, t.databaseUrl, storageDir);
    expect(await fingerprints(t.databaseUrl)).toEqual(before);
    expect(
      second.tables
        .filter((x) => !['UserQueues', 'WhatsappQueues', 'TicketTags'].includes(x.source))
        .map((x) => [x.source, x.imported]),
    ).toEqual(
      second.tables
        .filter((x) => !['UserQueues', 'WhatsappQueues', 'TicketTags'].includes(x.source))
        .map((x) => [x.source, 0]),
    );
  });

  it.runIf(run)('refuses a target holding other data unless told to merge', async () => {
    const other = await createTestDatabase();
    scratch.push(other);
    const client = new pg.Client({ connectionString: other.url });
    await client.connect();
    await client.query(`insert into plans (name) values ('Ours')`);
    await client.query(
      `insert into companies (name, plan_id) select 'A', id from plans union all select 'B', id from plans`,
    );
    await client.end();
    await expect(importInto(fixture, mediaDir, other.url, storageDir)).rejects.toThrow(
      /already holds data .* pass --merge/,
    );
    const merged = await importInto(fixture, mediaDir, other.url, storageDir, { merge: true });
    expect(table(merged, 'Companies').imported).toBe(3);
  });

  it.runIf(run)(
    'merges into a database whose messages share WhatsApp ids with the source’s: none doubled, none lost',
    async () => {
      const other = await createTestDatabase();
      scratch.push(other);
      const source = await sourceRows(
        fixture,
        `select \`id\`, \`quotedMsgId\` from \`Messages\` where \`ticketId\` = ${fixture.sampleTicketId} order by \`createdAt\`, \`id\``,
      );
      const [{ number }] = (await sourceRows(
        fixture,
        `select c.\`number\` from \`Tickets\` t join \`Contacts\` c on c.\`id\` = t.\`contactId\` where t.\`id\` = ${fixture.sampleTicketId}`,
      )) as [{ number: string }];
      const ids = (await sourceRows(fixture, 'select `id` from `Messages` m')).map((m) => m.id);
      // Source messages 0 and 1 arrived here already, in Empresa 1; message 2 quotes message 1.
      // Message 3's WhatsApp id is also a message of another company here.
      const [first, second, , fourth] = source.map((m) => String(m.id));
      const quoting = source.find((m) => m.quotedMsgId)!;
      expect(String(quoting.quotedMsgId)).toBe(second);
      const client = new pg.Client({ connectionString: other.url });
      await client.connect();
      const one = async (sql: string, params: unknown[] = []) =>
        (await client.query(sql, params)).rows[0];
      const plan = await one(`insert into plans (name) values ('Nosso') returning id`);
      const ours = await one(
        `insert into companies (name, plan_id) values ('Empresa 1', $1) returning id`,
        [plan.id],
      );
      const outra = await one(
        `insert into companies (name, plan_id) values ('Outra', $1) returning id`,
        [plan.id],
      );
      const seed = async (companyId: number, number: string, whatsappIds: string[]) => {
        const connection = await one(
          `insert into connections (company_id, name, provider) values ($1, 'Nosso WhatsApp', 'beta') returning id`,
          [companyId],
        );
        const contact = await one(
          `insert into contacts (company_id, name, number) values ($1, 'Cliente', $2) returning id`,
          [companyId, number],
        );
        const ticket = await one(
          `insert into tickets (company_id, contact_id, whatsapp_id, status) values ($1, $2, $3, 'closed') returning id`,
          [companyId, contact.id, connection.id],
        );
        for (const id of whatsappIds) {
          await client.query(
            `insert into messages (company_id, ticket_id, connection_id, provider_message_id, body, from_me, ack)
             values ($1, $2, $3, $4, 'nossa cópia', false, 3)`,
            [companyId, ticket.id, connection.id, id],
          );
        }
      };
      await seed(ours.id, number, [first!, second!]);
      await seed(outra.id, '5521999990000', [fourth!]);
      await client.end();

      const merged = await importInto(fixture, mediaDir, other.url, storageDir, { merge: true });
      const messages = table(merged, 'Messages');
      expect(messages.merged).toEqual({
        'a message of the company here has its WhatsApp id (that one is kept)': 2,
      });
      expect(messages.imported).toBe(ids.length - 1 - 2); // the orphan, and the two here
      const check = new pg.Client({ connectionString: other.url });
      await check.connect();
      try {
        // Nothing doubled: one message per company and WhatsApp id.
        const doubled = await check.query(
          `select provider_message_id, company_id, count(*)::int as n from messages
           group by 1, 2 having count(*) > 1`,
        );
        expect(doubled.rows).toEqual([]);
        // Nothing lost: every source message but the orphan is a message of its company here.
        const here = await check.query(
          `select m.provider_message_id as id, c.name, m.body from messages m join companies c on c.id = m.company_id`,
        );
        const inCompany = new Set(
          here.rows.filter((r) => r.name !== 'Outra').map((r) => String(r.id)),
        );
        expect(
          ids.filter((id) => id !== fixture.broken.orphanMessageId && !inCompany.has(String(id))),
        ).toEqual([]);
        expect(here.rows.length).toBe(3 + messages.imported);
        // Ours are kept as they were; the other company's message stays its own.
        const body = (id: string, company: string) =>
          here.rows.filter((r) => r.id === id && r.name === company).map((r) => r.body);
        expect(body(first!, 'Empresa 1')).toEqual(['nossa cópia']);
        expect(body(second!, 'Empresa 1')).toEqual(['nossa cópia']);
        expect(body(fourth!, 'Outra')).toEqual(['nossa cópia']);
        expect(body(fourth!, 'Empresa 1')).toHaveLength(1);
        expect(body(fourth!, 'Empresa 1')[0]).not.toBe('nossa cópia');
        // The source's quote of message 1 is a quote of ours.
        const quote = await check.query(
          `select q.provider_message_id as quoted, q.body from messages m join messages q on q.id = m.quoted_msg_id
           where m.provider_message_id = $1`,
          [String(quoting.id)],
        );
        expect(quote.rows).toEqual([{ quoted: second, body: 'nossa cópia' }]);
      } finally {
        await check.end();
      }
      // A second run finds every message in the map: nothing more is written.
      const again = await importInto(fixture, mediaDir, other.url, storageDir, { merge: true });
      expect(table(again, 'Messages')).toMatchObject({ imported: 0, merged: {} });
      expect(table(again, 'Messages').already).toBe(ids.length - 1);
    },
    120_000,
  );

  it.runIf(run)(
    'writes nothing in a dry run, and a run killed half-way ends as an uninterrupted one',
    async () => {
      const whole = await createTestDatabase();
      const killed = await createTestDatabase();
      scratch.push(whole, killed);
      const storage = mkdtempSync(join(tmpdir(), 'atendi-import-killed-'));

      const before = await fingerprints(whole.url);
      const dry = await importInto(fixture, mediaDir, whole.url, storageDir, { dryRun: true });
      expect(table(dry, 'Messages').imported).toBeGreaterThan(0);
      expect(await fingerprints(whole.url)).toEqual(before);
      await importInto(fixture, mediaDir, whole.url, storageDir);

      const cli = (extra: string[]) =>
        spawn(
          process.execPath,
          [
            '--import',
            'tsx',
            MAIN,
            'import-whaticket',
            '--from',
            fixture.url,
            '--media',
            mediaDir,
            '--report',
            join(storage, 'report.md'),
            ...extra,
          ],
          {
            env: {
              PATH: process.env.PATH,
              NODE_ENV: 'development',
              DATABASE_URL: killed.url,
              STORAGE_DIR: storage,
              SECRETS_KEY: TEST_SECRETS_KEY,
              LOG_LEVEL: 'error',
            },
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
      // One message per transaction, killed as soon as the messages start.
      const first = cli(['--batch-size', '1']);
      await new Promise<void>((resolve, reject) => {
        let out = '';
        first.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (/^Messages \d+\//m.test(out)) {
            first.kill('SIGKILL');
            resolve();
          }
        });
        first.on('exit', (code) =>
          reject(new Error(`the import ended (${code}) before it was killed:\n${out}`)),
        );
      });
      await new Promise((resolve) => first.once('exit', resolve));
      const partial = await new pg.Client({ connectionString: killed.url });
      await partial.connect();
      const { rows } = await partial.query('select count(*)::int as n from messages');
      await partial.end();
      const total = (await content(whole.url)).messages!.length;
      expect(rows[0].n).toBeLessThan(total);

      const resumed = await importInto(fixture, mediaDir, killed.url, storage);
      expect(table(resumed, 'Plans').already).toBe(2);
      expect(table(resumed, 'Messages').already).toBe(rows[0].n);
      expect(await content(killed.url)).toEqual(await content(whole.url));
      rmSync(storage, { recursive: true, force: true });
    },
    180_000,
  );
  // Last: the sessions it starts change connections the runs above compare.
  it.runIf(run)(
    'carries a paired WhatsApp Web session over: started here, the connection opens without a QR code',
    async () => {
      expect(table(report, 'Whatsapps').mended).toEqual({
        'WhatsApp Web session carried over (opens without a QR code once the original is stopped)': 1,
        'WhatsApp Web session not carried over (not whole JSON): pair again': 1,
        'WhatsApp Web session not carried over (it was never paired with a phone): pair again': 1,
      });
      expect(report.notes).toContain(
        '1 connections carry their WhatsApp Web session: once the original is stopped for good, start each here and it opens without a QR code (the others need a new one).',
      );
      const { rows } = await t.database.pool.query(
        `select w.id, c.id as "companyId", c.name, w.status, w.session_enabled,
           (select count(*)::int from connection_auth_keys k where k.connection_id = w.id) as keys
         from connections w join companies c on c.id = w.company_id where w.name = 'Principal' order by c.id`,
      );
      expect(rows.map((r) => [r.name, r.status, r.session_enabled, r.keys > 0])).toEqual([
        ['Empresa 1', 'DISCONNECTED', false, true],
        ['Loja Azul', 'DISCONNECTED', false, false],
        ['Clínica Sol', 'DISCONNECTED', false, false],
      ]);
      // The store reads back what the original held, binary values and all.
      const [empresa1, , clinica] = rows;
      const original = JSON.parse(fixture.sessions[1]!, BufferJSON.reviver);
      const store = new BaileysAuthStore(
        tenantDb(systemContext(t.app.platform.db, empresa1.companyId)),
        empresa1.id,
      );
      const state = await store.load();
      expect(state.creds).toEqual(original.creds);
      expect(await state.keys.get('pre-key', ['1', '2'])).toEqual(original.keys.preKeys);
      expect(await state.keys.get('session', ['5511988880001.0'])).toEqual(original.keys.sessions);
      expect(
        await state.keys.get('sender-key', ['120363012345678901@g.us::5511988880001::0']),
      ).toEqual(original.keys.senderKeys);
      expect(await state.keys.get('app-state-sync-version', ['regular'])).toEqual(
        original.keys.appStateVersions,
      );
      const [syncKey] = Object.values(await state.keys.get('app-state-sync-key', ['AAAAAKdT']));
      expect(Buffer.from(syncKey!.keyData!)).toEqual(
        original.keys.appStateSyncKeys.AAAAAKdT.keyData,
      );

      // Started here, the paired one logs in; the never-paired one asks for a QR code.
      const start = async (companyEmail: string, id: number, status: string) => {
        const user = fixture.users.find((u) => u.email === companyEmail)!;
        const { token } = await t.login(user.email, user.password);
        expect((await t.as(token).post(`/whatsappsession/${id}`)).statusCode).toBeLessThan(300);
        await expect
          .poll(
            async () =>
              (await t.database.pool.query('select status from connections where id = $1', [id]))
                .rows[0].status,
            { timeout: 10_000 },
          )
          .toBe(status);
      };
      await start('admin@empresa1.example', empresa1.id, 'CONNECTED');
      expect(whatsappWeb.socket(empresa1.id).qrCount).toBe(0);
      expect(whatsappWeb.socket(empresa1.id).user?.id).toBe(original.creds.me.id);
      await start('admin@empresa3.example', clinica.id, 'qrcode');
    },
  );
});
