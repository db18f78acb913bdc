import { openAsBlob } from 'node:fs';
import type { Readable } from 'node:stream';
import type { CloudApiSettings } from '@atendi/shared';
import {
  type OutboundClient,
  OutboundFailed,
  OutboundForm,
  OutboundRefused,
  type OutboundRequest,
} from '../../platform/outbound';
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

/** The largest file a contact's message may bring (WhatsApp's own limit is 100 MB). */
const DOWNLOAD_MAX_BYTES = 100 * 1024 * 1024;

/** Meta's host of the media files the Graph API names; the token is asked there too. */
const META_MEDIA_HOSTS = ['lookaside.fbsbx.com'];

/** Failures before a request could leave: nothing was sent. */
function neverSent(error: unknown): boolean {
  return error instanceof OutboundRefused || (error instanceof OutboundFailed && error.notSent);
}

/** Where the Graph API is (the platform's setting, Meta's by default) and the door out. */
export interface GraphAccess {
  outbound: Pick<OutboundClient, 'request' | 'stream'>;
  /** The Graph API base with its version (CLOUD_API_GRAPH_URL). */
  base: string;
}

/**
 * The Graph API calls a Cloud API connection makes, through the one door out
 * (platform/outbound.ts). The address is the platform's, never a company's; the connection's
 * token goes only to it and to Meta's media host, and a media file is fetched only from them.
 */
export class GraphClient {
  readonly #base: string;
  readonly #hosts: string[];

  constructor(
    private readonly settings: CloudApiSettings,
    private readonly access: GraphAccess,
    private readonly timeoutMs = CALL_TIMEOUT_MS,
  ) {
    this.#base = access.base.replace(/\/+$/, '');
    this.#hosts = [new URL(this.#base).host, ...META_MEDIA_HOSTS];
  }

  #request(): Pick<OutboundRequest, 'credentials' | 'credentialHosts'> {
    return {
      credentials: { authorization: `Bearer ${this.settings.accessToken}` },
      credentialHosts: this.#hosts,
    };
  }

  async #call<T>(
    path: string,
    init: Pick<OutboundRequest, 'method' | 'headers' | 'body'> = {},
  ): Promise<T> {
    const response = await this.access.outbound.request(`${this.#base}/${path}`, {
      ...init,
      ...this.#request(),
      timeoutMs: this.timeoutMs,
    });
    let body: { error?: { code?: number; message?: string } } = {};
    try {
      body = response.json();
    } catch {}
    if (response.status < 200 || response.status >= 300) {
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
    const form = new OutboundForm();
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

  /**
   * The file behind a media URL as a stream (the URL wants the same bearer token). Only the Graph
   * API's own host and Meta's media host are asked: a URL elsewhere is refused, whatever the
   * Graph API answered.
   */
  async download(url: string): Promise<Readable> {
    let host: string;
    try {
      host = new URL(url).host;
    } catch {
      throw new GraphError(0, undefined, 'the media URL is not an address');
    }
    if (!this.#hosts.includes(host)) {
      throw new GraphError(0, undefined, `media URL outside the Graph API's hosts (${host})`);
    }
    const response = await this.access.outbound.stream(url, {
      ...this.#request(),
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
      maxBytes: DOWNLOAD_MAX_BYTES,
    });
    if (response.status !== 200) {
      response.body.destroy();
      throw new GraphError(
        response.status,
        undefined,
        `media download answered ${response.status}`,
      );
    }
    return response.body;
  }
}
