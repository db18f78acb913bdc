import pg from 'pg';

/**
 * Our database as the import writes it: every query of the import on our side is here. Rows go
 * in by batches, one INSERT ... SELECT FROM unnest(...) per table and batch, their ids taken from
 * the table's sequence beforehand so the map of old ids to new ones is written in the same
 * transaction as the rows: a batch is either wholly imported and remembered, or not at all, which
 * is what makes a second run double nothing and an interrupted one resume.
 *
 * The map (`whaticket_import_map`) is the import's own table, created on first use: it is not
 * part of the product's schema, and a database that never imported has none.
 */

export const MAP_TABLE = 'whaticket_import_map';

/** The map's kind for tickets whose imported messages' search words are yet to be built. */
const SEARCH_PENDING = 'searchPending';

/** Tables the import writes, and the PostgreSQL type of each column it writes. */
const COLUMNS = {
  plans: {
    id: 'int4',
    name: 'text',
    users: 'int4',
    connections: 'int4',
    queues: 'int4',
    value: 'numeric',
    use_campaigns: 'bool',
    use_schedules: 'bool',
    use_internal_chat: 'bool',
    use_external_api: 'bool',
    use_kanban: 'bool',
    use_open_ai: 'bool',
    use_integrations: 'bool',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  companies: {
    id: 'int4',
    name: 'text',
    email: 'text',
    phone: 'text',
    plan_id: 'int4',
    status: 'bool',
    due_date: 'date',
    recurrence: 'text',
    schedules: 'jsonb',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  users: {
    id: 'int4',
    company_id: 'int4',
    name: 'text',
    email: 'text',
    password_hash: 'text',
    profile: 'text',
    super: 'bool',
    all_ticket: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  queues: {
    id: 'int4',
    company_id: 'int4',
    name: 'text',
    color: 'text',
    greeting_message: 'text',
    out_of_hours_message: 'text',
    order_queue: 'int4',
    schedules: 'jsonb',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  queue_options: {
    id: 'int4',
    company_id: 'int4',
    queue_id: 'int4',
    parent_id: 'int4',
    title: 'text',
    message: 'text',
    option: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  user_queues: { company_id: 'int4', user_id: 'int4', queue_id: 'int4' },
  connections: {
    id: 'int4',
    company_id: 'int4',
    name: 'text',
    provider: 'text',
    status: 'text',
    number: 'text',
    is_default: 'bool',
    greeting_message: 'text',
    complation_message: 'text',
    out_of_hours_message: 'text',
    rating_message: 'text',
    expires_inactive_message: 'text',
    expires_ticket: 'int4',
    time_use_bot_queues: 'int4',
    max_use_bot_queues: 'int4',
    time_to_transfer: 'int4',
    transfer_queue_id: 'int4',
    token: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  connection_queues: { company_id: 'int4', connection_id: 'int4', queue_id: 'int4' },
  connection_auth_keys: { company_id: 'int4', connection_id: 'int4', key: 'text', value: 'jsonb' },
  tags: {
    id: 'int4',
    company_id: 'int4',
    name: 'text',
    color: 'text',
    kanban: 'int4',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  contacts: {
    id: 'int4',
    company_id: 'int4',
    name: 'text',
    number: 'text',
    email: 'text',
    profile_pic_url: 'text',
    is_group: 'bool',
    extra_info: 'jsonb',
    whatsapp_id: 'int4',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  tickets: {
    id: 'int4',
    uuid: 'uuid',
    company_id: 'int4',
    status: 'text',
    contact_id: 'int4',
    user_id: 'int4',
    queue_id: 'int4',
    whatsapp_id: 'int4',
    last_message: 'text',
    unread_messages: 'int4',
    is_group: 'bool',
    chatbot: 'bool',
    queue_option_id: 'int4',
    amount_used_bot_queues: 'int4',
    accepted_at: 'timestamptz',
    finished_at: 'timestamptz',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  ticket_tags: { company_id: 'int4', ticket_id: 'int4', tag_id: 'int4' },
  ticket_notes: {
    id: 'int4',
    company_id: 'int4',
    note: 'text',
    user_id: 'int4',
    ticket_id: 'int4',
    contact_id: 'int4',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  user_ratings: {
    id: 'int4',
    company_id: 'int4',
    ticket_id: 'int4',
    user_id: 'int4',
    rate: 'int2',
    created_at: 'timestamptz',
  },
  messages: {
    id: 'int8',
    company_id: 'int4',
    ticket_id: 'int4',
    contact_id: 'int4',
    connection_id: 'int4',
    provider_message_id: 'text',
    body: 'text',
    from_me: 'bool',
    read: 'bool',
    media_type: 'text',
    media_path: 'text',
    media_name: 'text',
    media_mime: 'text',
    ack: 'int2',
    send_state: 'text',
    is_deleted: 'bool',
    is_edited: 'bool',
    is_forwarded: 'bool',
    quoted_msg_id: 'int8',
    participant: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  quick_messages: {
    id: 'int4',
    company_id: 'int4',
    user_id: 'int4',
    shortcode: 'text',
    message: 'text',
    geral: 'bool',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  schedules: {
    id: 'int4',
    company_id: 'int4',
    body: 'text',
    send_at: 'timestamptz',
    sent_at: 'timestamptz',
    contact_id: 'int4',
    ticket_id: 'int4',
    whatsapp_id: 'int4',
    user_id: 'int4',
    status: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  helps: {
    id: 'int4',
    title: 'text',
    description: 'text',
    video: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  announcements: {
    id: 'int4',
    title: 'text',
    text: 'text',
    priority: 'int4',
    status: 'bool',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  contact_lists: {
    id: 'int4',
    company_id: 'int4',
    name: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  contact_list_items: {
    id: 'int4',
    company_id: 'int4',
    contact_list_id: 'int4',
    name: 'text',
    number: 'text',
    email: 'text',
    is_whatsapp_valid: 'bool',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  prompts: {
    id: 'int4',
    company_id: 'int4',
    name: 'text',
    prompt: 'text',
    voice: 'text',
    voice_key_encrypted: 'text',
    voice_key_hint: 'text',
    voice_region: 'text',
    max_tokens: 'int4',
    temperature: 'float4',
    api_key_encrypted: 'text',
    api_key_hint: 'text',
    queue_id: 'int4',
    max_messages: 'int4',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  queue_integrations: {
    id: 'int4',
    company_id: 'int4',
    type: 'text',
    name: 'text',
    project_name: 'text',
    json_content_encrypted: 'text',
    json_content_hint: 'text',
    language: 'text',
    url_n8n: 'text',
    typebot_slug: 'text',
    typebot_expires: 'int4',
    typebot_delay_message: 'int4',
    typebot_keyword_finish: 'text',
    typebot_keyword_restart: 'text',
    typebot_unknown_message: 'text',
    typebot_restart_message: 'text',
    secret_encrypted: 'text',
    secret_hint: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  file_lists: {
    id: 'int4',
    company_id: 'int4',
    name: 'text',
    message: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  file_list_options: {
    id: 'int4',
    company_id: 'int4',
    file_list_id: 'int4',
    name: 'text',
    media_path: 'text',
    media_type: 'text',
    media_name: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  campaigns: {
    id: 'int4',
    company_id: 'int4',
    name: 'text',
    message1: 'text',
    message2: 'text',
    message3: 'text',
    message4: 'text',
    message5: 'text',
    confirmation_message1: 'text',
    confirmation_message2: 'text',
    confirmation_message3: 'text',
    confirmation_message4: 'text',
    confirmation_message5: 'text',
    status: 'text',
    confirmation: 'bool',
    scheduled_at: 'timestamptz',
    completed_at: 'timestamptz',
    whatsapp_id: 'int4',
    contact_list_id: 'int4',
    file_list_id: 'int4',
    media_path: 'text',
    media_name: 'text',
    media_mime: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  campaign_settings: {
    id: 'int4',
    company_id: 'int4',
    key: 'text',
    value: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  campaign_shipping: {
    id: 'int4',
    company_id: 'int4',
    campaign_id: 'int4',
    number: 'text',
    name: 'text',
    email: 'text',
    skipped: 'text',
    sent_at: 'timestamptz',
    delivered_at: 'timestamptz',
    confirmation_requested_at: 'timestamptz',
    confirmed_at: 'timestamptz',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  chats: {
    id: 'int4',
    company_id: 'int4',
    uuid: 'uuid',
    title: 'text',
    owner_id: 'int4',
    last_message: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  chat_users: {
    company_id: 'int4',
    chat_id: 'int4',
    user_id: 'int4',
    unreads: 'int4',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  chat_messages: {
    id: 'int4',
    company_id: 'int4',
    chat_id: 'int4',
    sender_id: 'int4',
    message: 'text',
    media_path: 'text',
    media_name: 'text',
    media_mime: 'text',
    created_at: 'timestamptz',
  },
  invoices: {
    id: 'int4',
    company_id: 'int4',
    detail: 'text',
    value: 'numeric',
    due_date: 'date',
    status: 'text',
    paid_at: 'timestamptz',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
} as const;

export type TargetTable = keyof typeof COLUMNS;
export type TargetRow<T extends TargetTable> = { [K in keyof (typeof COLUMNS)[T]]?: unknown };

export interface TargetState {
  companies: number;
  users: number;
  contacts: number;
  tickets: number;
  messages: number;
  /** Rows an earlier run of this import remembered (from any source). */
  mapped: number;
  /** Rows remembered from this source. */
  mappedFromSource: number;
}

export class ImportTarget {
  #savepoint = 0;

  private constructor(
    /** The target as the report names it: server and database, never credentials. */
    readonly label: string,
    private readonly client: pg.Client,
    /** The source's label: the map keeps each source's ids apart. */
    private readonly source: string,
    readonly dryRun: boolean,
  ) {}

  static async open(databaseUrl: string, source: string, dryRun: boolean): Promise<ImportTarget> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const parsed = new URL(databaseUrl);
    const label = `postgres://${parsed.hostname}:${parsed.port}${parsed.pathname}`;
    const target = new ImportTarget(label, client, source, dryRun);
    // A dry run is one transaction rolled back at the end: it runs every statement, keeps nothing.
    if (dryRun) await client.query('begin');
    return target;
  }

  async #rows<R>(sql: string, params: unknown[] = []): Promise<R[]> {
    return (await this.client.query(sql, params)).rows as R[];
  }

  async state(): Promise<TargetState> {
    const [counts] = await this.#rows<Record<string, string>>(
      `select (select count(*) from companies) as companies, (select count(*) from users) as users,
        (select count(*) from contacts) as contacts, (select count(*) from tickets) as tickets,
        (select count(*) from messages) as messages, to_regclass('${MAP_TABLE}') is not null as has_map`,
    );
    let mapped = 0;
    let mappedFromSource = 0;
    if (counts!.has_map) {
      const [row] = await this.#rows<{ all: string; mine: string }>(
        `select count(*) as all, count(*) filter (where source = $1) as mine from ${MAP_TABLE}`,
        [this.source],
      );
      mapped = Number(row!.all);
      mappedFromSource = Number(row!.mine);
    }
    return {
      companies: Number(counts!.companies),
      users: Number(counts!.users),
      contacts: Number(counts!.contacts),
      tickets: Number(counts!.tickets),
      messages: Number(counts!.messages),
      mapped,
      mappedFromSource,
    };
  }

  async prepare(): Promise<void> {
    await this.client.query(
      `create table if not exists ${MAP_TABLE} (
        source text not null, kind text not null, old_id text not null, new_id bigint not null,
        company_id integer, primary key (source, kind, old_id))`,
    );
  }

  /** One batch: committed as a whole (a savepoint inside the dry run's transaction). */
  async batch<T>(work: () => Promise<T>): Promise<T> {
    const name = `b${++this.#savepoint}`;
    await this.client.query(this.dryRun ? `savepoint ${name}` : 'begin');
    try {
      const result = await work();
      await this.client.query(this.dryRun ? `release savepoint ${name}` : 'commit');
      return result;
    } catch (error) {
      await this.client.query(this.dryRun ? `rollback to savepoint ${name}` : 'rollback');
      throw error;
    }
  }

  /** Every old id of `kind` remembered from this source, with its new id. */
  async mapOf(kind: string): Promise<Map<string, number>> {
    const rows = await this.#rows<{ old_id: string; new_id: string }>(
      `select old_id, new_id from ${MAP_TABLE} where source = $1 and kind = $2`,
      [this.source, kind],
    );
    return new Map(rows.map((row) => [row.old_id, Number(row.new_id)]));
  }

  /** Whether any row of `kind` is remembered from this source. */
  async remembers(kind: string): Promise<boolean> {
    const [row] = await this.#rows<{ found: boolean }>(
      `select exists (select 1 from ${MAP_TABLE} where source = $1 and kind = $2) as found`,
      [this.source, kind],
    );
    return row!.found;
  }

  /** The new ids of those of `oldIds` already imported. */
  async lookup(kind: string, oldIds: string[]): Promise<Map<string, number>> {
    if (!oldIds.length) return new Map();
    const rows = await this.#rows<{ old_id: string; new_id: string }>(
      `select old_id, new_id from ${MAP_TABLE} where source = $1 and kind = $2 and old_id = any($3::text[])`,
      [this.source, kind, oldIds],
    );
    return new Map(rows.map((row) => [row.old_id, Number(row.new_id)]));
  }

  async remember(kind: string, entries: { old: string; id: number; companyId: number | null }[]) {
    if (!entries.length) return;
    await this.client.query(
      `insert into ${MAP_TABLE} (source, kind, old_id, new_id, company_id)
       select $1, $2, * from unnest($3::text[], $4::int8[], $5::int4[])
       on conflict do nothing`,
      [
        this.source,
        kind,
        entries.map((e) => e.old),
        entries.map((e) => e.id),
        entries.map((e) => e.companyId),
      ],
    );
  }

  /**
   * `count` new ids of `table`, taken from its sequence, ascending: the rows of a page get them
   * in the source's order, which is what orders rows of equal time in our lists.
   */
  async allocate(table: TargetTable, count: number): Promise<number[]> {
    if (!count) return [];
    const rows = await this.#rows<{ id: string }>(
      `select nextval(pg_get_serial_sequence($1, 'id')) as id from generate_series(1, $2)`,
      [table, count],
    );
    return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
  }

  /**
   * The rows in one statement; columns left out of a row are written as null. Messages written
   * `withoutSearch` add no words to their tickets' search (migration 0034): the caller marks the
   * tickets with searchLater and builds their words with buildSearch.
   */
  async insert<T extends TargetTable>(
    table: T,
    rows: TargetRow<T>[],
    options: { onConflictDoNothing?: boolean; withoutSearch?: boolean } = {},
  ): Promise<void> {
    if (!rows.length) return;
    const types = COLUMNS[table] as Record<string, string>;
    const columns = Object.keys(types).filter((column) => rows.some((row) => column in row));
    const params = columns.map((column) =>
      rows.map((row) => {
        const value = (row as Record<string, unknown>)[column];
        if (value === undefined) return null;
        return types[column] === 'jsonb' ? JSON.stringify(value) : value;
      }),
    );
    const unnest = columns.map((column, i) => `$${i + 1}::${types[column]}[]`).join(', ');
    const identity = table === 'messages' ? ' overriding system value' : '';
    const conflict = options.onConflictDoNothing ? ' on conflict do nothing' : '';
    // Transaction-local, and set back at once: only this statement skips the words.
    if (options.withoutSearch) await this.#skipSearch(true);
    await this.client.query(
      `insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')})${identity} select * from unnest(${unnest})${conflict}`,
      params,
    );
    if (options.withoutSearch) await this.#skipSearch(false);
  }

  async #skipSearch(skip: boolean) {
    await this.client.query(`select set_config('atendi.skip_search', $1, true)`, [
      skip ? 'on' : 'off',
    ]);
  }

  /**
   * Marks tickets whose search words are to be built (messages written withoutSearch), in the
   * transaction of those messages: a run killed before buildSearch leaves the marks, and the
   * next run builds them.
   */
  async searchLater(tickets: { old: string; id: number; companyId: number }[]): Promise<void> {
    await this.remember(SEARCH_PENDING, tickets);
  }

  /** Tickets marked by searchLater and not built yet. */
  async searchPending(): Promise<number> {
    const [row] = await this.#rows<{ n: string }>(
      `select count(*) as n from ${MAP_TABLE} where source = $1 and kind = $2`,
      [this.source, SEARCH_PENDING],
    );
    return Number(row!.n);
  }

  /**
   * Builds the search words of up to `limit` marked tickets from scratch and takes their marks
   * off; answers how many it built. Every message's words, as the trigger adds them to a ticket
   * whose messages are written one at a time (ticket_search_build with no limit, migration 0035;
   * an edit's rebuild keeps the newest 200,000 characters). Tickets go in id order, the order
   * the triggers lock them in.
   */
  async buildSearch(limit: number): Promise<number> {
    const built = await this.#rows<{ id: string }>(
      `delete from ${MAP_TABLE} where source = $1 and kind = $2 and old_id in (
         select old_id from ${MAP_TABLE} where source = $1 and kind = $2 order by old_id limit $3)
       returning new_id as id`,
      [this.source, SEARCH_PENDING, limit],
    );
    const ids = built.map((row) => Number(row.id)).sort((a, b) => a - b);
    await this.client.query(
      'select count(ticket_search_build(id, null)) from unnest($1::int4[]) as id',
      [ids],
    );
    return ids.length;
  }

  // What is already here, read once per step (the merge rules and the unique keys need it).

  async plansByName(): Promise<Map<string, number>> {
    const rows = await this.#rows<{ id: number; name: string }>('select id, name from plans');
    return new Map(rows.map((row) => [row.name, row.id]));
  }

  async updatePlan(id: number, row: TargetRow<'plans'>): Promise<void> {
    await this.client.query(
      `update plans set users = $2, connections = $3, queues = $4, value = $5, use_campaigns = $6,
        use_schedules = $7, use_internal_chat = $8, use_external_api = $9, use_kanban = $10,
        use_open_ai = $11, use_integrations = $12 where id = $1`,
      [
        id,
        row.users,
        row.connections,
        row.queues,
        row.value,
        row.use_campaigns,
        row.use_schedules,
        row.use_internal_chat,
        row.use_external_api,
        row.use_kanban,
        row.use_open_ai,
        row.use_integrations,
      ],
    );
  }

  async companiesByName(): Promise<Map<string, number>> {
    const rows = await this.#rows<{ id: number; name: string }>('select id, name from companies');
    return new Map(rows.map((row) => [row.name, row.id]));
  }

  async userEmails(): Promise<Set<string>> {
    const rows = await this.#rows<{ email: string }>('select lower(email) as email from users');
    return new Set(rows.map((row) => row.email));
  }

  async setUserConnections(pairs: { userId: number; companyId: number; connectionId: number }[]) {
    if (!pairs.length) return;
    await this.client.query(
      `update users u set whatsapp_id = p.connection_id
       from unnest($1::int4[], $2::int4[], $3::int4[]) as p(user_id, company_id, connection_id)
       where u.id = p.user_id and u.company_id = p.company_id`,
      [pairs.map((p) => p.userId), pairs.map((p) => p.companyId), pairs.map((p) => p.connectionId)],
    );
  }

  /** The named rows (queues, connections, tags) of these companies, by company and name. */
  async namesOf(
    table: 'queues' | 'connections' | 'tags',
    companyIds: number[],
  ): Promise<{ id: number; companyId: number; name: string; color: string | null }[]> {
    const color = table === 'connections' ? 'null' : 'color';
    return this.#rows(
      `select id, company_id as "companyId", name, ${color} as color from ${table} where company_id = any($1::int4[])`,
      [companyIds],
    );
  }

  async connectionTokens(): Promise<Set<string>> {
    const rows = await this.#rows<{ token: string }>(
      'select token from connections where token is not null',
    );
    return new Set(rows.map((row) => row.token));
  }

  async contactsOf(
    companyIds: number[],
  ): Promise<{ id: number; companyId: number; number: string }[]> {
    return this.#rows(
      'select id, company_id as "companyId", number from contacts where company_id = any($1::int4[])',
      [companyIds],
    );
  }

  async liveTicketsOf(
    companyIds: number[],
  ): Promise<{ contactId: number; whatsappId: number | null }[]> {
    return this.#rows(
      `select contact_id as "contactId", whatsapp_id as "whatsappId" from tickets
       where company_id = any($1::int4[]) and status in ('open', 'pending')`,
      [companyIds],
    );
  }

  /** What a message of an imported ticket needs from it. */
  async ticketsByOldId(): Promise<
    Map<string, { id: number; companyId: number; connectionId: number | null; createdAt: Date }>
  > {
    const rows = await this.#rows<{
      old_id: string;
      id: number;
      company_id: number;
      whatsapp_id: number | null;
      created_at: Date;
    }>(
      `select m.old_id, t.id, t.company_id, t.whatsapp_id, t.created_at from ${MAP_TABLE} m
       join tickets t on t.id = m.new_id where m.source = $1 and m.kind = 'ticket'`,
      [this.source],
    );
    return new Map(
      rows.map((row) => [
        row.old_id,
        {
          id: row.id,
          companyId: row.company_id,
          connectionId: row.whatsapp_id,
          createdAt: row.created_at,
        },
      ]),
    );
  }

  async quickShortcodesOf(
    companyIds: number[],
  ): Promise<{ companyId: number; userId: number | null; geral: boolean; shortcode: string }[]> {
    return this.#rows(
      `select company_id as "companyId", user_id as "userId", geral, shortcode from quick_messages
       where company_id = any($1::int4[])`,
      [companyIds],
    );
  }

  /** Settings are one per company and key: the source's value wins over the one here. */
  async upsertSettings(rows: { companyId: number; key: string; value: string }[]): Promise<void> {
    if (!rows.length) return;
    await this.client.query(
      `insert into settings (company_id, key, value)
       select * from unnest($1::int4[], $2::text[], $3::text[])
       on conflict (company_id, key) do update set value = excluded.value, updated_at = now()`,
      [rows.map((r) => r.companyId), rows.map((r) => r.key), rows.map((r) => r.value)],
    );
  }

  /** The numbers already in each of these lists (a number is kept once per list). */
  async listNumbers(listIds: number[]): Promise<Set<string>> {
    const rows = await this.#rows<{ key: string }>(
      `select contact_list_id || ':' || number as key from contact_list_items where contact_list_id = any($1::int4[])`,
      [listIds],
    );
    return new Set(rows.map((row) => row.key));
  }

  /**
   * Points queues or connections at their prompt or integration (both of one company); an
   * integration only where none is set here yet.
   */
  async setReferences(
    table: 'queues' | 'connections',
    column: 'prompt_id' | 'integration_id',
    pairs: { id: number; ref: number }[],
  ) {
    if (!pairs.length) return;
    const [referenced, unset] =
      column === 'prompt_id'
        ? ['prompts', `x.prompt_id is distinct from p.ref`]
        : ['queue_integrations', 'x.integration_id is null'];
    await this.client.query(
      `update ${table} x set ${column} = p.ref
       from unnest($1::int4[], $2::int4[]) as p(id, ref), ${referenced} r
       where x.id = p.id and r.id = p.ref and r.company_id = x.company_id and ${unset}`,
      [pairs.map((p) => p.id), pairs.map((p) => p.ref)],
    );
  }

  /**
   * The unique keys of `table` already here, each as `company:key`: campaign settings' keys,
   * invoices' due days, campaign recipients' `campaign:number`.
   */
  async keysOf(
    table: 'campaign_settings' | 'invoices' | 'campaign_shipping',
    companyIds: number[],
  ): Promise<Set<string>> {
    const key = {
      campaign_settings: 'key',
      invoices: 'due_date::text',
      campaign_shipping: `campaign_id || ':' || number`,
    }[table];
    const rows = await this.#rows<{ key: string }>(
      `select company_id || ':' || ${key} as key from ${table} where company_id = any($1::int4[])`,
      [companyIds],
    );
    return new Set(rows.map((row) => row.key));
  }

  async chatUuids(): Promise<Set<string>> {
    const rows = await this.#rows<{ uuid: string }>('select uuid::text as uuid from chats');
    return new Set(rows.map((row) => row.uuid));
  }

  /**
   * Whether our database holds messages this source's import did not write (a --merge target,
   * or a company that worked here before): only then can a WhatsApp id be here already.
   */
  async hasOtherMessages(): Promise<boolean> {
    const [row] = await this.#rows<{ found: boolean }>(
      `select exists (select 1 from messages m where not exists (
         select 1 from ${MAP_TABLE} x where x.source = $1 and x.kind = 'message' and x.new_id = m.id
       )) as found`,
      [this.source],
    );
    return row!.found;
  }

  /**
   * The messages of these companies already here under one of these WhatsApp ids, the oldest
   * first. Read through the unique index of (connection, WhatsApp id): every connection of the
   * companies, and none (a connection deleted here).
   */
  async messagesByWhatsappId(
    companyIds: number[],
    whatsappIds: string[],
  ): Promise<{ whatsappId: string; id: number; companyId: number }[]> {
    if (!companyIds.length || !whatsappIds.length) return [];
    const rows = await this.#rows<{ whatsapp_id: string; id: string; company_id: number }>(
      `select m.provider_message_id as whatsapp_id, m.id, m.company_id from messages m
       where m.provider_message_id = any($2::text[]) and m.company_id = any($1::int4[])
         and (m.connection_id = any(array(select id from connections where company_id = any($1::int4[])))
              or m.connection_id is null)
       order by m.id`,
      [companyIds, whatsappIds],
    );
    return rows.map((row) => ({
      whatsappId: row.whatsapp_id,
      id: Number(row.id),
      companyId: row.company_id,
    }));
  }

  /**
   * Sets each message's quote where it has none (within its company: a quote never crosses
   * companies); a message that was here before the import keeps the quote it has.
   */
  async linkQuotes(links: { id: number; quoted: number }[]): Promise<void> {
    if (!links.length) return;
    await this.client.query(
      `update messages m set quoted_msg_id = l.quoted
       from unnest($1::int8[], $2::int8[]) as l(id, quoted), messages q
       where m.id = l.id and q.id = l.quoted and q.company_id = m.company_id
         and m.quoted_msg_id is null`,
      [links.map((l) => l.id), links.map((l) => l.quoted)],
    );
  }

  /** Our company of each new id remembered under `kind`. */
  async companiesOfMapped(kind: string): Promise<Map<number, number>> {
    const rows = await this.#rows<{ new_id: string; company_id: number }>(
      `select new_id, company_id from ${MAP_TABLE} where source = $1 and kind = $2 and company_id is not null`,
      [this.source, kind],
    );
    return new Map(rows.map((row) => [Number(row.new_id), row.company_id]));
  }

  /** The contact of each imported ticket. */
  async contactOfTickets(): Promise<Map<number, number>> {
    const rows = await this.#rows<{ id: number; contact_id: number }>(
      `select t.id, t.contact_id from ${MAP_TABLE} m join tickets t on t.id = m.new_id
       where m.source = $1 and m.kind = 'ticket'`,
      [this.source],
    );
    return new Map(rows.map((row) => [row.id, row.contact_id]));
  }

  /** Tickets that have their rating (one each). */
  async ratedTickets(): Promise<Set<number>> {
    const rows = await this.#rows<{ ticket_id: number }>('select ticket_id from user_ratings');
    return new Set(rows.map((row) => row.ticket_id));
  }

  async close(): Promise<void> {
    if (this.dryRun) await this.client.query('rollback').catch(() => {});
    await this.client.end();
  }
}
