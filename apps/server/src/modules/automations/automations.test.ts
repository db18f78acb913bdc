import { WEEKDAYS } from '@atendi/shared';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import {
  agent,
  closeSockets,
  inboxFactories,
  pairedSimulator,
  phoneInbox,
  socketFor,
} from '../../../test/inbox';
import { companies, messages, queueOptions, tickets, userRatings } from '../../db/schema';
import { TenantDb } from '../../db/tenant';
import { BOT_TURN_JOB, SWEEP_JOB } from './automations.service';

/**
 * The routing of conversations, end to end: a simulated phone writes through the simulator
 * network, the inbound pipeline stores it, the job engine runs the bot's turn, and the answers
 * go back out through the same network to the phone.
 */

let t: TestServer;
let phoneSequence = 0;

beforeAll(async () => {
  t = await startTestServer({ BOT_REPLY_DELAY_MS: '400' });
});
afterAll(async () => {
  closeSockets();
  await t?.stop();
});

const hours = (startTime: string, endTime: string) =>
  WEEKDAYS.map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime, endTime }));

/** A company with two queues on a paired simulator connection whose bot offers them. */
async function routedCompany(connectionFields: Record<string, unknown> = {}) {
  const { company, admin } = await t.make.company();
  const companyId = company.id;
  const tenant = new TenantDb(t.database.db, companyId);
  const sales = await t.make.queue(companyId, {
    name: 'Vendas',
    orderQueue: 1,
    greetingMessage: 'Vendas aqui.',
    outOfHoursMessage: 'Vendas fechado agora.',
  });
  const support = await t.make.queue(companyId, { name: 'Suporte', orderQueue: 2 });
  const [orders] = await tenant
    .insert(queueOptions, {
      queueId: sales.id,
      option: '1',
      title: 'Pedidos',
      message: 'Sobre pedidos.',
    })
    .returning();
  await tenant.insert(queueOptions, [
    { queueId: sales.id, option: '2', title: 'Catálogo', message: 'Veja o catálogo.' },
    {
      queueId: sales.id,
      parentId: orders!.id,
      option: '1',
      title: 'Atacado',
      message: 'Um vendedor de atacado já vem.',
    },
  ]);
  const adminToken = (await t.login(admin.email)).token;
  const connectionId = await pairedSimulator(t, adminToken);
  const updated = await t.as(adminToken).put(`/whatsapp/${connectionId}`, {
    greetingMessage: 'Olá {{contactFirstName}}! Escolha:',
    queueIds: [sales.id, support.id],
    ...connectionFields,
  });
  expect(updated.statusCode, updated.body).toBe(200);
  const phone = `55119${String(70_000_000 + process.pid * 100 + ++phoneSequence).slice(-8)}`;
  const seller = await agent(t, companyId, { queueIds: [sales.id] });

  const inbox = async () =>
    (await phoneInbox(t, adminToken, connectionId, phone)).map((m) => m.body);
  const ticket = async () => {
    const [row] = await t.database.db
      .select()
      .from(tickets)
      .where(eq(tickets.companyId, companyId))
      .orderBy(tickets.id);
    return row!;
  };
  const stored = (body: string) =>
    t.database.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.companyId, companyId), eq(messages.body, body)))
      .orderBy(desc(messages.id));
  /** The phone writes; resolves once the inbound pipeline stored it. */
  const write = async (body: string) => {
    const before = (await stored(body)).length;
    const sent = await t
      .as(adminToken)
      .post(`/simulator/connections/${connectionId}/phones/${phone}/messages`, {
        name: 'Joana Silva',
        body,
      });
    expect(sent.statusCode, sent.body).toBe(201);
    await expect.poll(async () => (await stored(body)).length).toBe(before + 1);
    return (await stored(body))[0]!.id;
  };
  /** The phone writes and waits for the bot's turn on it to be over (answered or not). */
  const say = async (body: string) => {
    const id = await write(body);
    await expect.poll(async () => (await ticket()).botMessageId, { timeout: 10_000 }).toBe(id);
    await turnsSettled();
  };
  return {
    companyId,
    tenant,
    adminToken,
    connectionId,
    phone,
    sales,
    support,
    seller,
    inbox,
    ticket,
    write,
    say,
  };
}

/** No bot turn waits or runs (the job engine's own table). */
async function turnsSettled(job = BOT_TURN_JOB) {
  await expect
    .poll(async () => {
      const { rows } = await t.database.pool.query(
        `select count(*)::int as n from pgboss.job where name = $1 and state < 'completed'`,
        [job],
      );
      return rows[0].n as number;
    })
    .toBe(0);
}

const QUEUE_MENU = 'Olá Joana! Escolha:\n\n*1* - Vendas\n*2* - Suporte';
const SALES_MENU = 'Vendas aqui.\n\n*1* - Pedidos\n*2* - Catálogo\n*#* - Voltar';

describe('the chatbot', () => {
  it('walks a contact from the greeting into a queue and a sub-option, to a person', async () => {
    const w = await routedCompany();
    const sellerSocket = await socketFor(t, w.seller.token);
    const heard: { ticket: { id: number; queueId: number | null } }[] = [];
    sellerSocket.on(`company-${w.companyId}-ticket`, (payload) => heard.push(payload));

    await w.say('Oi');
    expect(await w.inbox()).toEqual([QUEUE_MENU]);
    expect(await w.ticket()).toMatchObject({
      chatbot: true,
      queueId: null,
      amountUsedBotQueues: 1,
    });

    await w.say('1');
    expect(await w.inbox()).toEqual([QUEUE_MENU, SALES_MENU]);
    expect(await w.ticket()).toMatchObject({ chatbot: true, queueId: w.sales.id });
    // The queue's agents now see the ticket, live.
    await expect
      .poll(() => heard.some((payload) => payload.ticket.queueId === w.sales.id))
      .toBe(true);

    await w.say('1');
    expect((await w.inbox()).at(-1)).toBe('Sobre pedidos.\n\n*1* - Atacado\n*#* - Voltar');
    await w.say('1');
    expect((await w.inbox()).at(-1)).toBe('Um vendedor de atacado já vem.');
    const reached = await w.ticket();
    expect(reached).toMatchObject({ chatbot: false, queueId: w.sales.id, status: 'pending' });
    expect(reached.botAt).toBeNull();

    // A person has it now: the bot stays quiet, and the queue's agent finds it waiting.
    await w.say('Alô?');
    expect(await w.inbox()).toHaveLength(4);
    const waiting = await t.as(w.seller.token).get('/tickets?status=pending');
    expect(waiting.json().tickets.map((item: { id: number }) => item.id)).toContain(reached.id);
  });

  it("goes back a level with '#' and repeats the menu after an invalid answer", async () => {
    const w = await routedCompany();
    await w.say('Oi');
    await w.say('1');
    await w.say('1');
    await w.say('#');
    expect((await w.inbox()).at(-1)).toBe(SALES_MENU);
    expect((await w.ticket()).queueOptionId).toBeNull();
    await w.say('#');
    expect((await w.inbox()).at(-1)).toBe('*1* - Vendas\n*2* - Suporte');
    expect(await w.ticket()).toMatchObject({ queueId: null, chatbot: true });
    await w.say('9');
    expect((await w.inbox()).at(-1)).toBe('*1* - Vendas\n*2* - Suporte');
    await w.say('2');
    // Suporte has no menu: the ticket waits there for a person.
    expect(await w.ticket()).toMatchObject({ queueId: w.support.id, chatbot: false });
  });

  it('lets go after maxUseBotQueues menus, and the ticket waits for a person', async () => {
    const w = await routedCompany({ maxUseBotQueues: 2 });
    await w.say('Oi');
    await w.say('não sei');
    expect(await w.inbox()).toEqual([QUEUE_MENU, '*1* - Vendas\n*2* - Suporte']);
    await w.say('hein?');
    await w.say('1');
    expect(await w.inbox()).toHaveLength(2);
    expect(await w.ticket()).toMatchObject({ chatbot: false, queueId: null, status: 'pending' });
  });

  it('answers messages sent together once, and two turns racing answer once', async () => {
    const w = await routedCompany();
    await Promise.all([w.write('Oi'), w.write('Bom dia')]);
    const stored = await w.ticket();
    await expect.poll(async () => (await w.ticket()).botMessageId).not.toBeNull();
    await turnsSettled();
    expect(await w.inbox()).toEqual([QUEUE_MENU]);

    // Two instances' turns on the same unanswered message: one answer.
    await w.write('2');
    const automations = t.app.services.automations;
    await Promise.all([
      automations.turn(w.companyId, stored.id),
      automations.turn(w.companyId, stored.id),
    ]);
    await expect.poll(async () => (await w.ticket()).queueId).toBe(w.support.id);
    await turnsSettled();
    expect(await w.inbox()).toHaveLength(1);
    expect(await w.ticket()).toMatchObject({ queueId: w.support.id });
  });

  it('goes straight into the only queue, or offers it as a list when told not to', async () => {
    const w = await routedCompany();
    await t.as(w.adminToken).put(`/whatsapp/${w.connectionId}`, { queueIds: [w.sales.id] });
    await w.say('Oi');
    expect(await w.inbox()).toEqual([`Olá Joana! Escolha:\n\n${SALES_MENU}`]);
    expect(await w.ticket()).toMatchObject({ queueId: w.sales.id, chatbot: true });

    const list = await routedCompany();
    await t.as(list.adminToken).put(`/whatsapp/${list.connectionId}`, {
      queueIds: [list.sales.id],
    });
    await inboxFactories(t).setting(list.companyId, 'sendGreetingMessageOneQueues', 'disabled');
    await list.say('Oi');
    expect(await list.inbox()).toEqual(['Olá Joana! Escolha:\n\n*1* - Vendas']);
    expect(await list.ticket()).toMatchObject({ queueId: null, chatbot: true });
  });

  it('never answers a group chat', async () => {
    const w = await routedCompany();
    const make = inboxFactories(t);
    const group = await make.ticket(w.companyId, {
      whatsappId: w.connectionId,
      isGroup: true,
    });
    await make.message(w.companyId, group.id, { body: 'oi grupo', fromMe: false });
    await t.app.services.automations.turn(w.companyId, group.id);
    const [row] = await t.database.db.select().from(tickets).where(eq(tickets.id, group.id));
    expect(row).toMatchObject({ chatbot: false, botMessageId: null, amountUsedBotQueues: 0 });
  });
});

describe('the timers, on the job engine', () => {
  const sweep = () => t.app.platform.jobs.send(SWEEP_JOB, {});

  it('moves an idle bot ticket to the transfer queue', async () => {
    const w = await routedCompany({ timeToTransfer: 1 });
    await t.as(w.adminToken).put(`/whatsapp/${w.connectionId}`, { transferQueueId: w.support.id });
    await w.say('Oi');
    const held = await w.ticket();
    expect(held.chatbot).toBe(true);
    // Two minutes of silence.
    await t.database.db
      .update(tickets)
      .set({ botAt: new Date(Date.now() - 120_000) })
      .where(eq(tickets.id, held.id));
    await sweep();
    await expect.poll(async () => (await w.ticket()).queueId).toBe(w.support.id);
    expect(await w.ticket()).toMatchObject({ chatbot: false, botAt: null, status: 'pending' });
  });

  it("lets go of a ticket after the bot's time limit", async () => {
    const w = await routedCompany({ timeUseBotQueues: 5 });
    await w.say('Oi');
    await w.say('1');
    const held = await w.ticket();
    await t.database.db
      .update(tickets)
      .set({ botSince: new Date(Date.now() - 6 * 60_000), botAt: new Date(Date.now() - 61_000) })
      .where(eq(tickets.id, held.id));
    await sweep();
    await expect.poll(async () => (await w.ticket()).chatbot).toBe(false);
    expect((await w.ticket()).queueId).toBe(w.sales.id);
  });

  it('closes a conversation whose contact went silent, with its message', async () => {
    const w = await routedCompany({
      expiresTicket: 10,
      expiresInactiveMessage: 'Encerramos por falta de resposta.',
    });
    await w.say('Oi');
    const ticket = await w.ticket();
    const accepted = await t.as(w.adminToken).put(`/tickets/${ticket.id}`, { status: 'open' });
    expect(accepted.statusCode).toBe(200);
    await t.as(w.adminToken).post(`/messages/${ticket.id}`, { body: 'Posso ajudar?' });
    await expect.poll(async () => (await w.inbox()).at(-1)).toBe('Posso ajudar?');
    await sweep();
    // Not yet silent for 10 minutes: still open.
    await turnsSettled(SWEEP_JOB);
    expect((await w.ticket()).status).toBe('open');
    await t.database.db
      .update(tickets)
      .set({ updatedAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(tickets.id, ticket.id));
    await sweep();
    await expect.poll(async () => (await w.ticket()).status).toBe('closed');
    expect((await w.inbox()).at(-1)).toBe('Encerramos por falta de resposta.');
  });
});

describe('business hours', () => {
  it('answers out of the company hours once per closed period', async () => {
    const w = await routedCompany({ outOfHoursMessage: 'Estamos fechados.' });
    const make = inboxFactories(t);
    await make.setting(w.companyId, 'scheduleType', 'company');
    await t.database.db
      .update(companies)
      .set({ schedules: hours('00:00', '00:00') })
      .where(eq(companies.id, w.companyId));
    await w.say('Oi');
    await w.say('Tem alguém?');
    expect(await w.inbox()).toEqual(['Estamos fechados.']);
    expect((await w.ticket()).chatbot).toBe(false);

    // The period ended (as if the next opening had passed): the next closed period answers again.
    await t.database.db
      .update(tickets)
      .set({ outOfHoursUntil: new Date(Date.now() - 1000) })
      .where(eq(tickets.companyId, w.companyId));
    await w.say('E agora?');
    expect(await w.inbox()).toEqual(['Estamos fechados.', 'Estamos fechados.']);

    // Open all day: the bot greets.
    await t.database.db
      .update(companies)
      .set({ schedules: hours('00:00', '23:59') })
      .where(eq(companies.id, w.companyId));
    await w.say('Bom dia');
    expect((await w.inbox()).at(-1)).toBe(QUEUE_MENU);
  });

  it("answers with a closed queue's out-of-hours message and keeps the ticket in it", async () => {
    const w = await routedCompany();
    const make = inboxFactories(t);
    await make.setting(w.companyId, 'scheduleType', 'queue');
    await t.as(w.adminToken).put(`/queue/${w.sales.id}`, { schedules: hours('00:00', '00:00') });
    await w.say('Oi');
    await w.say('1');
    expect((await w.inbox()).at(-1)).toBe('Vendas fechado agora.');
    expect(await w.ticket()).toMatchObject({ queueId: w.sales.id, chatbot: false });
    await w.say('Oi?');
    expect(await w.inbox()).toHaveLength(2);
  });

  it('reads the hours on the company clock, with the server in UTC or in Tokyo', async () => {
    const before = process.env.TZ;
    try {
      for (const serverZone of ['UTC', 'Asia/Tokyo']) {
        process.env.TZ = serverZone;
        const w = await routedCompany({ outOfHoursMessage: 'Fechado.' });
        const make = inboxFactories(t);
        await make.setting(w.companyId, 'scheduleType', 'company');
        await make.setting(w.companyId, 'timezone', 'America/Manaus');
        // Open from an hour before to two hours after now on Manaus' clock, closed otherwise.
        const manausHour = Number(
          new Intl.DateTimeFormat('en-GB', {
            timeZone: 'America/Manaus',
            hour: '2-digit',
            hourCycle: 'h23',
          }).format(new Date()),
        );
        const pad = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
        const start = pad(Math.max(0, manausHour - 1));
        const end = manausHour + 2 >= 24 ? '23:59' : pad(manausHour + 2);
        await t.database.db
          .update(companies)
          .set({ schedules: hours(start, end) })
          .where(eq(companies.id, w.companyId));
        await w.say('Oi');
        expect(await w.inbox(), serverZone).toEqual([QUEUE_MENU]);
      }
    } finally {
      process.env.TZ = before;
    }
  });
});

describe('closing a conversation', () => {
  it('sends the completion message and stores the rating answered 1 to 3', async () => {
    const w = await routedCompany();
    await t.as(w.adminToken).put(`/queue/${w.sales.id}`, {
      complationMessage: 'Obrigado pelo contato!',
      ratingMessage: 'Avalie nosso atendimento.',
    });
    await inboxFactories(t).setting(w.companyId, 'userRating', 'enabled');
    await w.say('Oi');
    await w.say('1');
    const ticket = await w.ticket();
    const accepted = await t.as(w.seller.token).put(`/tickets/${ticket.id}`, { status: 'open' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const resolved = await t.as(w.seller.token).put(`/tickets/${ticket.id}`, { status: 'closed' });
    expect(resolved.statusCode).toBe(200);
    await expect.poll(async () => (await w.inbox()).length).toBe(4);
    const [completion, rating] = (await w.inbox()).slice(2);
    expect(completion).toBe('Obrigado pelo contato!');
    expect(rating).toContain('Avalie nosso atendimento.');
    expect(rating).toContain('*3* - _Muito Satisfeito_');

    await w.write('3');
    const [stored] = await t.database.db
      .select()
      .from(userRatings)
      .where(eq(userRatings.ticketId, ticket.id));
    expect(stored).toMatchObject({ rate: 3, userId: w.seller.user.id });
    // The answer landed on the closed ticket: no new conversation.
    const all = await t.database.db
      .select()
      .from(tickets)
      .where(eq(tickets.companyId, w.companyId));
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ status: 'closed', ratingRequestedAt: null });
  });

  it('drops a rating question left unanswered for two hours, on the sweep', async () => {
    const w = await routedCompany();
    await inboxFactories(t).setting(w.companyId, 'userRating', 'enabled');
    await w.say('Oi');
    const ticket = await w.ticket();
    await t.as(w.adminToken).put(`/tickets/${ticket.id}`, { status: 'open' });
    await t.as(w.adminToken).put(`/tickets/${ticket.id}`, { status: 'closed' });
    expect((await w.ticket()).ratingRequestedAt).not.toBeNull();
    await t.database.db
      .update(tickets)
      .set({ ratingRequestedAt: new Date(Date.now() - 3 * 60 * 60_000) })
      .where(eq(tickets.id, ticket.id));
    await t.app.platform.jobs.send(SWEEP_JOB, {});
    await expect.poll(async () => (await w.ticket()).ratingRequestedAt).toBeNull();
    // A late '2' is a new conversation, not a rating.
    await w.write('2');
    expect(
      await t.database.db.select().from(userRatings).where(eq(userRatings.ticketId, ticket.id)),
    ).toEqual([]);
  });

  it('ends the rating without storing when the contact writes anything else', async () => {
    const w = await routedCompany();
    await inboxFactories(t).setting(w.companyId, 'userRating', 'enabled');
    await w.say('Oi');
    const first = await w.ticket();
    await t.as(w.adminToken).put(`/tickets/${first.id}`, { status: 'open' });
    await t.as(w.adminToken).put(`/tickets/${first.id}`, { status: 'closed' });
    await expect.poll(async () => (await w.inbox()).at(-1)).toContain('_Insatisfeito_');

    await w.write('Quero outra coisa');
    await w.write('2');
    const rows = await t.database.db
      .select()
      .from(tickets)
      .where(eq(tickets.companyId, w.companyId))
      .orderBy(tickets.id);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ status: 'closed', ratingRequestedAt: null });
    expect(rows[1]!.status).toBe('pending');
    expect(
      await t.database.db.select().from(userRatings).where(eq(userRatings.ticketId, first.id)),
    ).toEqual([]);
  });
});
