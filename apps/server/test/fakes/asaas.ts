import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import QRCode from 'qrcode';

/**
 * Asaas' REST API v3 on 127.0.0.1, as far as a Pix checkout uses it: the key in the
 * `access_token` header; customers (list by externalReference, create: name and cpfCnpj
 * required, the address kept as sent), PIX charges (POST /payments, due date not in the past) and their QR code
 * (GET /payments/{id}/pixQrCode: encodedImage as a base64 PNG, payload). `pay` (or the sandbox's
 * POST /sandbox/payment/{id}/confirm) settles a charge and calls the webhook as Asaas does: POST
 * with the `asaas-access-token` header.
 */

export interface FakeCustomer {
  id: string;
  name: string;
  email: string | null;
  cpfCnpj: string;
  externalReference: string | null;
  /** The address as sent (Asaas completes city and state from the postal code). */
  postalCode?: string | null;
  address?: string | null;
  province?: string | null;
}

export interface FakeCharge {
  id: string;
  customer: string;
  billingType: string;
  value: number;
  dueDate: string;
  description: string | null;
  externalReference: string | null;
  status: 'PENDING' | 'RECEIVED';
  payload: string;
}

export interface AsaasWebhookEvent {
  id: string;
  event: string;
  dateCreated: string;
  payment: {
    object: 'payment';
    id: string;
    customer: string;
    value: number;
    netValue: number;
    billingType: string;
    status: string;
    dueDate: string;
    paymentDate: string | null;
    description: string | null;
    externalReference: string | null;
  };
}

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const refuse = (res: ServerResponse, status: number, code: string, description: string) =>
  send(res, status, { errors: [{ code, description }] });

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
const today = () => new Date().toISOString().slice(0, 10);

export class FakeAsaas {
  readonly customers: FakeCustomer[] = [];
  readonly charges: FakeCharge[] = [];
  /** Every call, as method and path, for tests that count them. */
  readonly calls: string[] = [];
  /** The `access_token` header of every call, in the order of `calls` ('' when missing). */
  readonly keysSeen: string[] = [];
  #server: Server | undefined;
  #port = 0;

  constructor(
    readonly apiKey: string,
    /** Where `pay` sends the webhook, and the token it sends with it. */
    public webhook: { url: string; authToken: string } | undefined = undefined,
  ) {}

  get baseUrl() {
    return `http://127.0.0.1:${this.#port}/v3`;
  }

  async start(port = 0): Promise<this> {
    this.#server = createServer((req, res) => {
      void this.#handle(req, res).catch((error: Error) =>
        refuse(res, 500, 'internal', error.message),
      );
    });
    await new Promise<void>((resolve) => this.#server!.listen(port, '127.0.0.1', resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
    return this;
  }

  async close() {
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }

  /** The event Asaas sends when the charge is paid by Pix. */
  receivedEvent(chargeId: string): AsaasWebhookEvent {
    const charge = this.charges.find((c) => c.id === chargeId);
    if (!charge) throw new Error(`no charge ${chargeId}`);
    return {
      id: id('evt'),
      event: 'PAYMENT_RECEIVED',
      dateCreated: new Date().toISOString(),
      payment: {
        object: 'payment',
        id: charge.id,
        customer: charge.customer,
        value: charge.value,
        netValue: charge.value,
        billingType: charge.billingType,
        status: 'RECEIVED',
        dueDate: charge.dueDate,
        paymentDate: today(),
        description: charge.description,
        externalReference: charge.externalReference,
      },
    };
  }

  /** Settles the charge and calls the webhook with its event; answers the event and the status. */
  async pay(chargeId: string): Promise<{ event: AsaasWebhookEvent; status: number }> {
    const charge = this.charges.find((c) => c.id === chargeId);
    if (!charge) throw new Error(`no charge ${chargeId}`);
    charge.status = 'RECEIVED';
    const event = this.receivedEvent(chargeId);
    if (!this.webhook) return { event, status: 0 };
    const response = await fetch(this.webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'asaas-access-token': this.webhook.authToken,
      },
      body: JSON.stringify(event),
    });
    return { event, status: response.status };
  }

  async #handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const text = await read(req);
    this.calls.push(`${method} ${url.pathname}`);
    const key = req.headers.access_token;
    this.keysSeen.push(typeof key === 'string' ? key : '');
    if (key !== this.apiKey) {
      return refuse(res, 401, 'invalid_access_token', 'A chave de API fornecida é inválida');
    }
    let body: Record<string, unknown> = {};
    if (text) {
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return refuse(res, 400, 'invalid_object', 'JSON inválido');
      }
    }
    const path = url.pathname.replace(/^\/v3/, '');
    if (method === 'GET' && path === '/customers') {
      const reference = url.searchParams.get('externalReference');
      const data = this.customers.filter(
        (c) => reference === null || c.externalReference === reference,
      );
      return send(res, 200, {
        object: 'list',
        hasMore: false,
        totalCount: data.length,
        limit: Number(url.searchParams.get('limit') ?? 10),
        offset: 0,
        data: data.map((c) => ({ object: 'customer', ...c })),
      });
    }
    if (method === 'POST' && path === '/customers') {
      if (typeof body.name !== 'string' || !body.name.trim()) {
        return refuse(res, 400, 'invalid_name', 'O nome do cliente deve ser informado.');
      }
      if (typeof body.cpfCnpj !== 'string' || !/^(\d{11}|\d{14})$/.test(body.cpfCnpj)) {
        return refuse(res, 400, 'invalid_cpfCnpj', 'O CPF/CNPJ informado é inválido.');
      }
      const customer: FakeCustomer = {
        id: id('cus'),
        name: body.name,
        email: typeof body.email === 'string' ? body.email : null,
        cpfCnpj: body.cpfCnpj,
        externalReference:
          typeof body.externalReference === 'string' ? body.externalReference : null,
        postalCode: typeof body.postalCode === 'string' ? body.postalCode : null,
        address: typeof body.address === 'string' ? body.address : null,
        province: typeof body.province === 'string' ? body.province : null,
      };
      this.customers.push(customer);
      return send(res, 200, { object: 'customer', ...customer });
    }
    if (method === 'POST' && path === '/payments') {
      if (!this.customers.some((c) => c.id === body.customer)) {
        return refuse(res, 400, 'invalid_customer', 'Cliente inexistente.');
      }
      if (!['PIX', 'BOLETO', 'CREDIT_CARD', 'UNDEFINED'].includes(String(body.billingType))) {
        return refuse(res, 400, 'invalid_billingType', 'Forma de pagamento inválida.');
      }
      if (typeof body.value !== 'number' || body.value <= 0) {
        return refuse(res, 400, 'invalid_value', 'O valor da cobrança deve ser informado.');
      }
      const dueDate = String(body.dueDate ?? '');
      if (!/^\d{4}-\d{2}-\d{2}$/.test(dueDate) || dueDate < today()) {
        return refuse(
          res,
          400,
          'invalid_dueDate',
          'A data de vencimento não pode ser anterior à data atual.',
        );
      }
      const charge: FakeCharge = {
        id: id('pay'),
        customer: String(body.customer),
        billingType: String(body.billingType),
        value: body.value,
        dueDate,
        description: typeof body.description === 'string' ? body.description : null,
        externalReference:
          typeof body.externalReference === 'string' ? body.externalReference : null,
        status: 'PENDING',
        payload: `00020101021226820014br.gov.bcb.pix2560fake.asaas.local/qr/v2/${randomBytes(12).toString('hex')}5204000053039865802BR5905ASAAS6009SAO PAULO6304ABCD`,
      };
      this.charges.push(charge);
      const { payload: _payload, ...shown } = charge;
      return send(res, 200, { object: 'payment', netValue: charge.value, ...shown });
    }
    // The sandbox's "confirm payment" (no real money moves there): settles it, calls the webhook.
    const confirm = path.match(/^\/sandbox\/payment\/([^/]+)\/confirm$/);
    if (method === 'POST' && confirm) {
      const chargeId = decodeURIComponent(confirm[1]!);
      if (!this.charges.some((c) => c.id === chargeId)) {
        return refuse(res, 404, 'not_found', 'Cobrança não encontrada.');
      }
      const { event } = await this.pay(chargeId);
      return send(res, 200, event.payment);
    }
    const qr = path.match(/^\/payments\/([^/]+)\/pixQrCode$/);
    if (method === 'GET' && qr) {
      const charge = this.charges.find((c) => c.id === decodeURIComponent(qr[1]!));
      if (!charge) return refuse(res, 404, 'not_found', 'Cobrança não encontrada.');
      const png = await QRCode.toBuffer(charge.payload, { type: 'png', margin: 1 });
      return send(res, 200, {
        encodedImage: png.toString('base64'),
        payload: charge.payload,
        expirationDate: `${charge.dueDate} 23:59:59`,
      });
    }
    return refuse(res, 404, 'not_found', 'Recurso não encontrado.');
  }
}

/**
 * `npx tsx apps/server/test/fakes/asaas.ts`: the fake on its own (port ASAAS_FAKE_PORT, default
 * 18500), for a demo without an Asaas account. Start the server with the printed settings and
 * put the printed key in the super user's `asaas` setting (Configurações > Opções > Pagamentos).
 */
if (import.meta.url === `file://${process.argv[1]}`) {
  const key = process.env.ASAAS_FAKE_KEY ?? '$aact_local_fake_key';
  const token = process.env.ASAAS_WEBHOOK_TOKEN ?? 'local-fake-webhook-token';
  const api = process.env.BACKEND_URL ?? 'http://127.0.0.1:8080';
  const fake = await new FakeAsaas(key, {
    url: `${api}/subscription/webhook`,
    authToken: token,
  }).start(Number(process.env.ASAAS_FAKE_PORT ?? 18500));
  console.log(
    `ASAAS_BASE_URL=${fake.baseUrl} OUTBOUND_ALLOW_PRIVATE=${new URL(fake.baseUrl).host} ASAAS_WEBHOOK_TOKEN=${token} (asaas key: ${key})`,
  );
  console.log(
    `pay a charge: curl -X POST -H 'access_token: ${key}' ${fake.baseUrl}/sandbox/payment/<pay_id>/confirm`,
  );
}
