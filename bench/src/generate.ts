import type pg from 'pg';
import { hashPassword } from '../../apps/server/src/platform/auth/passwords';

/** Sizes of the main company at scale 1 (the "full size"). */
export const FULL = {
  tickets: 100_000,
  messages: 1_000_000,
  contacts: 50_000,
  users: 30,
  queues: 10,
  tags: 20,
  /** Messages of the one long conversation the message-page benchmark reads. */
  longConversation: 5_000,
};

export const PASSWORD = 'bench-password';

const WORDS = [
  'pedido',
  'entrega',
  'boleto',
  'pagamento',
  'atraso',
  'troca',
  'garantia',
  'nota',
  'fiscal',
  'cancelamento',
  'desconto',
  'cupom',
  'frete',
  'prazo',
  'produto',
  'tamanho',
  'cor',
  'estoque',
  'orçamento',
  'suporte',
  'senha',
  'acesso',
  'cadastro',
  'endereço',
  'retirada',
  'loja',
  'pix',
  'cartão',
  'parcelas',
  'reembolso',
  'obrigado',
  'bom',
  'dia',
  'tarde',
  'noite',
  'olá',
  'ajuda',
];

export interface Generated {
  companyId: number;
  adminEmail: string;
  /** A user who sees only two queues. */
  agentEmail: string;
  agentQueueIds: number[];
  queueIds: number[];
  tagIds: number[];
  userIds: number[];
  connectionId: number;
  longTicketId: number;
  /** A word found in message bodies, a contact name fragment and a number fragment. */
  search: { body: string; name: string; number: string };
  counts: Record<string, number>;
  seconds: number;
  /** Seconds spent inserting each table, over all companies, and in the final vacuum. */
  steps: Record<string, number>;
}

/**
 * Seeds one company at `scale` (1 = 100,000 tickets and 1,000,000 messages) plus 20 smaller
 * companies beside it, with set-based SQL: a handful of statements, not a row at a time.
 */
export async function generate(pool: pg.Pool, scale: number, tag: string): Promise<Generated> {
  const started = Date.now();
  const n = (value: number) => Math.max(1, Math.round(value * scale));
  const passwordHash = await hashPassword(PASSWORD);
  const client = await pool.connect();
  const steps: Record<string, number> = {};
  const timed = async <T>(step: string, work: Promise<T>) => {
    const at = Date.now();
    const result = await work;
    steps[step] = Math.round(((steps[step] ?? 0) + (Date.now() - at) / 1000) * 100) / 100;
    return result;
  };
  try {
    const [{ id: planId }] = (
      await client.query(
        `insert into plans (name, users, connections, queues, value, use_campaigns, use_kanban)
         values ($1, 0, 0, 0, 0, true, true) returning id`,
        [`Bench ${tag}`],
      )
    ).rows;
    const main = await seedCompany(client, timed, {
      name: `Bench ${tag}`,
      planId,
      passwordHash,
      sizes: {
        contacts: n(FULL.contacts),
        tickets: n(FULL.tickets),
        messages: n(FULL.messages),
        users: FULL.users,
        queues: FULL.queues,
        tags: FULL.tags,
        longConversation: FULL.longConversation,
      },
    });
    // Neighbours: the main company's lists must not grow with them.
    for (let i = 0; i < 20; i++) {
      await seedCompany(client, timed, {
        name: `Bench ${tag} neighbour ${i}`,
        planId,
        passwordHash,
        sizes: {
          contacts: n(FULL.contacts / 100),
          tickets: n(FULL.tickets / 100),
          messages: n(FULL.messages / 100),
          users: 3,
          queues: 2,
          tags: 3,
          longConversation: 10,
        },
      });
    }
    // As autovacuum would have left a live database: statistics and the visibility map.
    await timed('vacuum', client.query('vacuum analyze'));
    const counts: Record<string, number> = {};
    for (const table of ['tickets', 'messages', 'contacts']) {
      const { rows } = await client.query(
        `select count(*)::int as n from ${table} where company_id = $1`,
        [main.companyId],
      );
      counts[table] = rows[0].n;
    }
    return { ...main, counts, seconds: (Date.now() - started) / 1000, steps };
  } finally {
    client.release();
  }
}

interface Sizes {
  contacts: number;
  tickets: number;
  messages: number;
  users: number;
  queues: number;
  tags: number;
  longConversation: number;
}

async function seedCompany(
  client: pg.PoolClient,
  timed: <T>(step: string, work: Promise<T>) => Promise<T>,
  options: { name: string; planId: number; passwordHash: string; sizes: Sizes },
) {
  const { sizes } = options;
  const slug = options.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const one = async <T>(text: string, values: unknown[] = []) =>
    (await client.query(text, values)).rows[0] as T;
  const { id: companyId } = await one<{ id: number }>(
    `insert into companies (name, email, plan_id, due_date) values ($1, $2, $3, '2099-12-31') returning id`,
    [options.name, `${slug}@bench.example`, options.planId],
  );
  const q = (text: string, values: unknown[] = []) =>
    timed(
      /insert into (\w+)/.exec(text)?.[1] ?? 'read',
      client.query(text, [companyId, ...values]),
    );

  await q(
    `insert into users (company_id, name, email, password_hash, profile, super, all_ticket)
     select $1, case when g = 1 then 'Admin' else 'Agente ' || g end,
       case when g = 1 then $2 else 'agent' || g || '.' || $3 end, $4,
       case when g = 1 then 'admin' else 'user' end, false, 'desabled'
     from generate_series(1, $5::int) g`,
    [`admin.${slug}@bench.example`, `${slug}@bench.example`, options.passwordHash, sizes.users],
  );
  await q(
    `insert into queues (company_id, name, color, order_queue)
     select $1, 'Fila ' || g, '#' || lpad(to_hex(g * 1234567 % 16777215), 6, '0'), g
     from generate_series(1, $2::int) g`,
    [sizes.queues],
  );
  await q(
    `insert into user_queues (company_id, user_id, queue_id)
     select $1, u.id, q.id from users u
     join lateral (select id from queues where company_id = $1 order by (id + u.id) % $2 limit 2) q on true
     where u.company_id = $1 and u.profile = 'user'`,
    [sizes.queues],
  );
  await q(
    // The first five are kanban lanes (the board's benchmark reads them).
    `insert into tags (company_id, name, color, kanban)
     select $1, 'Etiqueta ' || g, '#' || lpad(to_hex(g * 7654321 % 16777215), 6, '0'),
       case when g <= 5 then 1 else 0 end
     from generate_series(1, $2::int) g`,
    [sizes.tags],
  );
  const { id: connectionId } = await one<{ id: number }>(
    `insert into connections (company_id, name, provider, is_default, status)
     values ($1, 'Simulador', 'simulator', true, 'CONNECTED') returning id`,
    [companyId],
  );
  await q(
    `insert into contacts (company_id, name, number, email, created_at)
     select $1, 'Contato ' || g || ' ' || (array['Silva','Souza','Oliveira','Santos','Lima','Costa'])[1 + g % 6],
       '55' || (11900000000 + g)::text, 'contato' || g || '@example.com',
       now() - (random() * interval '365 days')
     from generate_series(1, $2::int) g`,
    [sizes.contacts],
  );
  // The first ticket of each contact may be live (one per contact and connection); later ones are
  // closed. Statuses: 60% closed, 25% open, 15% pending; 10% without a queue. Queue and agent are
  // drawn by hashes of g, so they do not follow the status (every queue has tickets of every
  // status, the waiting line of no queue included); an agent gets tickets of its own queues.
  await q(
    `with c as (select id, row_number() over (order by id) as rn from contacts where company_id = $1),
          u as (select array_agg(id order by id) ids from users where company_id = $1 and profile = 'user'),
          qs as (select array_agg(id order by id) ids from queues where company_id = $1),
          members as (select uq.queue_id, array_agg(uq.user_id order by uq.user_id) ids
                      from user_queues uq where uq.company_id = $1 group by uq.queue_id)
     insert into tickets (company_id, contact_id, whatsapp_id, status, user_id, queue_id,
       last_message, unread_messages, created_at, updated_at, accepted_at, finished_at)
     select $1, c.id, $2::int, s.status,
       case when s.status = 'pending' then null
         when m.ids is null then u.ids[1 + abs(hashint4(g + 2)) % array_length(u.ids, 1)]
         else m.ids[1 + abs(hashint4(g + 2)) % array_length(m.ids, 1)] end,
       tq.queue_id,
       'mensagem ' || g, case when s.status <> 'closed' and g % 3 = 0 then 1 + g % 5 else 0 end,
       t.at - interval '2 days', t.at,
       case when s.status <> 'pending' then t.at - interval '2 days' + (g % 90) * interval '1 minute' end,
       case when s.status = 'closed' then t.at end
     from generate_series(1, $3::int) g
     cross join u cross join qs
     join c on c.rn = 1 + (g - 1) % $4::int
     cross join lateral (select case when abs(hashint4(g + 1)) % 10 = 0 then null
       else qs.ids[1 + abs(hashint4(g)) % array_length(qs.ids, 1)] end as queue_id) tq
     left join members m on m.queue_id = tq.queue_id
     cross join lateral (select now() - (g::double precision / $3::int) * interval '90 days' as at) t
     cross join lateral (select case
       when g > $4::int then 'closed'
       when g % 20 < 12 then 'closed' when g % 20 < 17 then 'open' else 'pending' end as status) s`,
    [connectionId, sizes.tickets, sizes.contacts],
  );
  const { id: longTicketId } = await one<{ id: number }>(
    `select id from tickets where company_id = $1 order by updated_at desc limit 1`,
    [companyId],
  );
  // Messages spread over the tickets, plus one long conversation.
  await q(
    `with t as (select id, contact_id, updated_at, row_number() over (order by id) rn
                from tickets where company_id = $1),
          total as (select count(*) n from t),
          words as (select $2::text[] w)
     insert into messages (company_id, ticket_id, contact_id, connection_id, body, from_me, read, ack,
       created_at, updated_at)
     select $1, t.id, t.contact_id, $3::int,
       w[1 + g % array_length(w, 1)] || ' ' || w[1 + (g / 7) % array_length(w, 1)] || ' ' ||
         w[1 + (g / 49) % array_length(w, 1)] || ' #' || g,
       g % 2 = 0, true, case when g % 2 = 0 then 4 else 3 end,
       t.updated_at - (g % 1000) * interval '1 minute', t.updated_at - (g % 1000) * interval '1 minute'
     from generate_series(1, $4::int) g
     cross join total cross join words
     join t on t.rn = 1 + (g - 1) % total.n`,
    [WORDS, connectionId, Math.max(0, sizes.messages - sizes.longConversation)],
  );
  await q(
    `insert into messages (company_id, ticket_id, contact_id, connection_id, body, from_me, read, ack,
       created_at, updated_at)
     select $1, t.id, t.contact_id, $2::int, 'conversa longa ' || g, g % 2 = 0, true, 4,
       now() - ($3::int - g) * interval '1 minute', now() - ($3::int - g) * interval '1 minute'
     from generate_series(1, $3::int) g, tickets t where t.id = $4::int`,
    [connectionId, sizes.longConversation, longTicketId],
  );
  // A third of the tickets carry a tag, drawn by a hash of the id: with `id % tags` the tags would
  // follow the statuses above (both cycle on the id) and the kanban tags hold no live ticket.
  await q(
    `insert into ticket_tags (company_id, ticket_id, tag_id)
     select $1, t.id, tg.ids[1 + abs(hashint4(t.id + 7)) % array_length(tg.ids, 1)]
     from tickets t, (select array_agg(id order by id) ids from tags where company_id = $1) tg
     where t.company_id = $1 and t.id % 3 = 0
     on conflict do nothing`,
  );
  // A contact's 1-3 on every fourth closed ticket, given when it closed (the dashboard's ratings).
  await q(
    `insert into user_ratings (company_id, ticket_id, user_id, rate, created_at)
     select $1, t.id, t.user_id, 1 + t.id % 3, t.finished_at
     from tickets t
     where t.company_id = $1 and t.status = 'closed' and t.user_id is not null and t.id % 4 = 0`,
  );
  const ids = async (table: string, where = '') =>
    (await q(`select id from ${table} where company_id = $1 ${where} order by id`)).rows.map(
      (row) => row.id as number,
    );
  const userIds = await ids('users');
  const agent = await one<{ email: string; id: number }>(
    `select email, id from users where company_id = $1 and profile = 'user' order by id limit 1`,
    [companyId],
  );
  const agentQueueIds = (
    await client.query('select queue_id from user_queues where user_id = $1 order by queue_id', [
      agent.id,
    ])
  ).rows.map((row) => row.queue_id as number);
  return {
    companyId,
    adminEmail: `admin.${slug}@bench.example`,
    agentEmail: agent.email,
    agentQueueIds,
    queueIds: await ids('queues'),
    tagIds: await ids('tags'),
    userIds,
    connectionId,
    longTicketId,
    search: { body: 'reembolso', name: 'Oliveira', number: '11900000' },
  };
}
