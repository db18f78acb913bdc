import { ACK, type MediaType } from '@atendi/shared';
import { storedSession } from '../../channels/baileys/baileys.auth';
import type { SourceDialect } from './source.repository';

/**
 * The source's values as ours: the same column reads differently on each dialect (MySQL's booleans
 * are 0/1, its JSON is text and its DATETIME is São Paulo wall time), and the original's data has
 * its own habits (numbers typed with masks, `''` for none, acks of its own era).
 */

export const text = (value: unknown): string =>
  value === null || value === undefined ? '' : String(value);

/** `''` and null are none. */
export const optionalText = (value: unknown): string | null => {
  const found = text(value).trim();
  return found ? found : null;
};

export const bool = (value: unknown): boolean =>
  value === true || value === 1 || value === '1' || value === 't' || value === 'true';

export const int = (value: unknown): number | null => {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? Math.trunc(n) : null;
};

export function json<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined || value === '') return fallback;
  if (typeof value !== 'string') return value as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}

const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(2200, 0, 1);

/**
 * An instant, or null for a date that means nothing (MySQL's zero dates, year 1, infinity).
 * MySQL's text is read as São Paulo wall time (-03:00), which the original's Sequelize wrote.
 */
export function instant(value: unknown, dialect: SourceDialect): Date | null {
  if (value === null || value === undefined) return null;
  let date: Date;
  if (value instanceof Date) date = value;
  else if (typeof value === 'string') {
    const match = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2})(\.\d+)?)?/.exec(value);
    if (!match) return null;
    const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = ''] = match;
    const offset = dialect === 'mysql' ? '-03:00' : 'Z';
    const millis = fraction ? fraction.slice(0, 4).padEnd(4, '0') : '';
    date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${millis}${offset}`);
  } else return null;
  const time = date.getTime();
  return Number.isFinite(time) && time >= EARLIEST && time < LATEST ? date : null;
}

/** The calendar day of an instant in São Paulo, where the original's due dates are set. */
export function saoPauloDay(date: Date): string {
  return new Date(date.getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
}

/**
 * The number as we keep it: digits only for people (the original keeps whatever was typed: masks,
 * a leading +), as it is for groups.
 */
export function contactNumber(value: unknown, isGroup: boolean): string {
  const raw = text(value).trim();
  if (isGroup) return raw.replace(/@g\.us$/, '');
  return raw.replace(/@.*$/, '').replace(/\D/g, '');
}

/**
 * What makes two numbers one person: a Brazilian mobile written without its ninth digit
 * (55 + area + 8 digits starting 6 to 9) is the same line as with it.
 */
export function numberIdentity(number: string): string {
  const old = /^55(\d{2})([6-9]\d{7})$/.exec(number);
  return old ? `55${old[1]}9${old[2]}` : number;
}

/**
 * Our ticks from the original's: its outbound rows keep Baileys' status (1 to 5; 0 where none was
 * ever recorded). History is sent history: 0 and 1 become sent (2), since nothing here will send
 * them, and nothing imported shows as a failure it never was. A contact's messages are 3, as ours.
 */
export function ack(value: unknown, fromMe: boolean): number {
  if (!fromMe) return ACK.delivered;
  const n = int(value) ?? 0;
  return n >= ACK.sent && n <= ACK.played ? n : ACK.sent;
}

export function mediaType(value: unknown, hasFile: boolean): MediaType {
  const type = text(value);
  if (hasFile && ['image', 'audio', 'video', 'application'].includes(type))
    return type as MediaType;
  if (hasFile) return 'application';
  if (type === 'locationMessage' || type === 'liveLocationMessage') return 'locationMessage';
  if (type === 'contactMessage' || type === 'contactsArrayMessage' || type === 'vcard')
    return 'vcard';
  if (type === 'call_log') return 'call_log';
  return 'chat';
}

/** Our storage extension and served type of a source file, from its own extension. */
const FILE_TYPES: Record<string, [string, string]> = {
  jpg: ['jpg', 'image/jpeg'],
  jpeg: ['jpg', 'image/jpeg'],
  png: ['png', 'image/png'],
  webp: ['webp', 'image/webp'],
  gif: ['gif', 'image/gif'],
  ogg: ['ogg', 'audio/ogg'],
  oga: ['ogg', 'audio/ogg'],
  opus: ['ogg', 'audio/ogg'],
  mp3: ['mp3', 'audio/mpeg'],
  mpeg: ['mp3', 'audio/mpeg'],
  m4a: ['m4a', 'audio/mp4'],
  webm: ['webm', 'audio/webm'],
  mp4: ['mp4', 'video/mp4'],
  '3gp': ['3gp', 'video/3gpp'],
  pdf: ['pdf', 'application/pdf'],
  txt: ['txt', 'text/plain'],
  vcf: ['vcf', 'text/vcard'],
};

export function fileType(name: string): { extension: string; mime: string } {
  const found = FILE_TYPES[name.split('.').pop()?.toLowerCase() ?? ''];
  return found
    ? { extension: found[0], mime: found[1] }
    : { extension: 'bin', mime: 'application/octet-stream' };
}

export const TICKET_STATUSES = ['pending', 'open', 'closed'] as const;

/** The original's schedule statuses we keep; anything else it wrote means it failed. */
export function scheduleStatus(value: unknown): string {
  const status = text(value).toUpperCase();
  if (status === 'ENVIADA') return 'ENVIADA';
  if (status === '' || status === 'PENDENTE' || status === 'AGENDADA') return 'PENDENTE';
  return 'ERRO';
}

/** The original's names for Baileys' signal key types in `Whatsapps.session`. */
const SESSION_KEY_TYPES: Record<string, string> = {
  preKeys: 'pre-key',
  sessions: 'session',
  senderKeys: 'sender-key',
  senderKeyMemory: 'sender-key-memory',
  appStateSyncKeys: 'app-state-sync-key',
  appStateVersions: 'app-state-sync-version',
};

/**
 * A connection's WhatsApp Web login as the original keeps it (`Whatsapps.session`: one JSON text
 * of `{ creds, keys }`, binary values as Baileys' BufferJSON writes them, keys grouped under its
 * own names), as the rows of our Baileys session store; or why it cannot be carried over.
 */
export function whatsappSession(
  value: string,
): { rows: { key: string; value: unknown }[] } | { refused: string } {
  let parsed: { creds?: unknown; keys?: Record<string, Record<string, unknown>> };
  try {
    parsed = JSON.parse(value);
  } catch {
    // On MySQL the column is a TEXT of 64 KB: a longer session is cut short there.
    return { refused: 'not whole JSON' };
  }
  if (!parsed || typeof parsed !== 'object' || !parsed.creds || typeof parsed.creds !== 'object')
    return { refused: 'it has no creds' };
  const keys: Record<string, Record<string, unknown>> = {};
  for (const [group, values] of Object.entries(parsed.keys ?? {})) {
    const type = SESSION_KEY_TYPES[group];
    if (type && values && typeof values === 'object') keys[type] = values;
  }
  return storedSession(parsed.creds, keys);
}
