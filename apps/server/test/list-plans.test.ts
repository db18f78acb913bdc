import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { agent, inboxCompany, inboxFactories } from './inbox';
import { reportsScreenQuery } from './original-screens';
import { statementsOf as appStatements, type Statement } from './statements';

/**
 * The list calls, checked by the shape of their queries rather than by timings: each statement a
 * list runs is explained with sequential scans priced out (a test database is too small for the
 * planner to prefer indexes on its own), and no plan may still read tickets, messages, contacts
 * or the search documents from end to end; and a list runs a fixed number of statements, however
 * many rows it answers (no query per row).
 */

const BIG_TABLES = ['tickets', 'messages', 'contacts', 'ticket_search', 'ticket_tags'];

let t: TestServer;
let make: ReturnType<typeof inboxFactories>;
let company: Awaited<ReturnType<typeof inboxCompany>>;
let agentToken: string;
let queueId: number;
let tagIds: number[];
let longTicketId: number;
/** A contact's newest ticket after earlier ones on the same connection. */
let returningTicketId: number;
let earlierTicketIds: number[];

/** Every statement the app sends while `work` runs, the session check excepted. */
async function statementsOf(work: () => Promise<unknown>): Promise<Statement[]> {
  const seen = await appStatements(t.database.pool, work);
  return seen.filter((statement) => !/\bauth_sessions\b/.test(statement.text));
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/**
 * Every node of a statement's plan, with seqscans priced out (and sorts too, with `sorts`
 * false: a sort left in the plan is then one no index could spare).
 */
async function planOf(statement: Statement, { sorts = true } = {}): Promise<PlanNode[]> {
  const client = await t.database.pool.connect();
  try {
    await client.query('begin');
    await client.query('set local enable_seqscan = off');
    if (!sorts) await client.query('set local enable_sort = off');
    const { rows } = await client.query({
      text: `explain (format json) ${statement.text}`,
      values: statement.values,
    });
    const nodes: PlanNode[] = [];
    const walk = (node: PlanNode) => {
      nodes.push(node);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(rows[0]['QUERY PLAN'][0].Plan);
    return nodes;
  } finally {
    await client.query('rollback');
    client.release();
  }
}

/** The sequential scans of big tables in a statement's plan, with seqscans priced out. */
async function seqScans(statement: Statement): Promise<string[]> {
  return (await planOf(statement))
    .filter(
      (node) =>
        node['Node Type'] === 'Seq Scan' && BIG_TABLES.includes(node['Relation Name'] ?? ''),
    )
    .map((node) => node['Relation Name']!);
}

/** More of everything: tickets with messages and tags, messages in the long conversation. */
async function grow(tickets: number, messagesPerTicket: number) {
  for (let i = 0; i < tickets; i++) {
    const status = (['open', 'pending', 'closed'] as const)[i % 3];
    const ticket = await make.ticket(company.companyId, {
      whatsappId: company.connection.id,
      queueId: i % 2 ? queueId : null,
      status,
      userId: status === 'pending' ? null : company.admin.id,
      unreadMessages: i % 4,
    });
    for (let m = 0; m < messagesPerTicket; m++) {
      await make.message(company.companyId, ticket.id, { body: `pedido de reembolso ${i}-${m}` });
    }
    for (const tagId of tagIds.slice(0, 1 + (i % 2))) {
      await make.tagTicket(company.companyId, ticket.id, tagId);
    }
  }
  for (const ticketId of [...earlierTicketIds, returningTicketId]) {
    for (let m = 0; m < Math.max(tickets, 1); m++) {
      await make.message(company.companyId, ticketId, { body: `de novo ${m}` });
    }
  }
  await t.database.db.execute(sql`
    insert into messages (company_id, ticket_id, body)
    select ${company.companyId}, ${longTicketId}, 'conversa longa ' || g
    from generate_series(1, 100) g`);
}

const today = new Date().toISOString().slice(0, 10);

const CASES: { name: string; as: 'admin' | 'agent'; path: () => string }[] = [
  {
    name: 'tickets open, admin, show all',
    as: 'admin',
    path: () => '/tickets?status=open&showAll=true',
  },
  {
    name: 'tickets pending, admin, show all',
    as: 'admin',
    path: () => '/tickets?status=pending&showAll=true',
  },
  {
    name: 'tickets closed, page 2',
    as: 'admin',
    path: () => '/tickets?status=closed&showAll=true&pageNumber=2',
  },
  { name: 'tickets open, agent', as: 'agent', path: () => '/tickets?status=open' },
  {
    name: 'tickets pending, agent of a queue',
    as: 'agent',
    path: () => `/tickets?status=pending&queueIds=[${queueId}]`,
  },
  { name: 'tickets, every status, agent', as: 'agent', path: () => '/tickets' },
  {
    name: 'tickets with tags',
    as: 'admin',
    path: () => `/tickets?showAll=true&tags=[${tagIds.join(',')}]`,
  },
  {
    name: 'tickets with users',
    as: 'admin',
    path: () => `/tickets?showAll=true&users=[${company.admin.id}]`,
  },
  {
    name: 'tickets with unread messages',
    as: 'admin',
    path: () => '/tickets?status=open&showAll=true&withUnreadMessages=true',
  },
  {
    name: 'tickets of a day',
    as: 'admin',
    path: () => `/tickets?showAll=true&date=${today}&updatedAt=${today}`,
  },
  {
    name: 'search: a word of the messages',
    as: 'admin',
    path: () => '/tickets?showAll=true&searchParam=reembolso',
  },
  {
    name: 'search: a contact name, agent',
    as: 'agent',
    path: () => '/tickets?searchParam=contact',
  },
  { name: 'search: a number', as: 'admin', path: () => '/tickets?showAll=true&searchParam=5511' },
  { name: 'messages page 1', as: 'admin', path: () => `/messages/${longTicketId}?pageNumber=1` },
  { name: 'messages page 3', as: 'admin', path: () => `/messages/${longTicketId}?pageNumber=3` },
  {
    name: 'messages of a returning contact',
    as: 'agent',
    path: () => `/messages/${returningTicketId}?pageNumber=1`,
  },
  {
    name: 'messages of a returning contact, page 2',
    as: 'agent',
    path: () => `/messages/${returningTicketId}?pageNumber=2`,
  },
  {
    name: 'kanban board, admin',
    as: 'admin',
    path: () => '/ticket/kanban?queueIds=%5B%5D&teste=true',
  },
  { name: 'kanban board, agent', as: 'agent', path: () => `/ticket/kanban?queueIds=[${queueId}]` },
  {
    name: 'kanban lane',
    as: 'agent',
    path: () => `/ticket/kanban?tagId=${tagIds[1]}&pageNumber=2`,
  },
  { name: 'contacts page 1', as: 'admin', path: () => '/contacts?pageNumber=1' },
  { name: 'contacts with searchParam', as: 'admin', path: () => '/contacts?searchParam=contact' },
  {
    name: 'contacts created in a range',
    as: 'admin',
    path: () => `/contacts?dateStart=${today}&dateEnd=${today}`,
  },
  { name: 'contacts for pickers', as: 'admin', path: () => '/contacts/list?name=contact' },
  { name: 'dashboard, last 90 days', as: 'admin', path: () => '/dashboard?days=90' },
  {
    name: 'dashboard, a range of dates',
    as: 'admin',
    path: () => `/dashboard?date_from=2020-01-01&date_to=${today}`,
  },
  {
    name: 'dashboard chart: tickets per user',
    as: 'admin',
    path: () => `/dashboard/ticketsUsers?initialDate=2020-01-01&finalDate=${today}`,
  },
  {
    name: 'dashboard chart: tickets per day',
    as: 'admin',
    path: () => `/dashboard/ticketsDay?initialDate=2020-01-01&finalDate=${today}`,
  },
  {
    name: 'dashboard chart: tickets per hour',
    as: 'admin',
    path: () => `/dashboard/ticketsDay?initialDate=${today}&finalDate=${today}`,
  },
  // The original client's report charts and reports screen, as it sends them.
  ...['appointmentsAtendent', 'rushHour', 'departamentRatings'].map((report) => ({
    name: `report chart: ${report}`,
    as: 'admin' as const,
    path: () => `/reports/${report}?initialDate=2020-01-01&finalDate=${today}&companyId=1`,
  })),
  {
    name: 'ticket report, page 1',
    as: 'admin',
    path: () => `/ticket/reports?${new URLSearchParams(reportsScreenQuery('2020-01-01', today))}`,
  },
  {
    name: 'ticket report, closed, of a queue, page 2',
    as: 'admin',
    path: () =>
      `/ticket/reports?${new URLSearchParams(
        reportsScreenQuery('2020-01-01', today, {
          status: '["closed"]',
          queueIds: `[${queueId}]`,
          page: '2',
        }),
      )}`,
  },
];

async function run(item: (typeof CASES)[number]) {
  const token = item.as === 'admin' ? company.adminToken : agentToken;
  let status = 0;
  const statements = await statementsOf(async () => {
    status = (await t.as(token).get(item.path())).statusCode;
  });
  expect(status, item.name).toBe(200);
  return statements;
}

beforeAll(async () => {
  // The sweep for connections nobody owns runs every few seconds on its own; on a loaded machine
  // it falls inside a counted request's window. No connection here runs a session, so it waits.
  t = await startTestServer({}, undefined, { channels: { manager: { sweepMs: 24 * 3_600_000 } } });
  make = inboxFactories(t);
  company = await inboxCompany(t);
  await t.database.db.execute(
    sql`update plans set use_kanban = true where id = ${company.company.planId}`,
  );
  queueId = (await t.make.queue(company.companyId, { name: 'Fila' })).id;
  agentToken = (await agent(t, company.companyId, { queueIds: [queueId], allTicket: 'enabled' }))
    .token;
  tagIds = [
    (await make.tag(company.companyId, { name: 'Urgente', kanban: 1 })).id,
    (await make.tag(company.companyId, { name: 'VIP', kanban: 1 })).id,
  ];
  longTicketId = (
    await make.ticket(company.companyId, { whatsappId: company.connection.id, status: 'open' })
  ).id;
  const returning = await make.contact(company.companyId);
  const onConnection = { contactId: returning.id, whatsappId: company.connection.id };
  earlierTicketIds = [];
  for (let i = 0; i < 3; i++) {
    earlierTicketIds.push(
      (await make.ticket(company.companyId, { ...onConnection, status: 'closed' })).id,
    );
  }
  returningTicketId = (
    await make.ticket(company.companyId, { ...onConnection, status: 'open', queueId })
  ).id;
  await grow(4, 2);
});
afterAll(() => t.stop());

describe('every list query', () => {
  it('is checked by a walk that sees a sequential scan where no index serves', async () => {
    const statement = { text: 'select id from tickets where last_message = $1', values: ['x'] };
    expect(await seqScans(statement)).toEqual(['tickets']);
    const grown = await statementsOf(() => t.as(company.adminToken).get('/tickets?showAll=true'));
    expect(grown.map((s) => s.text.slice(0, 6))).toEqual(['select', 'select']);
  });

  it('reads tickets, messages, contacts and search documents through indexes', async () => {
    const failures: string[] = [];
    for (const item of CASES) {
      for (const statement of await run(item)) {
        const scans = await seqScans(statement);
        if (scans.length > 0) {
          failures.push(`${item.name}: seq scan of ${scans.join(', ')} in ${statement.text}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("reads a conversation's page in the index's order, sorting nothing, across tickets", async () => {
    for (const item of CASES.filter((c) => c.path().startsWith('/messages/'))) {
      const page = (await run(item)).filter(
        (s) => /\bfrom "messages"/.test(s.text) && /\blimit\b/i.test(s.text),
      );
      expect(page, item.name).toHaveLength(1);
      const nodes = await planOf(page[0]!, { sorts: false });
      expect(
        nodes.map((node) => node['Node Type']).filter((type) => /Sort/.test(type)),
        item.name,
      ).toEqual([]);
      expect(
        nodes.some(
          (node) => node['Relation Name'] === 'messages' && /Index/.test(node['Node Type']),
        ),
        item.name,
      ).toBe(true);
    }
  });

  it("walks each kanban lane in its index's order, sorting nothing, in one statement for the board", async () => {
    const under = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(under)];
    for (const item of CASES.filter((c) => c.path().startsWith('/ticket/kanban'))) {
      const statements = await run(item);
      expect(statements, item.name).toHaveLength(1);
      const nodes = await planOf(statements[0]!, { sorts: false });
      const pages = nodes.filter((node) => node['Node Type'] === 'Limit');
      expect(pages.length, item.name).toBeGreaterThan(0);
      for (const page of pages) {
        const walked = under(page);
        expect(walked.map((node) => node['Node Type']).filter((type) => /Sort/.test(type))).toEqual(
          [],
        );
        expect(walked.map((node) => node['Index Name'])).toContain(
          'tickets_company_lane_updated_idx',
        );
      }
    }
  });

  it('runs a fixed number of statements, however many rows it answers', async () => {
    const before = new Map<string, number>();
    for (const item of CASES) before.set(item.name, (await run(item)).length);
    await grow(45, 1);
    for (const item of CASES) {
      const statements = await run(item);
      expect(statements.length, item.name).toBe(before.get(item.name));
      // A page of tickets or contacts is its rows and its count; a ticket search by words first
      // has PostgreSQL split them as it split the documents (a number needs no splitting).
      const path = item.path();
      if (path.startsWith('/tickets') || path.startsWith('/contacts?')) {
        const words = path.startsWith('/tickets') && /searchParam=[^&]*[a-z]/.test(path);
        expect(statements.length, item.name).toBe(words ? 3 : 2);
      }
      // A report's page is its rows and its count; the attendance chart, users and queues.
      if (path.startsWith('/ticket/reports') || path.startsWith('/reports/appointments')) {
        expect(statements.length, item.name).toBe(2);
      }
      // The dashboard, counters and attendants, is one statement, and so is each chart.
      if (path.startsWith('/dashboard')) expect(statements.length, item.name).toBe(1);
      // The board, every lane or one, is one statement.
      if (path.startsWith('/ticket/kanban')) expect(statements.length, item.name).toBe(1);
    }
  });
});
