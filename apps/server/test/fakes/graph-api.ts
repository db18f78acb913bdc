import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  CloudMessage,
  CloudStatus,
  CloudValue,
  CloudWebhook,
} from '../../src/channels/cloud-api/cloud-api.normalise';

/**
 * The Graph API for tests: a real HTTP server on 127.0.0.1 that speaks the Cloud API's JSON
 * (phone number lookup, messages, media upload, media URL and download, OAuth errors), records
 * what was sent, and serves the files "phones" sent. Plus helpers that post webhooks signed the
 * way Meta signs them.
 */

export interface GraphSend {
  phoneNumberId: string;
  id: string;
  body: Record<string, unknown> & { to?: string; type?: string };
}

interface StoredMedia {
  phoneNumberId: string;
  bytes: Buffer;
  mimeType: string;
  fileName?: string;
}

const VERSION = 'v21.0';

const graphError = (res: ServerResponse, status: number, code: number, message: string) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      error: { message, type: 'OAuthException', code, fbtrace_id: randomBytes(8).toString('hex') },
    }),
  );
};

const json = (res: ServerResponse, body: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export const wamid = () => `wamid.HBgM${randomBytes(18).toString('base64url').toUpperCase()}`;

export class FakeGraphApi {
  readonly sends: GraphSend[] = [];
  /** Messages marked read (status 'read' posted to /messages), by business number. */
  readonly reads: { phoneNumberId: string; messageId: string }[] = [];
  readonly uploads = new Map<string, StoredMedia>();
  readonly #media = new Map<string, StoredMedia>();
  readonly #numbers = new Map<string, { token: string; display: string }>();
  #down = false;
  #stallMs?: number;
  downloads = 0;
  /** The Graph API base, version included: the server's CLOUD_API_GRAPH_URL. */
  url = '';
  /** Media whose URL this Graph API answers is somewhere else (a hostile or broken server). */
  readonly #elsewhere = new Map<string, string>();
  #server?: Server;

  static async start(): Promise<FakeGraphApi> {
    const graph = new FakeGraphApi();
    const server = createServer((req, res) => {
      graph.#handle(req, res).catch((error) => {
        res.writeHead(500).end(String(error));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    graph.#server = server;
    graph.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${VERSION}`;
    return graph;
  }

  /** A business number the token may use. */
  addNumber(phoneNumberId: string, accessToken: string, display = '+55 11 5555-0100') {
    this.#numbers.set(phoneNumberId, { token: accessToken, display });
  }

  /** The token stops working (revoked in Business Manager, or the number was removed). */
  revoke(accessToken: string) {
    for (const [id, number] of this.#numbers) {
      if (number.token === accessToken) this.#numbers.set(id, { ...number, token: '' });
    }
  }

  /** While down, every call answers 503 like a Graph outage. */
  setDown(down: boolean) {
    this.#down = down;
  }

  /**
   * Sends are taken (recorded, so the phone gets them) but answered only after `ms`: the answer
   * is lost to a client that gives up sooner. Undefined answers at once again.
   */
  stallAnswers(ms: number | undefined) {
    this.#stallMs = ms;
  }

  /**
   * What a server using this Graph API sets: its address, and the outbound guard letting this
   * one local address through (and nothing else of this machine).
   */
  get env(): Record<string, string> {
    return { CLOUD_API_GRAPH_URL: this.url, OUTBOUND_ALLOW_PRIVATE: new URL(this.url).host };
  }

  /** A media id whose URL, as this Graph API answers it, is `url` (anywhere at all). */
  addMediaAt(phoneNumberId: string, url: string, mimeType: string): string {
    const id = this.addMedia(phoneNumberId, Buffer.alloc(0), mimeType);
    this.#elsewhere.set(id, url);
    return id;
  }

  /** An address of this server that redirects (302) to `to`. */
  redirectTo(to: string): string {
    return `${this.url.replace(`/${VERSION}`, '')}/redirect?to=${encodeURIComponent(to)}`;
  }

  /** A file a phone sent: its media id for a webhook. */
  addMedia(phoneNumberId: string, bytes: Buffer, mimeType: string): string {
    const id = String(1_000_000_000_000 + Math.floor(Math.random() * 1e12));
    this.#media.set(id, { phoneNumberId, bytes, mimeType });
    return id;
  }

  readBy(phoneNumberId: string): string[] {
    return this.reads
      .filter((read) => read.phoneNumberId === phoneNumberId)
      .map((read) => read.messageId);
  }

  sentBy(phoneNumberId: string): GraphSend[] {
    return this.sends.filter((send) => send.phoneNumberId === phoneNumberId);
  }

  #authorised(req: IncomingMessage, phoneNumberId: string | undefined): boolean {
    const number = phoneNumberId ? this.#numbers.get(phoneNumberId) : undefined;
    return Boolean(number?.token && req.headers.authorization === `Bearer ${number.token}`);
  }

  async #handle(req: IncomingMessage, res: ServerResponse) {
    if (this.#down) {
      graphError(res, 503, 2, 'Service temporarily unavailable');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://graph.local');
    const [version, first, second] = url.pathname.split('/').filter(Boolean);
    if (version === 'redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      return;
    }
    if (version === 'download' && first) {
      const file = this.#media.get(first) ?? this.uploads.get(first);
      if (!file || !this.#authorised(req, file.phoneNumberId)) {
        graphError(res, 401, 190, 'Error validating access token');
        return;
      }
      this.downloads += 1;
      res.writeHead(200, { 'content-type': file.mimeType, 'content-length': file.bytes.length });
      res.end(file.bytes);
      return;
    }
    if (version !== VERSION || !first) {
      graphError(res, 400, 2500, 'Unknown path components');
      return;
    }
    const media = this.#media.get(first) ?? this.uploads.get(first);
    if (media && req.method === 'GET' && !second) {
      if (!this.#authorised(req, media.phoneNumberId)) {
        graphError(res, 401, 190, 'Error validating access token');
        return;
      }
      json(res, {
        messaging_product: 'whatsapp',
        url:
          this.#elsewhere.get(first) ?? `${this.url.replace(`/${VERSION}`, '')}/download/${first}`,
        mime_type: media.mimeType,
        sha256: createHash('sha256').update(media.bytes).digest('hex'),
        file_size: media.bytes.length,
        id: first,
      });
      return;
    }
    const number = this.#numbers.get(first);
    if (!number) {
      graphError(res, 400, 100, `Unsupported request - object with ID '${first}' does not exist`);
      return;
    }
    if (!this.#authorised(req, first)) {
      graphError(res, 401, 190, 'Error validating access token: The session has been invalidated');
      return;
    }
    if (req.method === 'GET' && !second) {
      json(res, { display_phone_number: number.display, verified_name: 'Atendi Test', id: first });
    } else if (req.method === 'POST' && second === 'messages') {
      await this.#message(req, res, first);
    } else if (req.method === 'POST' && second === 'media') {
      await this.#upload(req, res, first);
    } else {
      graphError(res, 400, 100, 'Unsupported request');
    }
  }

  async #message(req: IncomingMessage, res: ServerResponse, phoneNumberId: string) {
    const body = JSON.parse((await bodyOf(req)).toString('utf8')) as GraphSend['body'];
    if (body.status !== undefined) {
      // Marking a received message read: the only status a business may post.
      if (
        body.messaging_product !== 'whatsapp' ||
        body.status !== 'read' ||
        typeof body.message_id !== 'string' ||
        !body.message_id
      ) {
        graphError(res, 400, 100, 'Invalid parameter');
        return;
      }
      this.reads.push({ phoneNumberId, messageId: body.message_id });
      json(res, { success: true });
      return;
    }
    if (body.messaging_product !== 'whatsapp' || !body.to || !body.type) {
      graphError(res, 400, 100, 'Invalid parameter');
      return;
    }
    const content = body[body.type] as { id?: string } | undefined;
    if (body.type !== 'text' && (!content?.id || !this.uploads.has(content.id))) {
      graphError(res, 400, 131053, 'Media upload error');
      return;
    }
    const id = wamid();
    this.sends.push({ phoneNumberId, id, body });
    if (this.#stallMs !== undefined) {
      await new Promise((resolve) => setTimeout(resolve, this.#stallMs));
      if (res.destroyed) return;
    }
    json(res, {
      messaging_product: 'whatsapp',
      contacts: [{ input: body.to, wa_id: body.to }],
      messages: [{ id }],
    });
  }

  async #upload(req: IncomingMessage, res: ServerResponse, phoneNumberId: string) {
    const raw = await bodyOf(req);
    const form = await new Response(raw, {
      headers: { 'content-type': req.headers['content-type'] ?? '' },
    }).formData();
    const file = form.get('file');
    if (form.get('messaging_product') !== 'whatsapp' || !(file instanceof Blob)) {
      graphError(res, 400, 100, 'Invalid parameter');
      return;
    }
    const id = String(2_000_000_000_000 + this.uploads.size);
    this.uploads.set(id, {
      phoneNumberId,
      bytes: Buffer.from(await file.arrayBuffer()),
      mimeType: String(form.get('type') ?? file.type),
      fileName: file instanceof File ? file.name : undefined,
    });
    json(res, { id });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.#server) resolve();
      else this.#server.close(() => resolve());
    });
  }
}

/** A 'messages' webhook for one business number, as Meta posts it. */
export function webhookPayload(phoneNumberId: string, value: Partial<CloudValue>): CloudWebhook {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550100', phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/** A phone's message in a webhook, with its sender's profile. */
export function messageWebhook(
  phoneNumberId: string,
  from: { phone: string; name?: string },
  message: Omit<CloudMessage, 'from' | 'id' | 'timestamp'> & { id?: string },
): { payload: CloudWebhook; id: string } {
  const id = message.id ?? wamid();
  return {
    id,
    payload: webhookPayload(phoneNumberId, {
      contacts: [{ wa_id: from.phone, profile: { name: from.name ?? '' } }],
      messages: [
        {
          ...message,
          id,
          from: from.phone,
          timestamp: String(Math.floor(Date.now() / 1000)),
        },
      ],
    }),
  };
}

export function statusWebhook(
  phoneNumberId: string,
  statuses: Pick<CloudStatus, 'id' | 'status' | 'recipient_id'>[],
): CloudWebhook {
  return webhookPayload(phoneNumberId, {
    statuses: statuses.map((status) => ({
      ...status,
      timestamp: String(Math.floor(Date.now() / 1000)),
    })),
  });
}

export const signatureOf = (appSecret: string, body: string) =>
  `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;

/** Posts a webhook to the server the way Meta does: JSON body and X-Hub-Signature-256. */
export function postWebhook(
  serverUrl: string,
  connectionId: number,
  appSecret: string,
  payload: CloudWebhook,
  options: { signature?: string | null } = {},
): Promise<Response> {
  const body = JSON.stringify(payload);
  const signature =
    options.signature === undefined ? signatureOf(appSecret, body) : options.signature;
  return fetch(`${serverUrl}/webhooks/cloud-api/${connectionId}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signature ? { 'x-hub-signature-256': signature } : {}),
    },
    body,
  });
}
