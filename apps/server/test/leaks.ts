import { hasRole } from '@atendi/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { RequestContext } from '../src/platform/auth/context';

/**
 * Whole-run leak scanning. Every test server records what it sends (HTTP answers and realtime
 * payloads); text that must never leave the server is looked for as it goes (patterns: password
 * hashes, stack traces, driver errors) and, when the server stops, by value (secrets read from
 * the database then: connection tokens, session keys, Cloud API secrets, password hashes).
 */

/** Who received an HTTP answer: a connection's token may go to its own company's admins. */
interface Viewer {
  companyId: number;
  admin: boolean;
  super: boolean;
}

interface Sent {
  kind: 'reply' | 'emit';
  where: string;
  text: string;
  viewer?: Viewer;
}

export interface Leak {
  where: string;
  what: string;
  excerpt: string;
}

interface Secret {
  value: string;
  what: string;
  /** The company whose admins (or super user) may read it in HTTP answers, never emitted. */
  owner?: number;
  /** Who of the owner's company may read it: its admins (the default) or its super user. */
  readBy?: 'admin' | 'super';
}

interface Hit extends Leak {
  /** The text matched; a hit is dismissed when a caller sent that text itself (an echo). */
  match: string;
}

const PATTERNS: [string, RegExp][] = [
  ['a password hash', /\$argon2(?:id|i|d)?\$/],
  ['a stack trace', /(?:\\n|\n)\s*at (?:async )?[\w$.<>[\]]+ \(/],
  ['a stack trace', /\((?:file:\/\/)?(?:\/|[A-Z]:\\)[^()\s]*\.(?:[cm]?js|ts):\d+:\d+\)/],
  ['a stack trace', /node:internal\//],
  ['a stack trace', /\\?"stack\\?"\s*:\s*\\?"/],
  ['a database error', /Failed query:/i],
  ['a database error', /duplicate key value violates/i],
  ['a database error', /violates (?:foreign key|not-null|check|exclusion|unique) constraint/i],
  ['a database error', /syntax error at or near/i],
  ['a database error', /invalid input (?:syntax|value) for/i],
  [
    'a database error',
    /(?:relation|column|function|constraint) \\?"[^"\\]+\\?" (?:does not exist|of relation)/i,
  ],
  ['a database error', /value too long for type|out of range for type/i],
  ['a database error', /current transaction is aborted|deadlock detected/i],
  ['a database error', /could not serialize access|invalid byte sequence for encoding/i],
  ['a database error', /unterminated quoted (?:string|identifier)/i],
  ['a database error', /ECONNREFUSED|Connection terminated unexpectedly/],
  ['a database error', /\\?"severity\\?"\s*:\s*\\?"(?:ERROR|FATAL|PANIC)/],
  ['a database error', /\\?"file\\?"\s*:\s*\\?"[a-z_]+\.c\\?"/],
  [
    'raw SQL',
    /\b(?:select|insert into|delete from|update)\b[^\n]{0,200}?\b(?:from|into|set|where)\s+\\?"[a-z_]+\\?"/i,
  ],
];

/** Keys whose string values are secrets wherever they appear in an answer or a payload. */
const SECRET_KEYS = new Set([
  'passwordHash',
  'password_hash',
  'refreshToken',
  'refresh_token',
  'accessToken',
  'appSecret',
  'verifyToken',
  'tokenHash',
  'password',
]);
/** Keys that must not carry a value on the realtime channel (answers may: login, admins). */
const EMIT_SECRET_KEYS = new Set(['token']);

/** Strings of a session's state that are key material (not names, numbers or message ids). */
const KEY_MATERIAL = /^[A-Za-z0-9+/_=-]{16,}$/;
/**
 * Parts of a session's state that are not secret, or that WhatsApp's pairing QR carries by
 * protocol (the QR is shown to the company: public keys and the ADV secret).
 */
const NOT_KEY_MATERIAL = new Set([
  'public',
  'advSecretKey',
  'me',
  'identifier',
  'processedHistoryMessages',
  'phoneNumber',
  'phoneNumberId',
  'platform',
  'pairingCode',
  'graphApiUrl',
  'name',
]);

function keyMaterial(value: unknown, into: string[], key = ''): void {
  if (NOT_KEY_MATERIAL.has(key)) return;
  if (typeof value === 'string') {
    if (KEY_MATERIAL.test(value)) into.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) keyMaterial(item, into, key);
  } else if (value && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) keyMaterial(item, into, name);
  }
}

function excerpt(text: string, at: number, length: number): string {
  const from = Math.max(0, at - 60);
  return text.slice(from, Math.min(text.length, at + length + 60)).replace(/\s+/g, ' ');
}

function textOf(payload: unknown, contentType: string): string | undefined {
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) {
    return /json|text|xml|html|javascript/.test(contentType) ? payload.toString('utf8') : undefined;
  }
  return undefined;
}

const cookiesOf = (header: unknown): string[] =>
  header === undefined ? [] : Array.isArray(header) ? header.map(String) : [String(header)];

export class LeakScanner {
  readonly #sent = new Map<string, Sent>();
  readonly #hits: Hit[] = [];
  readonly #inputs = new Set<string>();
  /** Secrets seen on their way in or out (rotated ones are gone from the database by the end). */
  readonly #seen: Secret[] = [];
  replies = 0;
  emits = 0;
  /** Streamed answers (media files) are not read. */
  streams = 0;

  constructor(
    /** Values that must never appear in anything sent, named (signing secret, folders). */
    private readonly literals: Record<string, string> = {},
  ) {}

  /** An HTTP answer as the server sends it (the onReply option of startApiServer). */
  reply(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
    this.replies += 1;
    const body = (request as { body?: unknown }).body;
    if (body !== undefined && body !== null) {
      this.#inputs.add(typeof body === 'string' ? body : safeJson(body));
      this.#secretsSentIn(body);
    }
    this.#inputs.add(safeDecode(request.url));
    for (const cookie of cookiesOf(reply.getHeader('set-cookie'))) {
      const value = /^jrt=([^;]*)/.exec(cookie)?.[1];
      if (value) this.#seen.push({ value: decodeURIComponent(value), what: 'a refresh token' });
    }
    const contentType = String(reply.getHeader('content-type') ?? '');
    const text = textOf(payload, contentType);
    if (text === undefined) {
      if (payload !== undefined && payload !== null) this.streams += 1;
      return;
    }
    const ctx = (request as { ctx?: RequestContext | null }).ctx;
    const viewer = ctx
      ? { companyId: ctx.companyId, admin: hasRole(ctx, 'admin'), super: ctx.super }
      : undefined;
    const where = `${request.method} ${request.url.split('?')[0]} -> ${reply.statusCode}`;
    this.#record({ kind: 'reply', where, text, viewer });
  }

  /** A realtime payload as the gateway emits it (the onEmit option). */
  emit(event: string, payload: unknown): void {
    this.emits += 1;
    this.#record({ kind: 'emit', where: `realtime ${event}`, text: safeJson(payload) });
    this.#secretKeys(payload, `realtime ${event}`, true);
  }

  #record(sent: Sent) {
    const { viewer } = sent;
    const key = `${sent.kind}|${viewer?.companyId}|${viewer?.admin}|${viewer?.super}|${sent.text}`;
    if (this.#sent.has(key)) return;
    this.#sent.set(key, sent);
    for (const [what, pattern] of PATTERNS) {
      const found = pattern.exec(sent.text);
      if (!found) continue;
      this.#hits.push({
        where: sent.where,
        what,
        match: found[0],
        excerpt: excerpt(sent.text, found.index, found[0].length),
      });
    }
    if (sent.kind === 'reply' && /^\s*[[{]/.test(sent.text)) {
      try {
        this.#secretKeys(JSON.parse(sent.text), sent.where, false);
      } catch {
        // Not JSON after all: the patterns above were enough.
      }
    }
  }

  /** Secret-named keys with a value in what was sent. */
  #secretKeys(value: unknown, where: string, realtime: boolean, depth = 0): void {
    if (!value || typeof value !== 'object' || depth > 20) return;
    for (const [key, item] of Object.entries(value)) {
      const secretKey = SECRET_KEYS.has(key) || (realtime && EMIT_SECRET_KEYS.has(key));
      if (secretKey && typeof item === 'string' && item.length > 0) {
        this.#hits.push({
          where,
          what: `a value under the key '${key}'`,
          match: `\u0000${key}`,
          excerpt: `"${key}": "${item.slice(0, 6)}..."`,
        });
      }
      this.#secretKeys(item, where, realtime, depth + 1);
    }
  }

  /** Cloud API secrets a caller sent: kept even if rotated away before the server stops. */
  #secretsSentIn(body: unknown) {
    const cloudApi = (body as { cloudApi?: unknown }).cloudApi;
    if (!cloudApi || typeof cloudApi !== 'object') return;
    for (const name of ['accessToken', 'appSecret', 'verifyToken']) {
      const value = (cloudApi as Record<string, unknown>)[name];
      if (typeof value === 'string' && value.trim().length >= 8) {
        this.#seen.push({ value: value.trim(), what: `a Cloud API ${name}` });
      }
    }
  }

  /** The secrets stored in the database now. */
  async #stored(pool: pg.Pool): Promise<Secret[]> {
    const secrets: Secret[] = [];
    const { rows: tokens } = await pool.query<{ company_id: number; token: string }>(
      `select company_id, token from connections where coalesce(token, '') <> ''`,
    );
    for (const row of tokens) {
      secrets.push({ value: row.token, what: 'a connection token', owner: row.company_id });
    }
    const { rows: keys } = await pool.query<{ key: string; value: unknown }>(
      'select key, value from connection_auth_keys',
    );
    for (const row of keys) {
      if (row.key === 'cloud-api:settings') {
        const settings = row.value as Record<string, unknown>;
        for (const name of ['accessToken', 'appSecret', 'verifyToken']) {
          const value = settings[name];
          if (typeof value === 'string' && value.length >= 8) {
            secrets.push({ value, what: `a Cloud API ${name}` });
          }
        }
        continue;
      }
      const material: string[] = [];
      keyMaterial(row.value, material);
      for (const value of material) {
        secrets.push({ value, what: `session key material (${row.key})` });
      }
    }
    // The payment provider's key: the company's super user reads it (spec: never emitted).
    const { rows: settings } = await pool.query<{ company_id: number; value: string }>(
      `select company_id, value from settings where key = 'asaas' and length(value) >= 8`,
    );
    for (const row of settings) {
      secrets.push({
        value: row.value,
        what: 'the payment provider key',
        owner: row.company_id,
        readBy: 'super',
      });
    }
    const { rows: hashes } = await pool.query<{ password_hash: string }>(
      'select distinct password_hash from users',
    );
    for (const { password_hash } of hashes) {
      secrets.push({ value: password_hash, what: 'a password hash' });
      const digest = password_hash.split('$').pop();
      if (digest && digest.length >= 16) secrets.push({ value: digest, what: 'a password hash' });
    }
    const { rows: refresh } = await pool.query<{ token_hash: string }>(
      'select token_hash from auth_refresh_tokens',
    );
    for (const { token_hash } of refresh) {
      secrets.push({ value: token_hash, what: 'a refresh token hash' });
    }
    return secrets;
  }

  /**
   * Every leak found in what was sent so far. `pool` is the server's database, for the secrets
   * stored there; without it only the patterns and the secrets seen on the way are checked.
   */
  async scan(pool?: pg.Pool): Promise<Leak[]> {
    const secrets = [...this.#seen];
    for (const [what, value] of Object.entries(this.literals)) {
      if (value) secrets.push({ value, what });
    }
    if (pool) secrets.push(...(await this.#stored(pool)));
    const leaks: Leak[] = [];
    const inputs = [...this.#inputs];
    for (const hit of this.#hits) {
      if (!inputs.some((input) => input.includes(hit.match))) {
        leaks.push({ where: hit.where, what: hit.what, excerpt: hit.excerpt });
      }
    }
    const unique = new Map<string, Secret>();
    for (const secret of secrets) {
      if (secret.value.length >= 8) unique.set(`${secret.owner ?? ''}|${secret.value}`, secret);
    }
    for (const sent of this.#sent.values()) {
      for (const secret of unique.values()) {
        const escaped = JSON.stringify(secret.value).slice(1, -1);
        let at = sent.text.indexOf(secret.value);
        if (at < 0 && escaped !== secret.value) at = sent.text.indexOf(escaped);
        if (at < 0) continue;
        const allowed =
          sent.kind === 'reply' &&
          secret.owner !== undefined &&
          sent.viewer?.companyId === secret.owner &&
          (secret.readBy === 'super' ? sent.viewer.super : sent.viewer.admin);
        if (allowed) continue;
        const shown = excerpt(sent.text, at, secret.value.length).replace(
          secret.value,
          `<${secret.value.slice(0, 4)}...>`,
        );
        leaks.push({ where: sent.where, what: secret.what, excerpt: shown });
      }
    }
    return leaks;
  }

  /** Throws, naming every leak, when anything was found. */
  async assertClean(pool?: pg.Pool): Promise<void> {
    const leaks = await this.scan(pool);
    if (leaks.length === 0) return;
    const lines = leaks
      .slice(0, 20)
      .map((leak) => `  - ${leak.what} in ${leak.where}: ${leak.excerpt}`);
    if (leaks.length > 20) lines.push(`  ... and ${leaks.length - 20} more`);
    throw new Error(
      `Leak scan: ${leaks.length} leak(s) in what the test server sent ` +
        `(${this.replies} answers, ${this.emits} realtime payloads scanned):\n${lines.join('\n')}`,
    );
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

function safeDecode(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
