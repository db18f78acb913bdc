import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type Readable, Transform } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector, type Dispatcher, FormData } from 'undici';
import type { PrivateAllowance } from '../config';

/**
 * The one door out: every HTTP request the server makes to an address a company or the platform
 * configured (queue integrations, the Cloud API's Graph API and the media it names, the AI and
 * voice services, Asaas, WhatsApp's picture servers) goes through `OutboundClient`, and an
 * architecture test refuses `fetch`, `undici` and `http(s).request` anywhere else.
 *
 * - Every connection is made by our connector (undici's, behind a check): the host is resolved,
 *   every address it has is classified (ipaddr.js) and any loopback, private, link-local,
 *   unique-local, CGNAT, unspecified, multicast, reserved or documentation address refuses the
 *   request; the socket then goes to the address that was checked, so a DNS answer that changes
 *   between the check and the connect (rebinding) cannot switch it. IPv4 inside IPv6 (mapped,
 *   NAT64, 6to4) is judged as the IPv4 it carries; decimal and hex forms (`http://2130706433/`)
 *   are read as the URL standard reads them, as 127.0.0.1.
 * - Redirects are followed here, never by the library: each hop is a new request through the
 *   same check, at most `maxRedirects` of them.
 * - Credentials (Authorization, cookies, a provider's key header) go only to the hosts they were
 *   meant for (the first address's host unless the caller names others), never over plain http
 *   once the first address was https, so a redirect cannot carry them elsewhere.
 * - Each request has a deadline (connect, answer and body together) and answers are bounded in
 *   size.
 *
 * The operator may let private targets through (OUTBOUND_ALLOW_PRIVATE): all of them (`true`) or
 * only the hosts, host:port pairs and networks listed, as the tests do for their local fakes.
 */

export class OutboundRefused extends Error {
  readonly reason: string;
  constructor(url: string, reason: string) {
    super(`refused outbound request to ${originOf(url)}: ${reason}`);
    this.name = 'OutboundRefused';
    this.reason = reason;
  }
}

/** Failures before a request could leave: nothing was sent. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ENORESOLVE',
]);

export class OutboundFailed extends Error {
  /** The system's or the library's code of the failure (`ECONNREFUSED`, `ETIMEDOUT`...). */
  readonly code: string | undefined;
  constructor(url: string, detail: string, code?: string) {
    super(`request to ${originOf(url)} failed: ${detail}`);
    this.name = 'OutboundFailed';
    this.code = code;
  }

  /** The request never left (the name did not resolve, the connection was refused). */
  get notSent(): boolean {
    return this.code !== undefined && NOT_SENT.has(this.code);
  }
}

/** Only the origin of an address goes into a message: its path or query may hold a secret. */
function originOf(raw: string): string {
  try {
    return new URL(raw).origin;
  } catch {
    return 'an invalid address';
  }
}

// --- addresses ---------------------------------------------------------------------------------

/** The IPv4 address an IPv6 one carries (mapped, translated, NAT64 /96, 6to4), if it carries one. */
export function embeddedIpv4(address: string): string | undefined {
  if (!ipaddr.IPv6.isValid(address)) return undefined;
  const parsed = ipaddr.IPv6.parse(address);
  const parts = parsed.parts;
  const v4 = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');
  switch (parsed.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return v4(parts[6]!, parts[7]!);
    case 'rfc6052':
      // 64:ff9b::/96 carries the address in its last 32 bits; the local-use /48 is not read.
      return parts[2] === 0 ? v4(parts[6]!, parts[7]!) : undefined;
    case '6to4':
      return v4(parts[1]!, parts[2]!);
    default:
      // ::a.b.c.d, the deprecated IPv4-compatible form (not :: and ::1 themselves)
      if (parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7]! > 1)) {
        return v4(parts[6]!, parts[7]!);
      }
      return undefined;
  }
}

/** Whether the address is one an outside request must not reach: anything but public unicast. */
export function isPrivateAddress(address: string): boolean {
  const text = address.split('%')[0]!.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(text) || !isIP(text)) return true;
  const inner = ipaddr.IPv6.isValid(text) ? embeddedIpv4(text) : undefined;
  if (inner) return ipaddr.IPv4.parse(inner).range() !== 'unicast';
  return ipaddr.parse(text).range() !== 'unicast';
}

class Allowance {
  readonly #all: boolean;
  readonly #names = new Set<string>();
  readonly #networks: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];

  constructor(allowance: PrivateAllowance | boolean) {
    const given = typeof allowance === 'boolean' ? { all: allowance, entries: [] } : allowance;
    this.#all = given.all;
    for (const entry of given.entries) {
      if (entry.includes('/') && ipaddr.isValidCIDR(entry)) {
        this.#networks.push(ipaddr.parseCIDR(entry));
      } else {
        this.#names.add(entry.replace(/^\[([^\]]+)\]$/, '$1'));
      }
    }
  }

  /** Whether a private `address` of `host` (as the address names it) may be reached on `port`. */
  allows(host: string, port: number, address: string): boolean {
    if (this.#all) return true;
    const name = host.toLowerCase();
    const bracketed = (text: string) => (isIP(text) === 6 ? `[${text}]` : text);
    for (const candidate of [name, address]) {
      if (this.#names.has(candidate) || this.#names.has(`${bracketed(candidate)}:${port}`)) {
        return true;
      }
    }
    if (!ipaddr.isValid(address)) return false;
    const parsed = ipaddr.process(address);
    return this.#networks.some(
      ([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits),
    );
  }
}

/** A multipart form the client can send (undici's: the global FormData is not read by it). */
export const OutboundForm = FormData;
export type OutboundForm = FormData;

// --- the client --------------------------------------------------------------------------------

/** Headers that carry a credential, wherever a caller put them. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface OutboundRequest {
  method?: string;
  /** Sent on every hop. Authorization and cookies given here are treated as credentials. */
  headers?: Record<string, string>;
  /** Sent only to `credentialHosts`, and over https when the first address was. */
  credentials?: Record<string, string>;
  /** Hosts (`host` or `host:port`) that may receive the credentials; the first address's. */
  credentialHosts?: readonly string[];
  body?: string | Buffer | OutboundForm;
  /** The deadline of the whole exchange, answer included (the client's default otherwise). */
  timeoutMs?: number;
  /** The largest answer taken (1 MiB unless said otherwise). */
  maxBytes?: number;
  /** Redirects followed, each checked again (3 unless said otherwise; 0 answers the redirect). */
  maxRedirects?: number;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  /** The address that answered, after any redirects. */
  url: string;
  bytes: Buffer;
  readonly text: string;
  json<T = unknown>(): T;
}

export interface OutboundStream {
  status: number;
  headers: Record<string, string>;
  url: string;
  /** The answer's body, failing once it passes `maxBytes` or the deadline. */
  body: Readable;
}

export interface OutboundOptions {
  allowPrivate: PrivateAllowance | boolean;
  /** The deadline of a request that names none. */
  timeoutMs: number;
}

const DEFAULT_MAX_BYTES = 1_048_576;
const DEFAULT_REDIRECTS = 3;

export class OutboundClient {
  readonly #allowance: Allowance;
  readonly #agent: Agent;
  readonly #timeoutMs: number;

  constructor(options: OutboundOptions) {
    this.#allowance = new Allowance(options.allowPrivate);
    this.#timeoutMs = options.timeoutMs;
    const connect = buildConnector({ timeout: Math.min(options.timeoutMs, 10_000) });
    this.#agent = new Agent({
      connect: (target, callback) => {
        const host = target.hostname.replace(/^\[|\]$/g, '');
        const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
        this.#check(host, port).then(
          (address) => connect({ ...target, hostname: address }, callback),
          (error: Error) => callback(error, null),
        );
      },
    });
  }

  /** The address to connect to: every address of the host checked, the first one taken. */
  async #check(host: string, port: number): Promise<string> {
    let addresses: string[];
    if (isIP(host)) {
      addresses = [host];
    } else {
      let timer: NodeJS.Timeout | undefined;
      // The resolver has no time limit of its own: an unreachable DNS server must not hang us.
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(codeError('timed out resolving', 'ENORESOLVE')), 10_000);
      });
      try {
        const found = await Promise.race([lookup(host, { all: true, verbatim: true }), late]);
        addresses = found.map((entry) => entry.address);
      } finally {
        clearTimeout(timer);
      }
      if (addresses.length === 0) throw codeError(`cannot resolve ${host}`, 'ENOTFOUND');
    }
    const bad = addresses.find(
      (address) => isPrivateAddress(address) && !this.#allowance.allows(host, port, address),
    );
    if (bad) throw new Refusal(`${host} resolves to a private address (${bad})`);
    return addresses[0]!;
  }

  /** One request, its answer read whole (up to `maxBytes`). */
  async request(raw: string, request: OutboundRequest = {}): Promise<OutboundResponse> {
    const answer = await this.#send(raw, request);
    const max = request.maxBytes ?? DEFAULT_MAX_BYTES;
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of answer.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > max) {
          answer.body.destroy();
          throw new OutboundFailed(raw, `answer larger than ${max} bytes`, 'ETOOLARGE');
        }
        chunks.push(chunk);
      }
    } catch (error) {
      throw failure(raw, error);
    }
    const bytes = Buffer.concat(chunks);
    return {
      status: answer.status,
      headers: answer.headers,
      url: answer.url,
      bytes,
      get text() {
        return bytes.toString('utf8');
      },
      json: <T>() => JSON.parse(bytes.toString('utf8')) as T,
    };
  }

  /** One request whose answer is read as it arrives (downloads), bounded by `maxBytes`. */
  async stream(raw: string, request: OutboundRequest = {}): Promise<OutboundStream> {
    const answer = await this.#send(raw, request);
    const max = request.maxBytes ?? DEFAULT_MAX_BYTES;
    let size = 0;
    const bounded = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > max) {
          done(new OutboundFailed(raw, `answer larger than ${max} bytes`, 'ETOOLARGE'));
          return;
        }
        done(null, chunk);
      },
    });
    answer.body.on('error', (error) => bounded.destroy(failure(raw, error)));
    answer.body.pipe(bounded);
    return { status: answer.status, headers: answer.headers, url: answer.url, body: bounded };
  }

  close(): Promise<void> {
    return this.#agent.close();
  }

  async #send(
    raw: string,
    request: OutboundRequest,
  ): Promise<{ status: number; headers: Record<string, string>; url: string; body: Readable }> {
    let url = addressOf(raw);
    const secure = url.protocol === 'https:';
    // Hosts with their port (`host` of an address): another port is another service.
    const credentialHosts = new Set(
      (request.credentialHosts ?? [url.host]).map((host) => host.toLowerCase()),
    );
    const plain: Record<string, string> = {};
    const credentials: Record<string, string> = { ...request.credentials };
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      if (CREDENTIAL_HEADERS.has(name.toLowerCase())) credentials[name] = value;
      else plain[name] = value;
    }
    const signal = AbortSignal.timeout(request.timeoutMs ?? this.#timeoutMs);
    const timeoutMs = request.timeoutMs ?? this.#timeoutMs;
    const maxRedirects = request.maxRedirects ?? DEFAULT_REDIRECTS;
    let method = (request.method ?? 'GET').toUpperCase();
    let body: OutboundRequest['body'] = request.body;
    for (let hop = 0; ; hop++) {
      const trusted =
        credentialHosts.has(url.host.toLowerCase()) && (!secure || url.protocol === 'https:');
      const headers: Record<string, string> = { ...plain, ...(trusted ? credentials : {}) };
      let answer: Dispatcher.ResponseData;
      try {
        answer = await this.#agent.request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: method as Dispatcher.HttpMethod,
          headers,
          body: body ?? null,
          signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
      } catch (error) {
        throw failure(url.href, error);
      }
      const headersOut = headerRecord(answer.headers);
      const location = headersOut.location;
      if (!REDIRECTS.has(answer.statusCode) || !location || maxRedirects === 0) {
        return { status: answer.statusCode, headers: headersOut, url: url.href, body: answer.body };
      }
      await answer.body.dump().catch(() => undefined);
      if (hop >= maxRedirects) {
        throw new OutboundFailed(raw, `more than ${maxRedirects} redirects`, 'ETOOMANYREDIRECTS');
      }
      let next: URL;
      try {
        next = addressOf(new URL(location, url).href);
      } catch (error) {
        throw error instanceof OutboundRefused
          ? error
          : new OutboundFailed(raw, 'a redirect to an invalid address');
      }
      const status = answer.statusCode;
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        // As browsers do: the next request asks for the result, without the body.
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
        delete plain['content-type'];
        delete plain['Content-Type'];
      }
      url = next;
    }
  }
}

/** The connector's refusal, turned into OutboundRefused with the address it was for. */
class Refusal extends Error {}

function codeError(message: string, code: string) {
  return Object.assign(new Error(message), { code });
}

/** An address the client may ask: http(s), without credentials in it. */
function addressOf(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused(raw, 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundRefused(raw, `protocol ${url.protocol} is not http(s)`);
  }
  if (url.username || url.password) throw new OutboundRefused(raw, 'credentials in the URL');
  return url;
}

function headerRecord(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined)
      record[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return record;
}

/** Any failure of a request as OutboundRefused or OutboundFailed. */
function failure(url: string, error: unknown): Error {
  if (error instanceof OutboundRefused || error instanceof OutboundFailed) return error;
  const found = [error, (error as { cause?: unknown })?.cause].find(
    (candidate) => candidate instanceof Refusal,
  );
  if (found) return new OutboundRefused(url, (found as Error).message);
  const known = error as {
    name?: string;
    code?: string;
    message?: string;
    cause?: { code?: string };
  };
  if (known?.name === 'TimeoutError' || known?.name === 'AbortError') {
    return new OutboundFailed(url, 'timed out', 'ETIMEDOUT');
  }
  const code = known?.code ?? known?.cause?.code;
  return new OutboundFailed(url, known?.message ?? String(error), code);
}
