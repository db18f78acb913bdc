import { and, desc, eq, gt, inArray, isNotNull, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { GlobalDb } from '../../db/global';
import { companies, invoices, plans } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { likePattern } from '../../platform/routes';

export type InvoiceRow = typeof invoices.$inferSelect;

const LATEST_FIRST = [desc(invoices.dueDate), desc(invoices.id)] as const;

/** A search of invoices: in the detail, and by id when it is a number. */
function invoiceSearch(search: string | undefined): SQL | undefined {
  const text = search?.trim();
  if (!text) return undefined;
  const byDetail = sql`${invoices.detail} ilike ${likePattern(text)}`;
  const id = /^\d{1,9}$/.test(text) ? Number(text) : undefined;
  return id === undefined ? byDetail : or(byDetail, eq(invoices.id, id));
}

/** A page of the company's invoices, latest due date first; a number searches the id too. */
export async function invoicesPage(
  db: TenantDb,
  search: string | undefined,
  options: { limit: number; offset: number },
) {
  const where = invoiceSearch(search);
  const [rows, count] = await Promise.all([
    db
      .selectFrom(invoices, where)
      .orderBy(...LATEST_FIRST)
      .limit(options.limit)
      .offset(options.offset),
    db.count(invoices, where),
  ]);
  return { rows, count };
}

/** A page of every company's invoices for the super user, each with its company's name. */
export async function invoicesPageOfEveryCompany(
  db: GlobalDb,
  search: string | undefined,
  options: { limit: number; offset: number },
) {
  const where = invoiceSearch(search);
  // The same page as a company's, through the platform's handle (typed apart from a company's).
  const [rows, count] = await Promise.all([
    db
      .selectFrom(invoices, where)
      .orderBy(...LATEST_FIRST)
      .limit(options.limit)
      .offset(options.offset),
    db.count(invoices, where),
  ]);
  const companyIds = [...new Set(rows.map((row) => row.companyId))];
  const names = new Map(
    companyIds.length === 0
      ? []
      : (await db.selectFrom(companies, inArray(companies.id, companyIds))).map((company) => [
          company.id,
          company.name,
        ]),
  );
  return {
    rows: rows.map((row) => ({ ...row, companyName: names.get(row.companyId) ?? '' })),
    count,
  };
}

export async function invoiceById(db: TenantDb, id: number) {
  const [row] = await db.selectFrom(invoices, eq(invoices.id, id));
  return row;
}

/** Companies that bill (active, with a due date by `horizon`, on a plan that costs something). */
export async function companiesToInvoice(db: GlobalDb, horizon: string) {
  const due = await db
    .selectFrom(
      companies,
      and(
        eq(companies.status, true),
        isNotNull(companies.dueDate),
        lte(companies.dueDate, horizon),
      ),
    )
    .orderBy(companies.id);
  if (due.length === 0) return [];
  const planIds = [...new Set(due.map((company) => company.planId))];
  const plansById = new Map(
    (await db.selectFrom(plans, and(inArray(plans.id, planIds), gt(plans.value, 0)))).map(
      (plan) => [plan.id, plan],
    ),
  );
  return due.flatMap((company) => {
    const plan = plansById.get(company.planId);
    return plan ? [{ companyId: company.id, dueDate: company.dueDate!, plan }] : [];
  });
}

/** The invoice for a due date, unless one exists: whichever instance writes it first wins. */
export async function insertInvoiceOnce(
  db: TenantDb,
  invoice: { detail: string; value: number; dueDate: string },
): Promise<boolean> {
  const rows = await db
    .insert(invoices, invoice)
    .onConflictDoNothing({ target: [invoices.companyId, invoices.dueDate] })
    .returning({ id: invoices.id });
  return rows.length > 0;
}

/** Keeps the first charge created for the invoice and answers it (another may have won). */
export async function keepCharge(db: TenantDb, invoiceId: number, chargeId: string) {
  await db.update(
    invoices,
    { chargeId },
    and(eq(invoices.id, invoiceId), isNull(invoices.chargeId)) as SQL,
  );
  return (await invoiceById(db, invoiceId))?.chargeId ?? null;
}

/** Marks the open invoice of this charge paid; undefined when it was paid already (a replay). */
export async function markPaid(db: TenantDb, invoiceId: number, chargeId: string, at: Date) {
  const [row] = await db
    .update(
      invoices,
      { status: 'paid', paidAt: at },
      and(
        eq(invoices.id, invoiceId),
        eq(invoices.chargeId, chargeId),
        eq(invoices.status, 'open'),
      ) as SQL,
    )
    .returning();
  return row;
}

/**
 * Moves the company's due date to `months` after the paid invoice's, unless it is further
 * already (the super user advanced it): the new date, or undefined for no company.
 */
export async function advanceDueDate(
  db: GlobalDb,
  companyId: number,
  invoiceDueDate: string,
  months: number,
) {
  const next = sql`(${invoiceDueDate}::date + make_interval(months => ${months}))::date`;
  const [row] = await db
    .update(
      companies,
      { dueDate: sql`greatest(coalesce(${companies.dueDate}, ${next}), ${next})` },
      eq(companies.id, companyId),
    )
    .returning({ dueDate: companies.dueDate });
  return row?.dueDate ?? null;
}
