import { performance } from 'node:perf_hooks';
import type { BenchServer } from '../environment';
import { round } from '../stats';
import { call, eachLimited, login, pairSimulator, seedCompany, sleep } from './messaging';

export interface ScheduleOptions {
  /** Schedules falling due at the same instant. */
  schedules: number;
}

/**
 * Dispatch of many schedules due at once: `schedules` contacts each get a schedule through
 * POST /schedules, all for the same instant; from that instant the clock runs until every one is
 * recorded sent (the network took its message), each through its own job on the job engine.
 */
export async function scheduleScenario(server: BenchServer, options: ScheduleOptions) {
  const company = await seedCompany(server, 0, 'schedules');
  await server.pool.query(
    'update plans set use_schedules = true where id = (select plan_id from companies where id = $1)',
    [company.companyId],
  );
  const token = await login(server, company.adminEmail);
  const connectionId = await pairSimulator(server, token);
  const { rows: contacts } = await server.pool.query<{ id: number }>(
    `insert into contacts (company_id, name, number)
     select $1, 'Cliente ' || g, '5521' || lpad(g::text, 8, '0') from generate_series(1, $2::int) g
     returning id`,
    [company.companyId, options.schedules],
  );

  // Due a while after the last is created (creating 10,000 takes a while on 2 cores).
  const created = performance.now();
  const dueAt = new Date(Date.now() + Math.max(30_000, options.schedules * 12));
  await eachLimited(contacts, 16, ({ id }) =>
    call(server, token, 'POST', '/schedules', {
      body: 'Lembrete do seu agendamento',
      contactId: id,
      whatsappId: connectionId,
      sendAt: dueAt.toISOString(),
    }),
  );
  const creationSeconds = (performance.now() - created) / 1000;
  const late = Date.now() > dueAt.getTime();
  await sleep(Math.max(0, dueAt.getTime() - Date.now()));
  const start = Math.max(Date.now(), dueAt.getTime());

  const sent = async () =>
    Number(
      (
        await server.pool.query(
          `select count(*) from schedules where company_id = $1 and status = 'ENVIADA'`,
          [company.companyId],
        )
      ).rows[0].count,
    );
  let done = 0;
  let half: number | undefined;
  const deadline = Date.now() + 15 * 60_000;
  while (done < options.schedules && Date.now() < deadline) {
    await sleep(250);
    done = await sent();
    if (half === undefined && done >= options.schedules / 2) half = Date.now() - start;
  }
  const seconds = (Date.now() - start) / 1000;
  const { rows: errors } = await server.pool.query(
    `select count(*)::int as n from schedules where company_id = $1 and status = 'ERRO'`,
    [company.companyId],
  );
  return {
    schedules: options.schedules,
    sent: done,
    errors: errors[0]!.n as number,
    creationSeconds: round(creationSeconds),
    /** Creating them ran past their time: the clock started when the last was created. */
    createdLate: late,
    halfSentSeconds: half === undefined ? null : round(half / 1000),
    allSentSeconds: round(seconds),
    perSecond: round(done / Math.max(seconds, 0.001)),
  };
}
