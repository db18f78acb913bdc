import { z } from 'zod';
import { listQuerySchema } from '../pagination';
import { positiveId } from '../validation';

export const INVOICE_STATUSES = ['open', 'paid'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** A company's invoice (spec administration 3): one per due date of its subscription. */
export const invoiceSchema = z.object({
  id: z.number(),
  companyId: z.number(),
  detail: z.string(),
  value: z.number(),
  /** YYYY-MM-DD. */
  dueDate: z.string(),
  status: z.enum(INVOICE_STATUSES),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The company's name, on the super user's view of every company's invoices. */
  companyName: z.string().optional(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const invoicesQuerySchema = listQuerySchema.extend({
  /** 'all': every company's invoices, for the super user (anyone else gets their company's). */
  companies: z.enum(['own', 'all']).optional(),
});
export type InvoicesQuery = z.infer<typeof invoicesQuerySchema>;

export const invoicesPageSchema = z.object({
  invoices: z.array(invoiceSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type InvoicesPage = z.infer<typeof invoicesPageSchema>;

/** GET /invoices/all answers its invoices as a bare list (the original product's client reads one). */
export const INVOICES_LIST_MAX = 500;

const text = (max: number) => z.string().max(max).optional();

/**
 * POST /subscription as the spec's checkout sends it. What is charged comes from the invoice
 * (its value), never from the price or plan the client sends; the card fields of the original
 * form are accepted and ignored (the charge is a Pix one). The name and address are kept as the
 * company's billing fields, so they are bounded as the company form bounds them.
 */
export const subscriptionCreateSchema = z.object({
  invoiceId: positiveId,
  firstName: z.string().trim().min(1).max(100),
  lastName: text(100),
  address2: text(200),
  city: text(100),
  state: text(50),
  zipcode: text(20),
  country: text(60),
  /** CPF or CNPJ (digits or masked): the provider needs it to charge a Brazilian customer. */
  cpfCnpj: z
    .string()
    .max(20)
    .regex(/^[\d.\-/\s]*$/, 'Invalid CPF/CNPJ')
    .transform((value) => value.replace(/\D/g, ''))
    .optional(),
  email: z.string().email().max(200).optional(),
  useAddressForPaymentDetails: z.union([z.boolean(), z.string().max(10)]).optional(),
  nameOnCard: text(200),
  cardNumber: text(40),
  cvv: text(10),
  plan: z.union([z.string().max(2000), z.record(z.string(), z.unknown())]).optional(),
  price: z.union([z.number(), z.string().max(40)]).optional(),
  users: z.union([z.number(), z.string().max(40)]).optional(),
  connections: z.union([z.number(), z.string().max(40)]).optional(),
});
export type SubscriptionCreate = z.infer<typeof subscriptionCreateSchema>;

/** The Pix charge as the spec's client reads it: `qrcode.qrcode` and `valor.original`. */
export const subscriptionChargeSchema = z.object({
  invoiceId: z.number(),
  chargeId: z.string(),
  qrcode: z.object({
    /** The copy-and-paste code (Pix "copia e cola"). */
    qrcode: z.string(),
    /** The QR code as a data: URL of a PNG image. */
    imagemQrcode: z.string(),
  }),
  valor: z.object({ original: z.string() }),
  /** When the Pix code stops being accepted, if the provider says. */
  expiresAt: z.string().nullable(),
});
export type SubscriptionCharge = z.infer<typeof subscriptionChargeSchema>;

/** The `payment` realtime event: the invoice paid and the company's new due date. */
export interface PaymentEvent {
  action: 'CONCLUIDA';
  invoiceId: number;
  company: { id: number; dueDate: string | null };
}
