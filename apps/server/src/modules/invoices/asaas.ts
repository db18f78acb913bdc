import type { OutboundClient, OutboundResponse } from '../../platform/outbound';
import {
  type PaymentCustomer,
  type PaymentProvider,
  PaymentProviderError,
  type PixChargeRequest,
  type PixCode,
} from './payment-provider';

export interface AsaasOptions {
  outbound: Pick<OutboundClient, 'request'>;
  /** https://api.asaas.com/v3, or the sandbox's https://api-sandbox.asaas.com/v3. */
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

interface AsaasList<T> {
  data?: T[];
}
interface AsaasErrors {
  errors?: { code?: string; description?: string }[];
}

/**
 * Asaas (REST v3): the key travels in the `access_token` header; customers, then a PIX charge
 * (`billingType: 'PIX'`), then its QR code (`/payments/{id}/pixQrCode`).
 */
export class AsaasProvider implements PaymentProvider {
  readonly #base: string;

  constructor(private readonly options: AsaasOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, '');
  }

  async customerFor(customer: PaymentCustomer): Promise<string> {
    const found = await this.#call<AsaasList<{ id: string }>>(
      'GET',
      `/customers?externalReference=${encodeURIComponent(customer.reference)}&limit=1`,
    );
    const existing = found.data?.[0]?.id;
    if (existing) return existing;
    const created = await this.#call<{ id: string }>('POST', '/customers', {
      name: customer.name,
      email: customer.email ?? undefined,
      cpfCnpj: customer.cpfCnpj || undefined,
      postalCode: customer.postalCode || undefined,
      address: customer.address || undefined,
      province: customer.province || undefined,
      externalReference: customer.reference,
      // The product tells its companies itself; the provider sends no e-mails of its own.
      notificationDisabled: true,
    });
    return created.id;
  }

  async createPixCharge(charge: PixChargeRequest): Promise<{ id: string }> {
    const created = await this.#call<{ id: string }>('POST', '/payments', {
      customer: charge.customerId,
      billingType: 'PIX',
      value: charge.value,
      dueDate: charge.dueDate,
      description: charge.description,
      externalReference: charge.reference,
    });
    return { id: created.id };
  }

  async pixCode(chargeId: string): Promise<PixCode> {
    const code = await this.#call<{
      encodedImage: string;
      payload: string;
      expirationDate?: string | null;
    }>('GET', `/payments/${encodeURIComponent(chargeId)}/pixQrCode`);
    return {
      encodedImage: code.encodedImage,
      payload: code.payload,
      expirationDate: code.expirationDate ?? null,
    };
  }

  async #call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: OutboundResponse;
    try {
      // The key goes to the configured host only, never where a redirect points.
      response = await this.options.outbound.request(`${this.#base}${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'user-agent': 'atendi' },
        credentials: { access_token: this.options.apiKey },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: this.options.timeoutMs,
      });
    } catch (error) {
      throw new PaymentProviderError(0, (error as Error).message);
    }
    const text = response.text;
    if (response.status < 200 || response.status >= 300) {
      let detail = text.slice(0, 300);
      try {
        const parsed = JSON.parse(text) as AsaasErrors;
        const first = parsed.errors?.[0];
        if (first?.description) detail = `${first.code ?? ''} ${first.description}`.trim();
      } catch {}
      throw new PaymentProviderError(response.status, detail);
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new PaymentProviderError(response.status, 'not JSON');
    }
  }
}
