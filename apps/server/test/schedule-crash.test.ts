import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, InstanceGroup, pairedDemo, poll } from './processes';

/**
 * A scheduled message whose sender is killed (SIGKILL) after the network took the message and
 * before the send was recorded: the instance that takes the connection over sends it again under
 * the same id, which the network recognises, so the contact gets it once and the schedule ends
 * sent, once.
 */
const BODY = 'Lembrete: sua consulta é amanhã às 9h';
// The network answers a send 3 s after taking it: the window the owner dies in. A send in flight
// for 2 s counts as interrupted for the instance that takes the connection over.
const ENV = { SIMULATOR_SEND_LATENCY_MS: '3000', OUTBOUND_STALE_SEND_SECONDS: '2' };

let group: InstanceGroup;

beforeAll(async () => {
  group = await InstanceGroup.create();
});
afterAll(() => group.close());

describe('a schedule whose sender dies between the send and its commit', () => {
  it('reaches the contact once and is recorded sent once', { timeout: 180_000 }, async () => {
    const owner = await group.start(ENV); // seeds the demo company and takes the simulator's lease
    const standby = await group.start(ENV);
    const { token } = await pairedDemo(standby.url);
    const contact = await call(standby.url, token, 'POST', '/contacts', {
      name: 'Cliente Agendado',
      number: '5511977700001',
    });
    expect(contact.status).toBe(201);
    const schedule = await call(standby.url, token, 'POST', '/schedules', {
      body: BODY,
      contactId: contact.body.id,
      sendAt: new Date(Date.now() + 1000).toISOString(),
    });
    expect(schedule.status).toBe(201);

    const atNetwork = () =>
      group.count(
        `select count(*) from simulator_messages where direction = 'outbound' and body = $1`,
        [BODY],
      );
    expect(await poll(atNetwork, (count) => count > 0)).toBe(1);
    // The network has it and the sender has not recorded it: now the owner dies.
    const { rows: inFlight } = await group.pool.query(
      'select send_state from messages where body = $1',
      [BODY],
    );
    expect(inFlight).toEqual([{ send_state: 'sending' }]);
    owner.child.kill('SIGKILL');

    const status = async () =>
      (await call(standby.url, token, 'GET', `/schedules/${schedule.body.id}`)).body.status;
    expect(await poll(status, (value) => value === 'ENVIADA', 150_000)).toBe('ENVIADA');
    await group.start(ENV); // the killed instance comes back
    await new Promise((resolve) => setTimeout(resolve, 4000));

    expect(await atNetwork()).toBe(1);
    const { rows } = await group.pool.query(
      `select m.send_state, s.status, s.sent_at is not null as sent
         from schedules s join messages m on m.id = s.message_id`,
    );
    expect(rows).toEqual([{ send_state: 'sent', status: 'ENVIADA', sent: true }]);
    expect(await group.count('select count(*) from messages where body = $1', [BODY])).toBe(1);
  });
});
