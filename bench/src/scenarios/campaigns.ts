import { performance } from 'node:perf_hooks';
import type { BenchServer } from '../environment';
import { round, summarise } from '../stats';
import { call, login, pairSimulator, seedCompany, sleep } from './messaging';

export interface CampaignOptions {
  /** Recipients of the campaign's contact list. */
  recipients: number;
  /** How long the sends are watched once the campaign runs (it is cancelled after). */
  seconds: number;
}

/**
 * A campaign to a large contact list on the simulator connection, started through the API as
 * the screen starts it (a past date: due at once). Time to enqueue: from POST /campaigns until
 * its job has copied every recipient into its rows and the campaign runs. Scheduler overhead:
 * with the pause between sends set to 0, the time from one claimed send to the next (lock,
 * claim, store, hand to the network, record), watched for `seconds`; then it is cancelled.
 */
export async function campaignScenario(server: BenchServer, options: CampaignOptions) {
  const company = await seedCompany(server, 0, 'campaigns');
  await server.pool.query(
    'update plans set use_campaigns = true where id = (select plan_id from companies where id = $1)',
    [company.companyId],
  );
  const token = await login(server, company.adminEmail);
  const connectionId = await pairSimulator(server, token);
  await call(server, token, 'POST', '/campaign-settings', {
    settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, dailyLimit: 0 },
  });
  const { body: list } = await call(server, token, 'POST', '/contact-lists', {
    name: 'Campanha em massa',
  });
  await server.pool.query(
    `insert into contact_list_items (company_id, contact_list_id, name, number)
     select $1, $2, 'Cliente ' || g, '55319' || lpad(g::text, 8, '0')
     from generate_series(1, $3::int) g`,
    [company.companyId, list.id, options.recipients],
  );
  const statusOf = async (id: number) =>
    (
      await server.pool.query<{ status: string }>('select status from campaigns where id = $1', [
        id,
      ])
    ).rows[0]!.status;

  const start = performance.now();
  const { body: campaign } = await call(server, token, 'POST', '/campaigns', {
    name: 'Bench',
    message1: 'Olá {{contactFirstName}}, temos novidades!',
    whatsappId: connectionId,
    contactListId: list.id,
    scheduledAt: '2020-01-01 10:00:00',
  });
  const campaignId = campaign.id as number;
  const enqueueDeadline = Date.now() + 10 * 60_000;
  let status = campaign.status as string;
  while (status === 'PROGRAMADA' && Date.now() < enqueueDeadline) {
    await sleep(50);
    status = await statusOf(campaignId);
  }
  const enqueueSeconds = (performance.now() - start) / 1000;
  const { rows: copied } = await server.pool.query<{ n: number }>(
    'select count(*)::int as n from campaign_shipping where campaign_id = $1',
    [campaignId],
  );

  // The sends, watched for a while (a full run of 100,000 would take hours of the machine).
  const watchStart = new Date();
  const watchDeadline = Date.now() + options.seconds * 1000;
  const sentSoFar = async () =>
    (
      await server.pool.query<{ n: number }>(
        'select count(*)::int as n from campaign_shipping where campaign_id = $1 and sent_at is not null',
        [campaignId],
      )
    ).rows[0]!.n;
  while (Date.now() < watchDeadline && (await sentSoFar()) < options.recipients) {
    await sleep(500);
  }
  const watchEnd = new Date();
  if ((await statusOf(campaignId)) === 'EM_ANDAMENTO') {
    await call(server, token, 'POST', `/campaigns/${campaignId}/cancel`);
  }
  // What was claimed goes out: the last sends settle before the figures are read.
  await sleep(1000);
  const { rows: claims } = await server.pool.query<{ at: Date }>(
    `select sent_at as at from campaign_shipping
     where campaign_id = $1 and sent_at >= $2 and sent_at <= $3 order by sent_at`,
    [campaignId, watchStart, watchEnd],
  );
  const gaps = claims.slice(1).map((row, i) => row.at.getTime() - claims[i]!.at.getTime());
  const spanMs =
    claims.length > 1 ? claims.at(-1)!.at.getTime() - claims[0]!.at.getTime() : Number.NaN;
  const { rows: delivered } = await server.pool.query<{ sent: number; delivered: number }>(
    `select count(*) filter (where sent_at is not null)::int as sent,
       count(*) filter (where delivered_at is not null)::int as delivered
     from campaign_shipping where campaign_id = $1`,
    [campaignId],
  );
  const { rows: network } = await server.pool.query<{ n: number }>(
    `select count(*)::int as n from simulator_messages
     where connection_id = $1 and direction = 'outbound'`,
    [connectionId],
  );
  const gapSummary = summarise(gaps);
  return {
    recipients: options.recipients,
    copied: copied[0]!.n,
    enqueueSeconds: round(enqueueSeconds),
    watchedSeconds: round((watchEnd.getTime() - watchStart.getTime()) / 1000),
    sendsWatched: claims.length,
    sendsPerSecond: round(claims.length / Math.max(spanMs / 1000, 0.001)),
    /** Mean time from one send to the next, and the spread of those times. */
    overheadMsPerSend: round(spanMs / Math.max(claims.length - 1, 1)),
    gapMs: { p50: gapSummary.p50, p95: gapSummary.p95, p99: gapSummary.p99, max: gapSummary.max },
    sent: delivered[0]!.sent,
    delivered: delivered[0]!.delivered,
    atNetwork: network[0]!.n,
  };
}
