import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, InstanceGroup, pairedDemo, poll } from './processes';

/**
 * A running campaign whose server is killed (SIGKILL) while one of its messages is with the
 * network and not yet recorded sent, then started again: every recipient gets its message exactly
 * once, counted where the network keeps what it received (simulator_messages) and in the
 * campaign's rows, one message each.
 */
const RECIPIENTS = 40;
const BODY = 'Oferta da semana para {{contactFirstName}}';
// One second of the campaign's intervals is 20 ms; the network answers each send 300 ms after
// taking it (the window the server dies in). A send in flight for 40 s counts as interrupted:
// longer than the server takes to come back, so the send its dead predecessor had claimed is
// still in flight when the connection comes up again, and is sent again (under the same id)
// only once it counts as interrupted.
const STALE_SECONDS = 40;
const ENV = {
  CAMPAIGN_SECOND_MS: '20',
  CAMPAIGN_PAUSE_RETRY_MS: '500',
  SIMULATOR_SEND_LATENCY_MS: '300',
  OUTBOUND_STALE_SEND_SECONDS: String(STALE_SECONDS),
};
const numberOf = (i: number) => `55119866${String(i).padStart(5, '0')}`;

let group: InstanceGroup;

beforeAll(async () => {
  group = await InstanceGroup.create();
});
afterAll(() => group.close());

describe('a campaign whose server is killed mid-send and started again', () => {
  it('writes to every recipient exactly once', { timeout: 300_000 }, async () => {
    const first = await group.start(ENV); // seeds the demo company (its plan has campaigns)
    const { token, connectionId } = await pairedDemo(first.url);
    const settings = await call(first.url, token, 'POST', '/campaign-settings', {
      settings: { messageInterval: 5, longerIntervalAfter: 0, greaterInterval: 0 },
    });
    expect(settings.status).toBe(200);
    const list = await call(first.url, token, 'POST', '/contact-lists', { name: 'Clientes' });
    expect(list.status).toBe(201);
    const { rows: company } = await group.pool.query<{ company_id: number }>(
      'select company_id from contact_lists where id = $1',
      [list.body.id],
    );
    await group.pool.query(
      `insert into contact_list_items (company_id, contact_list_id, name, number)
       select $1, $2, 'Cliente ' || g, '55119866' || lpad(g::text, 5, '0')
       from generate_series(0, $3::int - 1) g`,
      [company[0]!.company_id, list.body.id, RECIPIENTS],
    );
    const campaign = await call(first.url, token, 'POST', '/campaigns', {
      name: 'Campanha resistente',
      message1: BODY,
      whatsappId: connectionId,
      contactListId: list.body.id,
      scheduledAt: '2020-01-01 10:00:00',
    });
    expect(campaign.status).toBe(201);
    const id = campaign.body.id;

    // A third of the way in, with a message taken by the network and not recorded: it dies.
    const progress = async () =>
      (
        await group.pool.query<{ claimed: number; sending: number }>(
          `select count(s.message_id)::int as claimed,
             (count(*) filter (where m.send_state = 'sending'))::int as sending
           from campaign_shipping s left join messages m on m.id = s.message_id
           where s.campaign_id = $1`,
          [id],
        )
      ).rows[0]!;
    const atKill = await poll(
      progress,
      ({ claimed, sending }) => claimed >= RECIPIENTS / 3 && sending > 0,
      120_000,
    );
    first.child.kill('SIGKILL');
    expect(atKill.sending).toBeGreaterThan(0);
    expect(atKill.claimed).toBeLessThan(RECIPIENTS);
    await new Promise((resolve) => first.child.once('exit', resolve));

    const again = await group.start(ENV);
    const status = async () => (await call(again.url, token, 'GET', `/campaigns/${id}`)).body;
    const finished = await poll(status, (c) => c.status === 'FINALIZADA', 240_000);
    expect(finished.status).toBe('FINALIZADA');
    // Anything still in flight would show up now.
    await new Promise((resolve) => setTimeout(resolve, 2000));

    const { rows: received } = await group.pool.query<{ phone: string; n: number }>(
      `select phone, count(*)::int as n from simulator_messages
       where connection_id = $1 and direction = 'outbound' group by phone order by phone`,
      [connectionId],
    );
    expect(received).toEqual(
      Array.from({ length: RECIPIENTS }, (_, i) => ({ phone: numberOf(i), n: 1 })),
    );
    const { rows: bodies } = await group.pool.query<{ phone: string; body: string }>(
      `select phone, body from simulator_messages
       where connection_id = $1 and direction = 'outbound' and phone = $2`,
      [connectionId, numberOf(7)],
    );
    expect(bodies).toEqual([{ phone: numberOf(7), body: 'Oferta da semana para Cliente' }]);
    const { rows: shipping } = await group.pool.query(
      `select count(*)::int as rows, count(distinct s.message_id)::int as messages,
         (count(*) filter (where s.delivered_at is not null))::int as delivered,
         (count(*) filter (where s.skipped is not null))::int as skipped,
         (count(*) filter (where m.send_state = 'sent'))::int as sent
       from campaign_shipping s left join messages m on m.id = s.message_id
       where s.campaign_id = $1`,
      [id],
    );
    expect(shipping[0]).toEqual({
      rows: RECIPIENTS,
      messages: RECIPIENTS,
      delivered: RECIPIENTS,
      skipped: 0,
      sent: RECIPIENTS,
    });
    // The inbox holds one message per recipient too.
    expect(
      await group.count(`select count(*) from messages where from_me and body like 'Oferta%'`),
    ).toBe(RECIPIENTS);
  });
});
