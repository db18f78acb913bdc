import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { closeSockets, pairedSimulator, socketFor } from '../../../test/inbox';
import { simulatorHasAccount } from '../../channels/simulator/simulator.provider';
import { CHECK_NUMBERS_JOB } from './contact-lists.service';

let t: TestServer;

/** A company whose plan has campaigns, its admin signed in. */
async function campaigning() {
  const plan = await t.make.plan({ useCampaigns: true });
  const { company, admin } = await t.make.company({ planId: plan.id });
  const adminToken = (await t.login(admin.email)).token;
  return { companyId: company.id, adminToken };
}

beforeAll(async () => {
  t = await startTestServer();
});
afterEach(() => closeSockets());
afterAll(() => t.stop());

interface Item {
  id: number;
  number: string;
  isWhatsappValid: boolean | null;
}

const itemsOf = async (token: string, contactListId: number) =>
  (await t.as(token).get(`/contact-list-items?contactListId=${contactListId}&pageNumber=1`)).json()
    .contacts as Item[];

const validityOf = async (token: string, contactListId: number) =>
  Object.fromEntries(
    (await itemsOf(token, contactListId)).map((item) => [item.number, item.isWhatsappValid]),
  );

describe("the simulator's rule", () => {
  it('has an account for every number of 10 to 13 digits but those ending in 0000', () => {
    expect(simulatorHasAccount('5511987651234')).toBe(true);
    expect(simulatorHasAccount('5511987650000')).toBe(false);
    expect(simulatorHasAccount('123')).toBe(false);
  });
});

describe('checking numbers on WhatsApp', () => {
  it('sets each item through the connected simulator, in the background, and tells it live', async () => {
    const home = await campaigning();
    await pairedSimulator(t, home.adminToken);
    const socket = await socketFor(t, home.adminToken);
    const heard: { action: string; record?: Item }[] = [];
    socket.on(`company-${home.companyId}-ContactListItem`, (payload) => heard.push(payload));
    const list = (await t.as(home.adminToken).post('/contact-lists', { name: 'Checagem' })).json();
    for (const number of ['5511987651234', '5511987650000']) {
      const res = await t.as(home.adminToken).post('/contact-list-items', {
        contactListId: list.id,
        name: `Pessoa ${number}`,
        number,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().isWhatsappValid).toBeNull();
    }
    await expect
      .poll(() => validityOf(home.adminToken, list.id), { timeout: 20_000 })
      .toEqual({ '5511987651234': true, '5511987650000': false });
    await expect
      .poll(() =>
        heard
          .filter((event) => event.action === 'update')
          .map((event) => [event.record?.number, event.record?.isWhatsappValid])
          .sort(),
      )
      .toEqual([
        ['5511987650000', false],
        ['5511987651234', true],
      ]);

    // A changed number is unknown again until the network says.
    const [invalid] = (await itemsOf(home.adminToken, list.id)).filter(
      (item) => item.number === '5511987650000',
    );
    const changed = await t
      .as(home.adminToken)
      .put(`/contact-list-items/${invalid!.id}`, { number: '5511987654444' });
    expect(changed.json().isWhatsappValid).toBeNull();
    await expect
      .poll(() => validityOf(home.adminToken, list.id), { timeout: 20_000 })
      .toEqual({ '5511987651234': true, '5511987654444': true });
  });

  it('leaves the items unknown (null) without a connected connection', async () => {
    const home = await campaigning();
    const list = (
      await t.as(home.adminToken).post('/contact-lists', { name: 'Sem conexão' })
    ).json();
    await t.as(home.adminToken).post('/contact-list-items', {
      contactListId: list.id,
      name: 'Alguém',
      number: '5511987651234',
    });
    await t.app.services.contactLists.checkNumbers(home.companyId, list.id);
    expect(await validityOf(home.adminToken, list.id)).toEqual({ '5511987651234': null });
  });

  it('checks the items added while no connection was up once one connects', {
    timeout: 60_000,
  }, async () => {
    const home = await campaigning();
    const lists: { id: number }[] = [];
    for (const name of ['Antes da conexão', 'Outra lista']) {
      lists.push((await t.as(home.adminToken).post('/contact-lists', { name })).json());
    }
    const numbers = ['5511987651234', '5511987650000'];
    for (const [i, list] of lists.entries()) {
      const res = await t.as(home.adminToken).post('/contact-list-items', {
        contactListId: list.id,
        name: `Pessoa ${i}`,
        number: numbers[i],
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    // The checks queued with the items found no connection, and nothing is left waiting.
    await expect
      .poll(async () => {
        const { rows } = await t.database.pool.query(
          `select count(*)::int as n from pgboss.job
           where name = $1 and singleton_key like $2 and state < 'completed'`,
          [CHECK_NUMBERS_JOB, `${home.companyId}:%`],
        );
        return rows[0].n as number;
      })
      .toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await validityOf(home.adminToken, lists[0]!.id)).toEqual({ '5511987651234': null });
    expect(await validityOf(home.adminToken, lists[1]!.id)).toEqual({ '5511987650000': null });

    // The connection comes up: every list with unknown numbers is checked in the background.
    await pairedSimulator(t, home.adminToken);
    await expect
      .poll(() => validityOf(home.adminToken, lists[0]!.id), { timeout: 30_000 })
      .toEqual({ '5511987651234': true });
    await expect
      .poll(() => validityOf(home.adminToken, lists[1]!.id), { timeout: 30_000 })
      .toEqual({ '5511987650000': false });
  });

  it('checks a large list in batches, each one queued after the last', async () => {
    const home = await campaigning();
    await pairedSimulator(t, home.adminToken);
    const list = (await t.as(home.adminToken).post('/contact-lists', { name: 'Grande' })).json();
    const csv = [
      'numero',
      ...Array.from({ length: 45 }, (_, i) => `55119876${String(i + 10_000).padStart(5, '0')}`),
    ].join('\n');
    const { postForm } = await import('../../../test/inbox');
    const upload = await postForm(t, home.adminToken, `/contact-lists/${list.id}/upload`, {}, [
      { field: 'file', name: 'lista.csv', type: 'text/csv', content: Buffer.from(csv) },
    ]);
    expect(upload.statusCode, upload.body).toBe(200);
    // The first batch runs at once; the rest follow after their pauses.
    await t.app.services.contactLists.checkNumbers(home.companyId, list.id);
    const checked = Object.values(await validityOf(home.adminToken, list.id)).filter(
      (valid) => valid !== null,
    );
    expect(checked.length).toBeGreaterThanOrEqual(20);
    await expect
      .poll(
        async () => {
          const all: Item[] = [];
          for (let page = 1; page <= 3; page += 1) {
            all.push(
              ...(
                await t
                  .as(home.adminToken)
                  .get(`/contact-list-items?contactListId=${list.id}&pageNumber=${page}`)
              ).json().contacts,
            );
          }
          return all.filter((item) => item.isWhatsappValid === null).length;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(0);
  });
});
