import { type Dashboard, DEFAULT_TIME_ZONE, USER_ONLINE_WINDOW_MS } from '@atendi/shared';
import type { TenantDb, TenantStatement } from '../../db/tenant';

/**
 * The dashboard's figures, each answer a fixed number of statements whatever the company's
 * size. Every statement takes the company as $1 (TenantDb.run) and reads its days on the
 * company's clock: the `timezone` setting, through `at time zone`, so the server's own zone
 * never decides which day a ticket belongs to.
 *
 * `period` turns the asked days into instants: $2 a number of days (the last ones, today
 * included), else $3 the first day and $4 the last day, either of which may be open.
 */
const period = `
  zone as (
    select coalesce(
      (select value from settings where company_id = $1 and key = 'timezone'),
      '${DEFAULT_TIME_ZONE}'
    ) as tz
  ),
  days as (
    select
      tz,
      case when $2::int is null then $3::date
        else (now() at time zone tz)::date - ($2::int - 1) end as first_day,
      case when $2::int is null then $4::date
        else (now() at time zone tz)::date end as last_day
    from zone
  ),
  period as (
    select
      tz,
      first_day,
      last_day,
      coalesce(first_day::timestamp at time zone tz, '-infinity'::timestamptz) as starts,
      coalesce((last_day + 1)::timestamp at time zone tz, 'infinity'::timestamptz) as ends
    from days
  )`;

/**
 * The period's days of ticket_day_stats (the closed tickets of each company day, per user, kept
 * by triggers): a period reads a row per day and user, not every ticket closed in it.
 */
const periodDays = `s.company_id = $1
    and s.day >= coalesce(p.first_day, '-infinity'::date)
    and s.day <= coalesce(p.last_day, 'infinity'::date)`;

/** Seconds summed over minutes counted, in minutes to two decimals; 0 over no rows. */
const minutes = (seconds: string, count: string) =>
  `coalesce(round((${seconds} / nullif(${count}, 0) / 60)::numeric, 2)::float8, 0)`;

/**
 * The whole GET /dashboard in one statement and one pass over the period's days of closed
 * tickets: they are summed by attendant, and the counters add those sums up. Answers one row of
 * JSON.
 */
const dashboardStatement: TenantStatement = {
  name: 'dashboard_figures',
  text: `with ${period},
  finished as (
    select
      nullif(s.user_id, 0) as user_id,
      sum(s.finished) as tickets,
      sum(s.support_seconds) as support_seconds,
      sum(s.supported) as supported,
      sum(s.wait_seconds) as wait_seconds,
      sum(s.waited) as waited
    from ticket_day_stats s, period p
    where ${periodDays}
    group by s.user_id
    having sum(s.finished) > 0
  ),
  rated as (
    select r.user_id, round(avg(r.rate), 2)::float8 as rating
    from user_ratings r, period p
    where r.company_id = $1 and r.user_id is not null
      and r.created_at >= p.starts and r.created_at < p.ends
    group by r.user_id
  ),
  attendants as (
    select
      u.id,
      u.name,
      r.rating,
      ${minutes('f.support_seconds', 'f.supported')} as "avgSupportTime",
      coalesce(f.tickets, 0)::int as tickets,
      coalesce(u.last_seen_at > now() - make_interval(secs => $5::int), false) as online
    from users u
    left join finished f on f.user_id = u.id
    left join rated r on r.user_id = u.id
    where u.company_id = $1
  )
  select
    json_build_object(
      'supportHappening',
      (select count(*)::int from tickets where company_id = $1 and status = 'open'),
      'supportPending',
      (select count(*)::int from tickets where company_id = $1 and status = 'pending'),
      'supportFinished', coalesce(sum(f.tickets), 0)::int,
      'leads', (
        select count(*)::int from contacts c, period p
        where c.company_id = $1 and not c.is_group
          and c.created_at >= p.starts and c.created_at < p.ends
      ),
      'avgSupportTime', ${minutes('sum(f.support_seconds)', 'sum(f.supported)')},
      'avgWaitTime', ${minutes('sum(f.wait_seconds)', 'sum(f.waited)')}
    ) as counters,
    (
      select coalesce(json_agg(a order by a.name, a.id), '[]'::json) from attendants a
    ) as attendants
  from finished f`,
};

/** The chart statements take the period as $3 and $4 (no count of days). */
const ticketsPerUserStatement: TenantStatement = {
  name: 'dashboard_tickets_per_user',
  text: `with ${period},
  finished as (
    select s.user_id, sum(s.finished)::int as tickets
    from ticket_day_stats s, period p
    where ${periodDays} and s.user_id <> 0
    group by s.user_id
  )
  select u.name, coalesce(f.tickets, 0) as quantidade
  from users u
  left join finished f on f.user_id = u.id
  where u.company_id = $1
  order by u.name, u.id`,
};

/** Longest period whose empty days are listed too; a longer one lists only days with tickets. */
const FILLED_DAYS = 400;

const ticketsPerDayStatement: TenantStatement = {
  name: 'dashboard_tickets_per_day',
  text: `with ${period},
  counted as (
    select (t.created_at at time zone p.tz)::date as day, count(*)::int as total
    from tickets t, period p
    where t.company_id = $1 and t.created_at >= p.starts and t.created_at < p.ends
    group by 1
  ),
  every_day as (
    select generate_series(first_day::timestamp, last_day::timestamp, interval '1 day')::date as day
    from period
    where last_day - first_day <= ${FILLED_DAYS}
  )
  select to_char(day, 'DD/MM/YYYY') as data, coalesce(c.total, 0) as total
  from every_day full join counted c using (day)
  order by day`,
};

const ticketsPerHourStatement: TenantStatement = {
  name: 'dashboard_tickets_per_hour',
  text: `with ${period},
  counted as (
    select extract(hour from t.created_at at time zone p.tz)::int as horario, count(*)::int as total
    from tickets t, period p
    where t.company_id = $1 and t.created_at >= p.starts and t.created_at < p.ends
    group by 1
  )
  select hours.horario, coalesce(c.total, 0) as total
  from generate_series(0, 23) as hours(horario)
  left join counted c using (horario)
  order by hours.horario`,
};

export interface DashboardPeriod {
  days?: number;
  from?: string;
  to?: string;
}

const periodParams = (asked: DashboardPeriod) => [
  asked.days ?? null,
  asked.days ? null : (asked.from ?? null),
  asked.days ? null : (asked.to ?? null),
];

/** The counters of the period (and the tickets open and waiting now) and every user's figures. */
export async function dashboardFigures(db: TenantDb, asked: DashboardPeriod): Promise<Dashboard> {
  const [row] = await db.run<Dashboard>(dashboardStatement, [
    ...periodParams(asked),
    USER_ONLINE_WINDOW_MS / 1000,
  ]);
  return row!;
}

/** Tickets each user closed in the days from `from` to `to`, every user listed. */
export function ticketsPerUser(db: TenantDb, from: string, to: string) {
  return db.run<{ name: string; quantidade: number }>(ticketsPerUserStatement, [null, from, to]);
}

/** Tickets created on each day from `from` to `to`. */
export function ticketsPerDay(db: TenantDb, from: string, to: string) {
  return db.run<{ data: string; total: number }>(ticketsPerDayStatement, [null, from, to]);
}

/** Tickets created in each hour of the day over the days from `from` to `to` (one day alone). */
export function ticketsPerHour(db: TenantDb, from: string, to = from) {
  return db.run<{ horario: number; total: number }>(ticketsPerHourStatement, [null, from, to]);
}

/** Tickets created in the period per queue, every queue of the company listed (0 included). */
const ticketsPerQueueStatement: TenantStatement = {
  name: 'reports_tickets_per_queue',
  text: `with ${period},
  counted as (
    select t.queue_id, count(*)::int as total
    from tickets t, period p
    where t.company_id = $1 and t.created_at >= p.starts and t.created_at < p.ends
      and t.queue_id is not null
    group by t.queue_id
  )
  select q.name, coalesce(c.total, 0) as total
  from queues q
  left join counted c on c.queue_id = q.id
  where q.company_id = $1
  order by 2, q.name, q.id`,
};

/** The average rating of each queue's tickets over the ratings given in the period. */
const ratingsPerQueueStatement: TenantStatement = {
  name: 'reports_ratings_per_queue',
  text: `with ${period}
  select q.name, round(avg(r.rate), 2)::float8 as rate
  from user_ratings r
  cross join period p
  join tickets t on t.company_id = $1 and t.id = r.ticket_id
  join queues q on q.company_id = $1 and q.id = t.queue_id
  where r.company_id = $1 and r.created_at >= p.starts and r.created_at < p.ends
  group by q.id, q.name
  order by q.name, q.id`,
};

export function ticketsPerQueue(db: TenantDb, from: string, to: string) {
  return db.run<{ name: string; total: number }>(ticketsPerQueueStatement, [null, from, to]);
}

export function ratingsPerQueue(db: TenantDb, from: string, to: string) {
  return db.run<{ name: string; rate: number }>(ratingsPerQueueStatement, [null, from, to]);
}

/**
 * The tickets the reports screen asks for, created in the period ($3, $4: days, either open):
 * $5 a contact, $6 a ticket's id, $7 connections, $8 users, $9 queues, $10 statuses, $11 the
 * group conversations too (whatever their status); a null parameter does not filter.
 */
const reportFilter = `t.company_id = $1
    and t.created_at >= p.starts and t.created_at < p.ends
    and ($5::int is null or t.contact_id = $5)
    and ($6::int is null or t.id = $6)
    and ($7::int[] is null or t.whatsapp_id = any($7))
    and ($8::int[] is null or t.user_id = any($8))
    and ($9::int[] is null or t.queue_id = any($9))
    and ($10::text[] is null or t.status = any($10) or ($11::boolean and t.is_group))`;

const reportCountStatement: TenantStatement = {
  name: 'reports_ticket_count',
  text: `with ${period}
  select count(*)::int as total from tickets t, period p where ${reportFilter}`,
};

/** One page ($12 rows from $13), newest first; times written on the company's clock. */
const reportPageStatement: TenantStatement = {
  name: 'reports_ticket_page',
  text: `with ${period},
  page as (
    select t.*
    from tickets t, period p
    where ${reportFilter}
    order by t.created_at desc, t.id desc
    limit $12 offset $13
  )
  select
    t.id,
    t.uuid::text as uuid,
    w.name as "whatsappName",
    c.name as "contactName",
    u.name as "userName",
    q.name as "queueName",
    q.color as "queueColor",
    t.last_message as "lastMessage",
    t.status,
    to_char(t.created_at at time zone p.tz, 'DD/MM/YYYY HH24:MI') as "createdAt",
    case when t.status = 'closed'
      then to_char(t.finished_at at time zone p.tz, 'DD/MM/YYYY HH24:MI') end as "closedAt"
  from page t
  cross join period p
  join contacts c on c.company_id = $1 and c.id = t.contact_id
  left join connections w on w.company_id = $1 and w.id = t.whatsapp_id
  left join users u on u.company_id = $1 and u.id = t.user_id
  left join queues q on q.company_id = $1 and q.id = t.queue_id
  order by t.created_at desc, t.id desc`,
};

export interface TicketReportFilter {
  from?: string;
  to?: string;
  contactId?: number;
  ticketId?: number;
  whatsappIds?: number[];
  userIds?: number[];
  queueIds?: number[];
  statuses?: ('open' | 'pending' | 'closed')[];
  groups: boolean;
}

export type TicketReportRecord = {
  id: number;
  uuid: string;
  whatsappName: string | null;
  contactName: string;
  userName: string | null;
  queueName: string | null;
  queueColor: string | null;
  lastMessage: string;
  status: 'open' | 'pending' | 'closed';
  createdAt: string;
  closedAt: string | null;
};

const reportParams = (filter: TicketReportFilter) => [
  null,
  filter.from ?? null,
  filter.to ?? null,
  filter.contactId ?? null,
  filter.ticketId ?? null,
  filter.whatsappIds ?? null,
  filter.userIds ?? null,
  filter.queueIds ?? null,
  filter.statuses ?? null,
  filter.groups,
];

/** A page of the report's tickets and how many the filter matches, the page read as the count. */
export async function ticketReport(
  db: TenantDb,
  filter: TicketReportFilter,
  page: { limit: number; offset: number },
) {
  const params = reportParams(filter);
  const [rows, [counted]] = await Promise.all([
    db.run<TicketReportRecord>(reportPageStatement, [...params, page.limit, page.offset]),
    db.run<{ total: number }>(reportCountStatement, params),
  ]);
  return { rows, total: counted?.total ?? 0 };
}
