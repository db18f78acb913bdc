import {
  type DashboardAttendant,
  type DashboardCounters,
  DEFAULT_TIME_ZONE,
  USER_ONLINE_WINDOW_MS,
} from '@atendi/shared';
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

/** Minutes between two instants, averaged, to two decimals; null over no rows. */
const avgMinutes = (from: string, to: string) =>
  `round((avg(extract(epoch from ${to} - ${from})) / 60)::numeric, 2)::float8`;

const countersStatement: TenantStatement = {
  name: 'dashboard_counters',
  text: `with ${period},
  finished as (
    select
      count(*)::int as tickets,
      ${avgMinutes('t.accepted_at', 't.finished_at')} as support,
      ${avgMinutes('t.created_at', 't.accepted_at')} as wait
    from tickets t, period p
    where t.company_id = $1 and t.finished_at >= p.starts and t.finished_at < p.ends
  )
  select
    (select count(*)::int from tickets where company_id = $1 and status = 'open') as "supportHappening",
    (select count(*)::int from tickets where company_id = $1 and status = 'pending') as "supportPending",
    f.tickets as "supportFinished",
    (
      select count(*)::int from contacts c, period p
      where c.company_id = $1 and not c.is_group
        and c.created_at >= p.starts and c.created_at < p.ends
    ) as leads,
    coalesce(f.support, 0) as "avgSupportTime",
    coalesce(f.wait, 0) as "avgWaitTime"
  from finished f`,
};

const attendantsStatement: TenantStatement = {
  name: 'dashboard_attendants',
  text: `with ${period},
  finished as (
    select
      t.user_id,
      count(*)::int as tickets,
      ${avgMinutes('t.accepted_at', 't.finished_at')} as support
    from tickets t, period p
    where t.company_id = $1 and t.user_id is not null
      and t.finished_at >= p.starts and t.finished_at < p.ends
    group by t.user_id
  ),
  rated as (
    select r.user_id, round(avg(r.rate), 2)::float8 as rating
    from user_ratings r, period p
    where r.company_id = $1 and r.user_id is not null
      and r.created_at >= p.starts and r.created_at < p.ends
    group by r.user_id
  )
  select
    u.id,
    u.name,
    r.rating,
    coalesce(f.support, 0) as "avgSupportTime",
    coalesce(f.tickets, 0) as tickets,
    coalesce(u.last_seen_at > now() - make_interval(secs => $5::int), false) as online
  from users u
  left join finished f on f.user_id = u.id
  left join rated r on r.user_id = u.id
  where u.company_id = $1
  order by u.name, u.id`,
};

/** The chart statements take the period as $3 and $4 (no count of days). */
const ticketsPerUserStatement: TenantStatement = {
  name: 'dashboard_tickets_per_user',
  text: `with ${period},
  finished as (
    select t.user_id, count(*)::int as tickets
    from tickets t, period p
    where t.company_id = $1 and t.user_id is not null
      and t.finished_at >= p.starts and t.finished_at < p.ends
    group by t.user_id
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

/** The counters of the period (and the tickets open and waiting now). */
export async function dashboardCounters(
  db: TenantDb,
  asked: DashboardPeriod,
): Promise<DashboardCounters> {
  const [row] = await db.run<DashboardCounters>(countersStatement, periodParams(asked));
  return row!;
}

/** Every user of the company with its figures of the period, by name. */
export function dashboardAttendants(
  db: TenantDb,
  asked: DashboardPeriod,
): Promise<DashboardAttendant[]> {
  return db.run<DashboardAttendant>(attendantsStatement, [
    ...periodParams(asked),
    USER_ONLINE_WINDOW_MS / 1000,
  ]);
}

/** Tickets each user closed in the days from `from` to `to`, every user listed. */
export function ticketsPerUser(db: TenantDb, from: string, to: string) {
  return db.run<{ name: string; quantidade: number }>(ticketsPerUserStatement, [null, from, to]);
}

/** Tickets created on each day from `from` to `to`. */
export function ticketsPerDay(db: TenantDb, from: string, to: string) {
  return db.run<{ data: string; total: number }>(ticketsPerDayStatement, [null, from, to]);
}

/** Tickets created in each hour of one day. */
export function ticketsPerHour(db: TenantDb, day: string) {
  return db.run<{ horario: number; total: number }>(ticketsPerHourStatement, [null, day, day]);
}
