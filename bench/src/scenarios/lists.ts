import { performance } from 'node:perf_hooks';
import { reportsScreenQuery } from '../../../apps/server/test/original-screens';
import type { BenchServer } from '../environment';
import { type Generated, PASSWORD } from '../generate';
import { round, summarise } from '../stats';

export interface ListResult {
  name: string;
  path: string;
  p50: number;
  p95: number;
  p99: number;
  requestsPerSecond: number;
  /** How many rows the first answer listed (a case that answers nothing measures nothing). */
  rows: number;
}

export async function login(server: Pick<BenchServer, 'url'>, email: string): Promise<string> {
  const response = await fetch(`${server.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!response.ok) throw new Error(`login ${email}: ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

const rowsOf = (body: Record<string, unknown> | unknown[]) => {
  if (Array.isArray(body)) return body.length;
  const list =
    body.tickets ??
    body.messages ??
    body.contacts ??
    body.records ??
    body.attendants ??
    body.appointmentsByAttendents ??
    body.data;
  return Array.isArray(list) ? list.length : 0;
};

/** A calendar day `n` days back (UTC; the charts only need a period of about that length). */
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/**
 * The lists agents open all day, over HTTP on 127.0.0.1 after a warm-up: latency percentiles of
 * sequential calls and requests per second.
 */
export async function listScenarios(
  server: BenchServer,
  data: Generated,
  options: { requests: number; warmup: number },
): Promise<ListResult[]> {
  const admin = await login(server, data.adminEmail);
  const agent = await login(server, data.agentEmail);
  const tags = JSON.stringify(data.tagIds.slice(0, 1));
  const users = JSON.stringify(data.userIds.slice(1, 3));
  const chartPeriod = `initialDate=${daysAgo(29)}&finalDate=${daysAgo(0)}&companyId=1`;
  /** The reports screen's query, a page of 20 of the last 30 days. */
  const ticketReport = (filters: Record<string, string>) =>
    new URLSearchParams(
      reportsScreenQuery(daysAgo(29), daysAgo(0), { pageSize: '20', ...filters }),
    ).toString();
  const cases: { name: string; token: string; path: string }[] = [
    {
      name: 'tickets open, admin, show all',
      token: admin,
      path: '/tickets?status=open&showAll=true&pageNumber=1',
    },
    {
      name: 'tickets pending, admin, show all',
      token: admin,
      path: '/tickets?status=pending&showAll=true&pageNumber=1',
    },
    {
      name: 'tickets open, user of 2 queues',
      token: agent,
      path: `/tickets?status=open&queueIds=${JSON.stringify(data.agentQueueIds)}&pageNumber=1`,
    },
    {
      name: 'tickets pending, user of 2 queues',
      token: agent,
      path: `/tickets?status=pending&queueIds=${JSON.stringify(data.agentQueueIds)}&pageNumber=1`,
    },
    {
      name: 'tickets with tags filter',
      token: admin,
      path: `/tickets?showAll=true&tags=${tags}&pageNumber=1`,
    },
    {
      name: 'tickets with users filter',
      token: admin,
      path: `/tickets?showAll=true&users=${users}&pageNumber=1`,
    },
    {
      name: 'tickets with unread messages',
      token: admin,
      path: '/tickets?status=open&showAll=true&withUnreadMessages=true&pageNumber=1',
    },
    {
      name: 'tickets closed, page 50',
      token: admin,
      path: '/tickets?status=closed&showAll=true&pageNumber=50',
    },
    {
      name: 'search: word in message bodies',
      token: admin,
      path: `/tickets?showAll=true&searchParam=${encodeURIComponent(data.search.body)}`,
    },
    {
      name: 'search: contact name',
      token: admin,
      path: `/tickets?showAll=true&searchParam=${encodeURIComponent(data.search.name)}`,
    },
    {
      name: 'search: number',
      token: admin,
      path: `/tickets?showAll=true&searchParam=${data.search.number}`,
    },
    {
      name: 'messages page 1 (5,000-message ticket)',
      token: admin,
      path: `/messages/${data.longTicketId}?pageNumber=1`,
    },
    {
      name: 'messages page 20 (5,000-message ticket)',
      token: admin,
      path: `/messages/${data.longTicketId}?pageNumber=20`,
    },
    {
      name: 'kanban board, admin: first page of every lane',
      token: admin,
      path: '/ticket/kanban?queueIds=%5B%5D&teste=true',
    },
    {
      name: 'kanban board, user of 2 queues',
      token: agent,
      path: `/ticket/kanban?queueIds=${JSON.stringify(data.agentQueueIds)}&teste=true`,
    },
    {
      name: 'kanban lane page 2, admin',
      token: admin,
      path: `/ticket/kanban?tagId=${data.tagIds[0]}&pageNumber=2`,
    },
    { name: 'contacts page 1', token: admin, path: '/contacts?pageNumber=1' },
    {
      name: 'contacts with searchParam',
      token: admin,
      path: `/contacts?searchParam=${encodeURIComponent(data.search.name)}`,
    },
    { name: 'dashboard, last 90 days', token: admin, path: '/dashboard?days=90' },
    {
      name: 'dashboard chart: tickets per user, 30 days',
      token: admin,
      path: `/dashboard/ticketsUsers?initialDate=${daysAgo(29)}&finalDate=${daysAgo(0)}`,
    },
    {
      name: 'dashboard chart: tickets per day, 30 days',
      token: admin,
      path: `/dashboard/ticketsDay?initialDate=${daysAgo(29)}&finalDate=${daysAgo(0)}`,
    },
    // The original client's report charts and reports screen, as it sends them.
    {
      name: 'dashboard report: attendance per user and queue, 30 days',
      token: admin,
      path: `/reports/appointmentsAtendent?${chartPeriod}`,
    },
    {
      name: 'dashboard report: rush hour, 30 days',
      token: admin,
      path: `/reports/rushHour?${chartPeriod}`,
    },
    {
      name: 'dashboard report: ratings per queue, 30 days',
      token: admin,
      path: `/reports/departamentRatings?${chartPeriod}`,
    },
    {
      name: 'dashboard report: tickets of 30 days, page 1',
      token: admin,
      path: `/ticket/reports?${ticketReport({})}`,
    },
    {
      name: 'dashboard report: tickets of 30 days, 2 users, closed',
      token: admin,
      path: `/ticket/reports?${ticketReport({ users, status: '["closed"]' })}`,
    },
  ];
  const results: ListResult[] = [];
  for (const item of cases) {
    const call = async () => {
      const response = await fetch(`${server.url}${item.path}`, {
        headers: { authorization: `Bearer ${item.token}` },
      });
      const body = (await response.json()) as Record<string, unknown> | unknown[];
      if (!response.ok) throw new Error(`${item.path}: ${response.status} ${JSON.stringify(body)}`);
      return body;
    };
    const first = await call();
    for (let i = 0; i < options.warmup; i++) await call();
    const samples: number[] = [];
    const started = performance.now();
    for (let i = 0; i < options.requests; i++) {
      const at = performance.now();
      await call();
      samples.push(performance.now() - at);
    }
    const seconds = (performance.now() - started) / 1000;
    const summary = summarise(samples);
    results.push({
      name: item.name,
      path: item.path,
      p50: round(summary.p50),
      p95: round(summary.p95),
      p99: round(summary.p99),
      requestsPerSecond: round(options.requests / seconds, 1),
      rows: rowsOf(first),
    });
  }
  return results;
}
