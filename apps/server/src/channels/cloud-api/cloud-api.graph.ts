import { openAsBlob } from 'node:fs';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { type CloudApiSettings, DEFAULT_GRAPH_API_URL } from '@atendi/shared';
import { SendOutcomeUnknownError } from '../errors';

export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'GraphError';
  }

  /** The token stopped working (revoked, expired) or the number left the account. */
  get unauthorized(): boolean {
    return this.status === 401 || this.code === 190;
  }
}

export const CALL_TIMEOUT_MS = 30_000;
const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;

export interface GraphMessageAnswer {
  messaging_product: 'whatsapp';
  contacts?: { input: string; wa_id: string }[];
  messages: { id: string }[];
}

/** Failures before a request could leave: nothing was sent. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

function neverSent(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } } | undefined)?.cause?.code;
  return code !== undefined && NOT_SENT.has(code);
}

/** The Graph API calls a Cloud API connection makes, over plain fetch. */
export class GraphClient {
  readonly #base: string;

  constructor(
    private readonly settings: CloudApiSettings,
    private readonly allowInsecure: boolean,
    private readonly timeoutMs = CALL_TIMEOUT_MS,
  ) {
    this.#base = (settings.graphApiUrl ?? DEFAULT_GRAPH_API_URL).replace(/\/+$/, '');
    this.#checkAddress(this.#base);
  }

  /** The bearer token goes only to https addresses (plain http only for local test servers). */
  #checkAddress(address: string) {
    if (!this.allowInsecure && !address.startsWith('https://')) {
      throw new GraphError(0, undefined, 'Graph API addresses must use https');
    }
  }

  get #auth() {
    return { authorization: `Bearer ${this.settings.accessToken}` };
  }

  async #call<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await fetch(`${this.#base}/${path}`, {
      ...init,
      headers: { ...this.#auth, ...(init.headers as Record<string, string> | undefined) },
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const body = (await response.json().catch(() => ({}))) as {
      error?: { code?: number; message?: string };
    };
    if (!response.ok) {
      throw new GraphError(
        response.status,
        body.error?.code,
        body.error?.message ?? `Graph API answered ${response.status}`,
      );
    }
    return body as T;
  }

  get #phone() {
    return encodeURIComponent(this.settings.phoneNumberId);
  }

  /** The business number behind the settings: it answers only if the token still works. */
  phoneNumber() {
    return this.#call<{ id: string; display_phone_number?: string; verified_name?: string }>(
      `${this.#phone}?fields=display_phone_number,verified_name`,
    );
  }

  /**
   * Sends a message. The Graph API names it only in its answer, so when the answer is lost (a
   * timeout, a broken link once the request went out) nobody knows whether it was sent:
   * SendOutcomeUnknownError, which is never retried by itself.
   */
  async sendMessage(payload: Record<string, unknown>) {
    try {
      return await this.#call<GraphMessageAnswer>(`${this.#phone}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messaging_product: 'whatsapp', ...payload }),
      });
    } catch (error) {
      if (error instanceof GraphError || neverSent(error)) throw error;
      throw new SendOutcomeUnknownError('the Graph API did not answer the send', { cause: error });
    }
  }

  /** Marks a received message read; WhatsApp marks the earlier ones of the chat with it. */
  markRead(messageId: string) {
    return this.#call<{ success: boolean }>(`${this.#phone}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        status: 'read',
        message_id: messageId,
      }),
    });
  }

  /** Uploads a stored file (read from disk as it is sent) and answers its media id. */
  async uploadMedia(path: string, mimeType: string, fileName: string) {
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('type', mimeType);
    form.set('file', await openAsBlob(path, { type: mimeType }), fileName);
    return this.#call<{ id: string }>(`${this.#phone}/media`, { method: 'POST', body: form });
  }

  mediaInfo(mediaId: string) {
    return this.#call<{ url: string; mime_type?: string; file_size?: number; id: string }>(
      encodeURIComponent(mediaId),
    );
  }

  /** The file behind a media URL as a stream (the URL wants the same bearer token). */
  async download(url: string): Promise<Readable> {
    this.#checkAddress(url);
    const response = await fetch(url, {
      headers: this.#auth,
      signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
    });
    if (!response.ok || !response.body) {
      throw new GraphError(
        response.status,
        undefined,
        `media download answered ${response.status}`,
      );
    }
    return Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  }
}
