import type { Invoice, InvoicesPage, SubscriptionCharge } from '@atendi/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAsaas } from '../../../test/fakes/asaas';
import { PASSWORD, startTestServer, type TestServer } from '../../../test/harness';
import { companies, invoices } from '../../db/schema';
import { INVOICES_SWEEP_JOB } from './invoices.service';

const API_KEY = '$aact_fake_sandbox_key_0123456789';
const WEBHOOK_TOKEN = 'whsec-asaas-token-0123456789abcdef';

let t: TestServer;
let asaas: FakeAsaas;
let superToken: string;

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

beforeAll(async () => {
  asaas = await new FakeAsaas(API_KEY).start();
  t = await startTestServer({
    ASAAS_BASE_URL: asaas.baseUrl,
    OUTBOUND_ALLOW_PRIVATE: new URL(asaas.baseUrl).host,
    ASAAS_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
    BILLING_GRACE_DAYS: '3',
    INVOICE_LEAD_DAYS: '10',
  });
  asaas.webhook = { url: `${t.url}/subscription/webhook`, authToken: WEBHOOK_TOKEN };
  const platform = await t.make.company({ super: true });
  superToken = (await t.login(platform.admin.email)).token;
});
afterAll(async () => {
  await t.stop();
  await asaas.close();
});

const invoicesOf = (companyId: number) =>
  t.database.db.select().from(invoices).where(eq(invoices.companyId, companyId));
const dueDateOf = async (companyId: number) =>
  (await t.database.db.select().from(companies).where(eq(companies.id, companyId)))[0]!.dueDate;

/** A company due on `dueDate` with its invoice written by the sweep, and its admin signed in. */
async function billedCompany(dueDate = day(5), value = 149.9) {
  const plan = await t.make.plan({ value });
  const { company, admin } = await t.make.company({ dueDate: day(5), planId: plan.id });
  // Signed in first: a date long past would refuse the sign-in.
  const token = (await t.login(admin.email)).token;
  await t.database.db.update(companies).set({ dueDate }).where(eq(companies.id, company.id));
  await t.app.services.invoices.sweep();
  const [invoice] = await invoicesOf(company.id);
  return { company, admin, plan, invoice: invoice!, as: t.as(token) };
}

const checkout = (invoiceId: number) => ({
  invoiceId,
  firstName: 'Maria',
  lastName: 'Silva',
  address2: 'Rua das Flores, 10',
  city: 'São Paulo',
  state: 'SP',
  zipcode: '01001-000',
  country: 'BR',
  cpfCnpj: '123.456.789-09',
  plan: '{"title":"Plano"}',
  price: 1,
  users: 1,
  connections: 1,
});

/** The webhook as Asaas calls it; `null` sends no token header at all. */
const webhook = (body: unknown, token: string | null = WEBHOOK_TOKEN) =>
  t.app.inject({
    method: 'POST',
    url: '/subscription/webhook',
    headers: token === null ? {} : { 'asaas-access-token': token },
    payload: body as object,
  });

describe('the invoice sweep', () => {
  it("writes each billing company's invoice ahead of its due date, once", async () => {
    const soon = await t.make.company({
      dueDate: day(7),
      planId: (await t.make.plan({ value: 80 })).id,
    });
    const late = await t.make.company({ dueDate: day(-20) });
    const far = await t.make.company({ dueDate: day(40) });
    const free = await t.make.company({
      dueDate: day(2),
      planId: (await t.make.plan({ value: 0 })).id,
    });
    const off = await t.make.company({ dueDate: day(2) });
    await t.database.db
      .update(companies)
      .set({ status: false })
      .where(eq(companies.id, off.company.id));

    await Promise.all([t.app.services.invoices.sweep(), t.app.services.invoices.sweep()]);
    await t.app.services.invoices.sweep();

    const written = await invoicesOf(soon.company.id);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ dueDate: day(7), value: 80, status: 'open' });
    expect(await invoicesOf(late.company.id)).toHaveLength(1);
    expect(await invoicesOf(far.company.id)).toHaveLength(0);
    expect(await invoicesOf(free.company.id)).toHaveLength(0);
    expect(await invoicesOf(off.company.id)).toHaveLength(0);
  });

  it('writes one invoice when two instances sweep at once', async () => {
    const second = await startTestServer(
      { ASAAS_BASE_URL: asaas.baseUrl, OUTBOUND_ALLOW_PRIVATE: new URL(asaas.baseUrl).host },
      t,
    );
    try {
      const made = await Promise.all(
        Array.from({ length: 4 }, () => t.make.company({ dueDate: day(3) })),
      );
      await Promise.all([
        t.app.services.invoices.sweep(),
        second.app.services.invoices.sweep(),
        second.app.services.invoices.sweep(),
      ]);
      for (const { company } of made) expect(await invoicesOf(company.id)).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });

  it('writes the invoice at once when the super user sets a due date within the lead days', async () => {
    const { company } = await t.make.company({ dueDate: day(60) });
    expect(
      (await t.as(superToken).put(`/companies/${company.id}`, { dueDate: day(4) })).statusCode,
    ).toBe(200);
    await expect
      .poll(async () => (await invoicesOf(company.id)).map((row) => row.dueDate), {
        timeout: 15_000,
      })
      .toEqual([day(4)]);
  });

  it('writes the invoice of a company that signs up (its trial ends within the lead days)', async () => {
    const plan = await t.make.plan({ value: 30 });
    const email = `signup.${Date.now()}@example.com`;
    const response = await t.app.inject({
      method: 'POST',
      url: '/companies/cadastro',
      payload: {
        name: `Signup ${Date.now()}`,
        email,
        phone: '11987654321',
        password: 'segredo1',
        planId: plan.id,
      },
    });
    expect(response.statusCode).toBeLessThan(300);
    const companyId = response.json().id as number;
    await expect
      .poll(async () => (await invoicesOf(companyId)).map((row) => row.value), { timeout: 15_000 })
      .toEqual([30]);
  });

  it('runs as a job of the job engine (the cron tick sends no data)', async () => {
    const { company } = await t.make.company({ dueDate: day(1) });
    await t.app.platform.jobs.send(INVOICES_SWEEP_JOB, null as unknown as object);
    await expect
      .poll(async () => (await invoicesOf(company.id)).length, { timeout: 15_000 })
      .toBe(1);
  });
});

describe('GET /invoices, /invoices/all and /invoices/:id', () => {
  it("lists the company's own invoices, latest first, with search and paging", async () => {
    const { company, as, invoice } = await billedCompany(day(4));
    // Earlier months, paid.
    for (let month = 1; month <= 21; month += 1) {
      await t.database.db.insert(invoices).values({
        companyId: company.id,
        detail: month === 3 ? 'Plano antigo' : 'Plano',
        value: 10,
        dueDate: day(4 - 31 * month),
        status: 'paid',
      });
    }
    const first = (await as.get('/invoices')).json() as InvoicesPage;
    expect(first.count).toBe(22);
    expect(first.invoices).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    expect(first.invoices[0]!.id).toBe(invoice.id);
    expect(first.invoices.every((row) => row.companyId === company.id)).toBe(true);
    const second = (await as.get('/invoices?pageNumber=2')).json() as InvoicesPage;
    expect(second.invoices).toHaveLength(2);
    expect(second.hasMore).toBe(false);

    const found = (await as.get('/invoices?searchParam=antigo')).json() as InvoicesPage;
    expect(found.invoices.map((row) => row.detail)).toEqual(['Plano antigo']);
    const byId = (await as.get(`/invoices?searchParam=${invoice.id}`)).json() as InvoicesPage;
    expect(byId.invoices.map((row) => row.id)).toContain(invoice.id);

    const one = await as.get(`/invoices/${invoice.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: invoice.id, status: 'open', dueDate: day(4) });
  });

  it('answers GET /invoices/all as the bare list the original client reads, searched', async () => {
    const { as, invoice } = await billedCompany(day(6));
    const list = await as.get('/invoices/all?searchParam=&pageNumber=1');
    expect(list.statusCode, list.body).toBe(200);
    const rows = list.json() as Invoice[];
    expect(Array.isArray(rows)).toBe(true);
    expect(rows.map((row) => row.id)).toEqual([invoice.id]);
    expect(rows[0]).toMatchObject({ status: 'open', dueDate: day(6) });
    expect((await as.get('/invoices/all?searchParam=nada-disso')).json()).toEqual([]);
  });

  it("shows the super user every company's invoices with their names, on asking for all", async () => {
    const a = await billedCompany(day(7));
    const b = await billedCompany(day(8));
    const names = new Map([
      [a.company.id, a.company.name],
      [b.company.id, b.company.name],
    ]);
    const asSuper = t.as(superToken);
    const own = (await asSuper.get('/invoices')).json() as InvoicesPage;
    expect(own.invoices.map((row) => row.id)).not.toContain(a.invoice.id);
    const every = (await asSuper.get('/invoices?companies=all')).json() as InvoicesPage;
    for (const invoice of [a.invoice, b.invoice]) {
      const row = every.invoices.find((candidate) => candidate.id === invoice.id);
      expect(row, `invoice ${invoice.id}`).toMatchObject({
        companyId: invoice.companyId,
        companyName: names.get(invoice.companyId),
        status: 'open',
      });
    }
    expect(every.count).toBeGreaterThanOrEqual(2);
    const bare = (await asSuper.get('/invoices/all?companies=all')).json() as Invoice[];
    expect(bare.map((row) => row.id)).toEqual(expect.arrayContaining([a.invoice.id, b.invoice.id]));
    // Reading is all: the super user's checkout pays its own company's invoices only.
    expect((await asSuper.post('/subscription', checkout(a.invoice.id))).statusCode).toBe(404);
  });

  it("shows nothing of another company's invoices and is for admins only", async () => {
    const a = await billedCompany();
    const b = await billedCompany();
    expect((await a.as.get(`/invoices/${b.invoice.id}`)).statusCode).toBe(404);
    const listed = (await a.as.get('/invoices?companies=all')).json() as InvoicesPage;
    expect(listed.invoices.map((row: Invoice) => row.id)).not.toContain(b.invoice.id);
    const bare = (await a.as.get('/invoices/all?companies=all')).json() as Invoice[];
    expect(bare.map((row) => row.id)).toEqual([a.invoice.id]);
    const agent = await t.make.user(a.company.id);
    const agentToken = (await t.login(agent.email)).token;
    expect((await t.as(agentToken).get('/invoices/all')).statusCode).toBe(403);
    expect((await t.as(agentToken).post('/subscription', checkout(a.invoice.id))).statusCode).toBe(
      403,
    );
  });
});

describe('POST /subscription', () => {
  it('says the payment is not configured while the asaas key is unset', async () => {
    const { as, invoice } = await billedCompany();
    const response = await as.post('/subscription', checkout(invoice.id));
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toBe('ERR_PAYMENT_NOT_CONFIGURED');
  });

  it("creates the invoice's Pix charge once and answers its QR code as the client reads it", async () => {
    expect((await t.as(superToken).put('/settings/asaas', { value: API_KEY })).statusCode).toBe(
      200,
    );
    const { as, invoice, company } = await billedCompany(day(-2), 149.9);
    const response = await as.post('/subscription', checkout(invoice.id));
    expect(response.statusCode).toBe(200);
    const charge = response.json() as SubscriptionCharge;
    const created = asaas.charges.find((c) => c.id === charge.chargeId)!;
    expect(created).toMatchObject({
      billingType: 'PIX',
      value: 149.9,
      // Overdue: the provider takes no past date, so it is due today.
      dueDate: day(0),
      externalReference: `${company.id}:${invoice.id}`,
    });
    expect(asaas.customers.find((c) => c.id === created.customer)).toMatchObject({
      name: 'Maria Silva',
      cpfCnpj: '12345678909',
      externalReference: `company-${company.id}`,
    });
    expect(charge.valor.original).toBe('149.90');
    expect(charge.qrcode.qrcode).toBe(created.payload);
    expect(charge.qrcode.imagemQrcode).toMatch(/^data:image\/png;base64,iVBOR/);

    // Asked again (the dialog reopened): the same charge, no second one.
    const again = (
      await as.post('/subscription', checkout(invoice.id))
    ).json() as SubscriptionCharge;
    expect(again.chargeId).toBe(charge.chargeId);
    expect(
      asaas.charges.filter((c) => c.externalReference === created.externalReference),
    ).toHaveLength(1);
    expect((await as.post('/subscription', checkout(999_999))).statusCode).toBe(404);
  });

  it('calls the provider with the key the super user saved in the asaas setting, answered masked', async () => {
    const asSuper = t.as(superToken);
    const { as, invoice } = await billedCompany();
    const wrongKey = '$aact_another_account_key_0000';
    const saved = await asSuper.put('/settings/asaas', { value: wrongKey });
    expect(saved.json()).toEqual({ key: 'asaas', value: '********0000' });
    // The provider checks its access_token header: another account's key is refused.
    let first = asaas.keysSeen.length;
    const refused = await as.post('/subscription', checkout(invoice.id));
    expect(refused.statusCode).toBe(502);
    expect(refused.body).not.toContain(wrongKey);
    expect(asaas.keysSeen.slice(first)).toEqual([wrongKey]);

    expect((await asSuper.put('/settings/asaas', { value: API_KEY })).json()).toEqual({
      key: 'asaas',
      value: '********6789',
    });
    // The page sends the hint it shows back unchanged: the key stays the one saved.
    const resent = await asSuper.put('/settings/asaas', { value: '********6789' });
    expect(resent.json()).toEqual({ key: 'asaas', value: '********6789' });
    const listed = (await asSuper.get('/settings')).json() as { key: string; value: string }[];
    expect(listed.find((setting) => setting.key === 'asaas')?.value).toBe('********6789');
    expect(JSON.stringify(listed)).not.toContain(API_KEY);

    first = asaas.keysSeen.length;
    const charged = await as.post('/subscription', checkout(invoice.id));
    expect(charged.statusCode).toBe(200);
    expect(charged.body).not.toContain(API_KEY);
    const used = asaas.keysSeen.slice(first);
    expect(used.length).toBeGreaterThanOrEqual(3);
    expect(new Set(used)).toEqual(new Set([API_KEY]));
  });

  it("keeps the checkout's name and address on the company and gives them to the provider's new customer", async () => {
    await t.as(superToken).put('/settings/asaas', { value: API_KEY });
    const { as, invoice, company } = await billedCompany();
    // The district is the company form's (the checkout has none): it goes to the provider too.
    await t.database.db
      .update(companies)
      .set({ addressDistrict: 'Sé' })
      .where(eq(companies.id, company.id));
    const response = await as.post('/subscription', {
      ...checkout(invoice.id),
      firstName: ' Maria ',
      lastName: 'Silva',
      address2: ' Praça da Sé, 1 ',
      zipcode: '01001-000',
      city: 'São Paulo',
      state: 'SP',
    });
    expect(response.statusCode).toBe(200);
    const billing = {
      billingName: 'Maria Silva',
      addressZipCode: '01001-000',
      addressStreet: 'Praça da Sé, 1',
      addressCity: 'São Paulo',
      addressState: 'SP',
      addressDistrict: 'Sé',
    };
    // The company's answer, as its admin reads it back.
    const read = await as.get(`/companies/${company.id}`);
    expect(read.json()).toMatchObject(billing);
    expect(t.emitted).toContainEqual({
      event: `company-${company.id}-company`,
      payload: { action: 'update', company: expect.objectContaining(billing) },
    });
    const charge = response.json() as SubscriptionCharge;
    const customerId = asaas.charges.find((c) => c.id === charge.chargeId)!.customer;
    expect(asaas.customers.find((c) => c.id === customerId)).toMatchObject({
      name: 'Maria Silva',
      cpfCnpj: '12345678909',
      postalCode: '01001-000',
      address: 'Praça da Sé, 1',
      province: 'Sé',
    });

    // Changed at the next checkout: what is sent replaces it, what is not sent stays.
    const { state: _state, ...withoutState } = checkout(invoice.id);
    const again = await as.post('/subscription', {
      ...withoutState,
      firstName: 'Maria Souza',
      lastName: '',
      address2: 'Rua Nova, 20',
      city: '',
    });
    expect(again.statusCode).toBe(200);
    expect((await as.get(`/companies/${company.id}`)).json()).toMatchObject({
      ...billing,
      billingName: 'Maria Souza',
      addressStreet: 'Rua Nova, 20',
      addressCity: null,
    });
  });

  it('keeps the billing details of a checkout the provider refuses, and of no other company', async () => {
    const { as, invoice, company } = await billedCompany();
    const other = await billedCompany();
    const { cpfCnpj: _cpf, ...withoutDocument } = checkout(invoice.id);
    const refused = await as.post('/subscription', withoutDocument);
    expect(refused.statusCode).toBe(502);
    expect((await as.get(`/companies/${company.id}`)).json()).toMatchObject({
      billingName: 'Maria Silva',
      addressStreet: 'Rua das Flores, 10',
    });
    expect((await other.as.get(`/companies/${other.company.id}`)).json()).toMatchObject({
      billingName: null,
      addressStreet: null,
    });
    // Another company's invoice is not found, and nothing of this one is written.
    const foreign = await other.as.post('/subscription', {
      ...checkout(invoice.id),
      firstName: 'Intrusa',
    });
    expect(foreign.statusCode).toBe(404);
    expect((await as.get(`/companies/${company.id}`)).json().billingName).toBe('Maria Silva');
    expect((await other.as.get(`/companies/${other.company.id}`)).json().billingName).toBeNull();
  });

  it('answers 502 when the provider refuses (a customer without CPF/CNPJ), the key never in it', async () => {
    const { as, invoice } = await billedCompany();
    const { cpfCnpj: _cpf, ...withoutDocument } = checkout(invoice.id);
    const response = await as.post('/subscription', withoutDocument);
    expect(response.statusCode).toBe(502);
    expect(response.json().error).toBe('ERR_PAYMENT_PROVIDER');
    expect(response.body).not.toContain(API_KEY);
  });
});

describe('POST /subscription/webhook', () => {
  async function paidCheckout(dueDate: string, recurrence = 'MENSAL') {
    await t.as(superToken).put('/settings/asaas', { value: API_KEY });
    const billed = await billedCompany(dueDate);
    await t.database.db
      .update(companies)
      .set({ recurrence })
      .where(eq(companies.id, billed.company.id));
    const charge = (
      await billed.as.post('/subscription', checkout(billed.invoice.id))
    ).json() as SubscriptionCharge;
    return { ...billed, charge };
  }

  const paymentEvents = (companyId: number) =>
    t.emitted.filter((e) => e.event === `company-${companyId}-payment`);

  it('marks the invoice paid and moves the due date on once, however often the event comes', async () => {
    const { company, invoice, charge, as } = await paidCheckout('2026-01-31');
    const { event, status } = await asaas.pay(charge.chargeId);
    expect(status).toBe(200);
    // Asaas delivers again when unsure: the same event twice more.
    expect((await webhook(event)).statusCode).toBe(200);
    expect((await webhook(event)).statusCode).toBe(200);

    const [row] = await invoicesOf(company.id);
    expect(row).toMatchObject({ id: invoice.id, status: 'paid' });
    expect(row!.paidAt).toBeInstanceOf(Date);
    // 31 January + 1 month: the last day of February.
    expect(await dueDateOf(company.id)).toBe('2026-02-28');
    const events = paymentEvents(company.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toEqual({
      action: 'CONCLUIDA',
      invoiceId: invoice.id,
      company: { id: company.id, dueDate: '2026-02-28' },
    });
    const listed = (await as.get('/invoices')).json() as InvoicesPage;
    expect(listed.invoices[0]).toMatchObject({ id: invoice.id, status: 'paid' });
  });

  it.each([
    ['BIMESTRAL', '2026-03-15'],
    ['TRIMESTRAL', '2026-04-15'],
    ['SEMESTRAL', '2026-07-15'],
    ['ANUAL', '2027-01-15'],
  ])('moves a %s company on to %s', async (recurrence, expected) => {
    const { company, charge } = await paidCheckout('2026-01-15', recurrence);
    await asaas.pay(charge.chargeId);
    expect(await dueDateOf(company.id)).toBe(expected);
  });

  it('changes nothing with a wrong or missing token', async () => {
    const { company, charge } = await paidCheckout('2026-01-10');
    const event = asaas.receivedEvent(charge.chargeId);
    const wrong = await webhook(event, 'whsec-asaas-token-0123456789abcdeX');
    expect(wrong.statusCode).toBe(403);
    expect((await webhook(event, null)).statusCode).toBe(403);
    expect((await webhook(event, '')).statusCode).toBe(403);
    expect((await invoicesOf(company.id))[0]!.status).toBe('open');
    expect(await dueDateOf(company.id)).toBe('2026-01-10');
    expect(paymentEvents(company.id)).toHaveLength(0);
  });

  it('takes other events and foreign charges without changing anything', async () => {
    const { company, charge } = await paidCheckout('2026-01-12');
    const event = asaas.receivedEvent(charge.chargeId);
    expect((await webhook({ ...event, event: 'PAYMENT_CREATED' })).statusCode).toBe(200);
    const otherCharge = { ...event, payment: { ...event.payment, id: 'pay_someone_else' } };
    expect((await webhook(otherCharge)).statusCode).toBe(200);
    const notOurs = { ...event, payment: { ...event.payment, externalReference: 'pedido-42' } };
    expect((await webhook(notOurs)).statusCode).toBe(200);
    expect((await webhook({ nothing: true })).statusCode).toBe(400);
    expect((await invoicesOf(company.id))[0]!.status).toBe('open');
    expect(await dueDateOf(company.id)).toBe('2026-01-12');
  });
});

describe('sign-in of an overdue company', () => {
  const login = (email: string) =>
    t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: PASSWORD } });

  it('is let in within the grace days, refused after, and let in again by payment', async () => {
    await t.as(superToken).put('/settings/asaas', { value: API_KEY });
    const within = await t.make.company({ dueDate: day(-3) });
    expect((await login(within.admin.email)).statusCode).toBe(200);

    const { as, invoice, company, admin } = await billedCompany(day(-2));
    const charge = (
      await as.post('/subscription', checkout(invoice.id))
    ).json() as SubscriptionCharge;
    // Ten days later the company is past its grace.
    await t.database.db.execute(
      sql`update companies set due_date = due_date - 8 where id = ${company.id}`,
    );
    await t.database.db.execute(
      sql`update invoices set due_date = due_date - 8 where id = ${invoice.id}`,
    );
    const refused = await login(admin.email);
    expect(refused.statusCode).toBe(401);
    const [year, month, dayOfMonth] = day(-10).split('-');
    expect(refused.json()).toMatchObject({
      error: 'ERR_SUBSCRIPTION_EXPIRED',
      message: `Opss! Sua assinatura venceu ${dayOfMonth}/${month}/${year}. Entre em contato com o Suporte para mais informações!`,
    });

    await asaas.pay(charge.chargeId);
    expect((await login(admin.email)).statusCode).toBe(200);
  });
});
