import {
  type Company,
  DEFAULT_PAGE_SIZE,
  INVOICES_LIST_MAX,
  type Invoice,
  type InvoicesPage,
  type InvoicesQuery,
  RECURRENCE_MONTHS,
  type Recurrence,
  type SubscriptionCharge,
  type SubscriptionCreate,
} from '@atendi/shared';
import { z } from 'zod';
import { sameSecret } from '../../channels/cloud-api/cloud-api.provider';
import { globalDb } from '../../db/global';
import { type TenantDb, tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { platformSetting } from '../../platform/platform-settings';
import { iso, isoRequired, page, sliceMore } from '../../platform/routes';
import { openSecretSetting } from '../../platform/secrets';
import { keepBillingDetails } from '../companies/companies.service';
import type { ServiceDeps } from '../deps';
import { AsaasProvider } from './asaas';
import {
  advanceDueDate,
  companiesToInvoice,
  type InvoiceRow,
  insertInvoiceOnce,
  invoiceById,
  invoicesPage,
  invoicesPageOfEveryCompany,
  keepCharge,
  markPaid,
} from './invoices.repository';
import {
  chargeReference,
  type PaymentProvider,
  PaymentProviderError,
  parseChargeReference,
} from './payment-provider';

export const INVOICES_SWEEP_JOB = 'invoices-sweep';
/** Asaas' events of a charge paid: CONFIRMED (card, once approved), RECEIVED (Pix, cash in). */
const PAID_EVENTS = new Set(['PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED']);

const DAY = 86_400_000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

const webhookSchema = z.object({
  id: z.string().max(200).optional(),
  event: z.string().max(100),
  payment: z
    .object({
      id: z.string().min(1).max(100),
      externalReference: z.string().max(200).nullable().optional(),
    })
    .optional(),
});

export const presentInvoice = (row: InvoiceRow & { companyName?: string }): Invoice => ({
  id: row.id,
  companyId: row.companyId,
  detail: row.detail,
  value: row.value,
  dueDate: row.dueDate,
  status: row.status === 'paid' ? 'paid' : 'open',
  paidAt: iso(row.paidAt),
  createdAt: isoRequired(row.createdAt),
  updatedAt: isoRequired(row.updatedAt),
  ...(row.companyName === undefined ? {} : { companyName: row.companyName }),
});

const notFound = () => new AppError('ERR_NOT_FOUND', 404);

/** A billing field as the company keeps it: trimmed, '' is nothing, absent is left as it is. */
const billingText = (value: string | undefined) =>
  value === undefined ? undefined : value.trim() || null;

/** Makes the provider for an API key (tests may hand in another). */
export type ProviderFactory = (apiKey: string) => PaymentProvider;

/**
 * Invoices and their Pix checkout: a sweep on the job engine writes each company's invoice
 * ahead of its due date (once, whichever instance runs it), the checkout creates the
 * provider's charge, and the provider's webhook marks it paid and moves the due date on.
 */
export class InvoicesService {
  readonly #providerFor: ProviderFactory;

  constructor(
    private readonly platform: Pick<ServiceDeps, 'db' | 'events' | 'jobs' | 'config' | 'outbound'>,
    providerFor?: ProviderFactory,
  ) {
    const { config } = platform;
    this.#providerFor =
      providerFor ??
      ((apiKey) =>
        new AsaasProvider({
          outbound: platform.outbound,
          baseUrl: config.ASAAS_BASE_URL,
          apiKey,
          timeoutMs: config.OUTBOUND_TIMEOUT_MS,
        }));
    platform.jobs.define<{ at?: string }>(INVOICES_SWEEP_JOB, {
      policy: 'short',
      retryLimit: 1,
      // The cron tick sends no data at all.
      handler: async (data) => {
        await this.sweep(data?.at ? new Date(data.at) : new Date());
      },
    });
    platform.jobs.every(INVOICES_SWEEP_JOB, '17 * * * *');
    // A due date set within the lead days gets its invoice now, not at the next hourly sweep.
    platform.events.on('company.dueDateSet', ({ dueDate }) => {
      if (!dueDate) return;
      void platform.jobs
        .send(INVOICES_SWEEP_JOB, {}, { singletonKey: INVOICES_SWEEP_JOB })
        .catch(() => {
          // The hourly sweep writes it.
        });
    });
  }

  /**
   * Writes the invoice of every billing company whose due date is within the lead days (or
   * past): one per company and date, the unique index deciding between instances. Answers how
   * many it wrote.
   */
  async sweep(now = new Date()): Promise<number> {
    const horizon = isoDay(new Date(now.getTime() + this.platform.config.INVOICE_LEAD_DAYS * DAY));
    const due = await companiesToInvoice(globalDb(this.platform), horizon);
    let written = 0;
    for (const { companyId, dueDate, plan } of due) {
      const created = await insertInvoiceOnce(this.#db(companyId), {
        detail: plan.name,
        value: plan.value,
        dueDate,
      });
      if (created) written += 1;
    }
    return written;
  }

  /** A page of the company's invoices; the super user may ask for every company's. */
  async page(ctx: RequestContext, query: InvoicesQuery): Promise<InvoicesPage> {
    const { rows, count } = await this.#invoices(
      ctx,
      query,
      page(query.pageNumber, DEFAULT_PAGE_SIZE),
    );
    const { rows: shown, hasMore } = sliceMore(rows, DEFAULT_PAGE_SIZE);
    return { invoices: shown.map(presentInvoice), count, hasMore };
  }

  /** The invoices as a bare list, for the original product's client. */
  async list(ctx: RequestContext, query: InvoicesQuery): Promise<Invoice[]> {
    const { rows } = await this.#invoices(ctx, query, { limit: INVOICES_LIST_MAX, offset: 0 });
    return rows.map(presentInvoice);
  }

  #invoices(
    ctx: RequestContext,
    query: InvoicesQuery,
    options: { limit: number; offset: number },
  ): Promise<{ rows: (InvoiceRow & { companyName?: string })[]; count: number }> {
    return query.companies === 'all' && ctx.super
      ? invoicesPageOfEveryCompany(globalDb(this.platform), query.searchParam, options)
      : invoicesPage(tenantDb(ctx), query.searchParam, options);
  }

  async get(ctx: RequestContext, id: number): Promise<Invoice> {
    const row = await invoiceById(tenantDb(ctx), id);
    if (!row) throw notFound();
    return presentInvoice(row);
  }

  /** POST /subscription: the invoice's Pix charge (created once, read again after). */
  async subscribe(ctx: RequestContext, body: SubscriptionCreate): Promise<SubscriptionCharge> {
    const db = tenantDb(ctx);
    const invoice = await invoiceById(db, body.invoiceId);
    if (!invoice) throw notFound();
    if (invoice.status === 'paid') throw new AppError('ERR_INVOICE_PAID', 409);
    // Kept whatever the provider answers: the next checkout starts from what was typed.
    const company = await this.#keepBillingDetails(ctx.companyId, body);
    const provider = await this.#provider();
    try {
      let chargeId = invoice.chargeId;
      if (!chargeId) {
        const customerId = await provider.customerFor({
          reference: `company-${ctx.companyId}`,
          name: company.billingName ?? body.firstName,
          email: body.email ?? company.email ?? null,
          cpfCnpj: body.cpfCnpj,
          postalCode: company.addressZipCode ?? undefined,
          address: company.addressStreet ?? undefined,
          province: company.addressDistrict ?? undefined,
        });
        const today = isoDay(new Date());
        const created = await provider.createPixCharge({
          customerId,
          value: invoice.value,
          // The provider refuses a charge due in the past: an overdue invoice is due today.
          dueDate: invoice.dueDate < today ? today : invoice.dueDate,
          description: invoice.detail,
          reference: chargeReference(ctx.companyId, invoice.id),
        });
        chargeId = (await keepCharge(db, invoice.id, created.id)) ?? created.id;
      }
      const code = await provider.pixCode(chargeId);
      return {
        invoiceId: invoice.id,
        chargeId,
        qrcode: {
          qrcode: code.payload,
          imagemQrcode: `data:image/png;base64,${code.encodedImage}`,
        },
        valor: { original: invoice.value.toFixed(2) },
        expiresAt: code.expirationDate,
      };
    } catch (error) {
      if (error instanceof PaymentProviderError) throw new AppError('ERR_PAYMENT_PROVIDER', 502);
      throw error;
    }
  }

  /**
   * The provider's webhook: its token first (constant time), then the event. A charge paid
   * marks its invoice paid and moves the company's due date on by its recurrence, in one
   * transaction; a replay finds the invoice paid and changes nothing.
   */
  async webhook(token: string | undefined, body: unknown): Promise<{ received: boolean }> {
    const expected = this.platform.config.ASAAS_WEBHOOK_TOKEN;
    // 403, not 401: a public route never answers what makes a signed-in client sign out.
    if (!expected || !sameSecret(token ?? '', expected)) {
      throw new AppError('ERR_NO_PERMISSION', 403);
    }
    const parsed = webhookSchema.safeParse(body);
    if (!parsed.success) throw new AppError('ERR_VALIDATION', 400);
    const { event, payment } = parsed.data;
    const target = parseChargeReference(payment?.externalReference);
    // Another event, or a charge that is not one of ours: taken, nothing to do.
    if (!PAID_EVENTS.has(event) || !payment || !target) return { received: true };
    const paid = await globalDb(this.platform).transaction(async (global, tenantOf) => {
      const invoice = await markPaid(
        tenantOf(target.companyId),
        target.invoiceId,
        payment.id,
        new Date(),
      );
      if (!invoice) return undefined;
      const company = await global.companyById(target.companyId);
      const months = RECURRENCE_MONTHS[(company?.recurrence ?? 'MENSAL') as Recurrence] ?? 1;
      const dueDate = await advanceDueDate(global, target.companyId, invoice.dueDate, months);
      return { invoiceId: invoice.id, dueDate };
    });
    if (paid) {
      this.platform.events.emit('invoice.paid', { companyId: target.companyId, ...paid });
    }
    return { received: true };
  }

  /**
   * The checkout's name and address, as the company's billing fields (the super user's company
   * form shows the same ones); each admin of the company sees the company change.
   */
  async #keepBillingDetails(companyId: number, body: SubscriptionCreate): Promise<Company> {
    const name = [body.firstName, body.lastName]
      .map((part) => part?.trim())
      .filter(Boolean)
      .join(' ');
    // The checkout has no district: the one the super user's form keeps stays.
    const company = await keepBillingDetails(globalDb(this.platform), companyId, {
      billingName: name.slice(0, 100),
      addressZipCode: billingText(body.zipcode),
      addressStreet: billingText(body.address2),
      addressCity: billingText(body.city),
      addressState: billingText(body.state),
    });
    if (!company) throw notFound();
    this.platform.events.emit('company.saved', { companyId, company });
    return company;
  }

  async #provider(): Promise<PaymentProvider> {
    const key = openSecretSetting(
      this.platform.config.SECRETS_KEY,
      await platformSetting(this.platform.db, 'asaas'),
    );
    if (!key) throw new AppError('ERR_PAYMENT_NOT_CONFIGURED', 503);
    return this.#providerFor(key);
  }

  #db(companyId: number): TenantDb {
    return tenantDb({ db: this.platform.db, companyId });
  }
}
