/**
 * A payment provider that charges by Pix: the checkout finds or creates the company as its
 * customer, creates a charge for an invoice, and shows the charge's QR code. The provider then
 * tells the payment through its webhook.
 */
export interface PaymentProvider {
  /** The provider's customer for the company (found by its reference, else created). */
  customerFor(customer: PaymentCustomer): Promise<string>;
  createPixCharge(charge: PixChargeRequest): Promise<{ id: string }>;
  pixCode(chargeId: string): Promise<PixCode>;
}

export interface PaymentCustomer {
  /** Ours, so the same company is found again: `company-<id>`. */
  reference: string;
  name: string;
  email?: string | null;
  cpfCnpj?: string;
  postalCode?: string;
  /** The street and number. */
  address?: string;
  /** The district (bairro); the provider finds the city and state from the postal code. */
  province?: string;
}

export interface PixChargeRequest {
  customerId: string;
  value: number;
  /** YYYY-MM-DD, not before today. */
  dueDate: string;
  description: string;
  /** Ours, read back from the webhook: `<companyId>:<invoiceId>`. */
  reference: string;
}

export interface PixCode {
  /** Base64 of the QR code's PNG. */
  encodedImage: string;
  /** The copy-and-paste code. */
  payload: string;
  expirationDate: string | null;
}

/** The provider refused or could not be reached; `detail` is its own words, for the logs. */
export class PaymentProviderError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`payment provider: ${status} ${detail}`);
    this.name = 'PaymentProviderError';
  }
}

/** The charge's reference for an invoice, and back. */
export const chargeReference = (companyId: number, invoiceId: number) =>
  `${companyId}:${invoiceId}`;

export function parseChargeReference(
  reference: string | null | undefined,
): { companyId: number; invoiceId: number } | undefined {
  const match = reference?.match(/^(\d{1,10}):(\d{1,10})$/);
  if (!match) return undefined;
  const companyId = Number(match[1]);
  const invoiceId = Number(match[2]);
  const max = 2_147_483_647;
  if (!companyId || !invoiceId || companyId > max || invoiceId > max) return undefined;
  return { companyId, invoiceId };
}
