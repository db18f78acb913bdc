import {
  type AuthenticationCreds,
  type AuthenticationState,
  BufferJSON,
  initAuthCreds,
  proto,
  type SignalDataSet,
  type SignalDataTypeMap,
} from '@whiskeysockets/baileys';
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import { connectionAuthKeys } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { storable } from '../normalise';

const PREFIX = 'baileys:';
const CREDS_KEY = `${PREFIX}creds`;
const PAIRING_KEY = `${PREFIX}pairing-number`;
/** One row per person of the phone's address book, by jid; wiped with the session. */
const BOOK_PREFIX = `${PREFIX}book:`;
const BOOK_FIELDS = ['name', 'notify', 'verifiedName', 'phoneNumber'] as const;

/** What the phone knows of a person: the name saved there, the one they chose, their number. */
export type BookEntry = Partial<Record<(typeof BOOK_FIELDS)[number], string>> & { id?: string };
/** Rows per statement: Baileys hands over dozens of pre-keys at once. */
const CHUNK = 200;

/** JSON the way Baileys writes it: binary values as base64, which jsonb can hold. */
const toJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value, BufferJSON.replacer));
const fromJson = <T>(value: unknown): T => JSON.parse(JSON.stringify(value), BufferJSON.reviver);

const signalKey = (type: string, id: string) => `${PREFIX}${type}:${id}`;

/** The login has completed once WhatsApp signed this device into the account. */
export const isPaired = (creds: AuthenticationCreds): boolean => Boolean(creds.account);

const SIGNAL_TYPES: readonly (keyof SignalDataTypeMap)[] = [
  'pre-key',
  'session',
  'sender-key',
  'sender-key-memory',
  'app-state-sync-key',
  'app-state-sync-version',
  'lid-mapping',
  'device-list',
  'tctoken',
  'identity-key',
];

const keyPair = (pair: { public?: unknown; private?: unknown } | undefined) =>
  [pair?.public, pair?.private].every((key) => key instanceof Uint8Array && key.length === 32);

/**
 * A session kept elsewhere in Baileys' own JSON (binary values as BufferJSON writes them: what
 * Baileys' file store and Whaticket's `Whatsapps.session` hold), as the rows this store keeps:
 * the creds, then each signal key by type and id. Refused, with why, when it is not a paired
 * device with whole keys: such a session would need a new QR anyway.
 */
export function storedSession(
  creds: unknown,
  keys: Partial<Record<string, Record<string, unknown>>>,
): { rows: { key: string; value: unknown }[] } | { refused: string } {
  let revived: AuthenticationCreds;
  try {
    revived = fromJson<AuthenticationCreds>(creds);
  } catch {
    return { refused: 'its creds are not Baileys creds' };
  }
  if (!revived || typeof revived !== 'object') return { refused: 'it has no creds' };
  if (
    !keyPair(revived.noiseKey) ||
    !keyPair(revived.signedIdentityKey) ||
    !keyPair(revived.signedPreKey?.keyPair) ||
    typeof revived.registrationId !== 'number' ||
    typeof revived.advSecretKey !== 'string'
  ) {
    return { refused: 'its keys are not whole' };
  }
  if (!isPaired(revived) || typeof revived.me?.id !== 'string') {
    return { refused: 'it was never paired with a phone' };
  }
  const rows = [{ key: CREDS_KEY, value: toJson(revived) }];
  for (const [type, values] of Object.entries(keys)) {
    if (!SIGNAL_TYPES.includes(type as keyof SignalDataTypeMap)) continue;
    for (const [id, value] of Object.entries(values ?? {})) {
      if (value !== null && value !== undefined) {
        rows.push({ key: signalKey(type, id), value: toJson(fromJson(value)) });
      }
    }
  }
  return { rows };
}

/**
 * A WhatsApp Web session's state in PostgreSQL, one row per key (the creds and each signal key).
 * Writes of one connection run one after another and each resolves once committed; reads wait
 * for the writes queued before them, so Baileys never reads a key older than it wrote.
 */
export class BaileysAuthStore {
  #writes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: TenantDb,
    private readonly connectionId: number,
  ) {}

  #queue(work: () => Promise<unknown>): Promise<void> {
    const done = this.#writes.then(work);
    this.#writes = done.catch(() => {});
    return done.then(() => undefined);
  }

  /** Waits for every write queued so far. */
  async flush(): Promise<void> {
    await this.#writes;
  }

  async #read(keys: string[]): Promise<Map<string, unknown>> {
    await this.#writes;
    const found = new Map<string, unknown>();
    for (let i = 0; i < keys.length; i += CHUNK) {
      const rows = await this.db
        .select({ key: connectionAuthKeys.key, value: connectionAuthKeys.value })
        .from(
          connectionAuthKeys,
          and(
            eq(connectionAuthKeys.connectionId, this.connectionId),
            inArray(connectionAuthKeys.key, keys.slice(i, i + CHUNK)),
          ),
        );
      for (const row of rows) found.set(row.key, row.value);
    }
    return found;
  }

  /** `upserts` hold JSON-ready values (see toJson). */
  async #write(tx: TenantDb, upserts: [string, unknown][], deletes: string[]) {
    for (let i = 0; i < deletes.length; i += CHUNK) {
      await tx.delete(
        connectionAuthKeys,
        and(
          eq(connectionAuthKeys.connectionId, this.connectionId),
          inArray(connectionAuthKeys.key, deletes.slice(i, i + CHUNK)),
        )!,
      );
    }
    for (let i = 0; i < upserts.length; i += CHUNK) {
      await tx
        .insert(
          connectionAuthKeys,
          upserts.slice(i, i + CHUNK).map(([key, value]) => ({
            connectionId: this.connectionId,
            key,
            value,
          })),
        )
        .onConflictDoUpdate({
          target: [connectionAuthKeys.connectionId, connectionAuthKeys.key],
          set: { value: sql`excluded.value`, updatedAt: sql`now()` },
        });
    }
  }

  /** The stored state, or fresh creds (a QR to scan) when there is none. */
  async load(): Promise<AuthenticationState> {
    const stored = (await this.#read([CREDS_KEY])).get(CREDS_KEY);
    const creds = stored ? fromJson<AuthenticationCreds>(stored) : initAuthCreds();
    return {
      creds,
      keys: {
        get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
          const rows = await this.#read(ids.map((id) => signalKey(type, id)));
          const data: { [id: string]: SignalDataTypeMap[T] } = {};
          for (const id of ids) {
            const value = rows.get(signalKey(type, id));
            if (value === undefined) continue;
            const revived = fromJson<SignalDataTypeMap[T]>(value);
            data[id] = (
              type === 'app-state-sync-key'
                ? proto.Message.AppStateSyncKeyData.fromObject(revived as object)
                : revived
            ) as SignalDataTypeMap[T];
          }
          return data;
        },
        set: (data: SignalDataSet) => {
          const upserts: [string, unknown][] = [];
          const deletes: string[] = [];
          for (const [type, values] of Object.entries(data)) {
            for (const [id, value] of Object.entries(values ?? {})) {
              if (value === null || value === undefined) deletes.push(signalKey(type, id));
              else upserts.push([signalKey(type, id), toJson(value)]);
            }
          }
          return this.#queue(() => this.db.transaction((tx) => this.#write(tx, upserts, deletes)));
        },
        clear: () => this.wipe(),
      },
    };
  }

  /** The creds are one row: written whole each time Baileys changes them. */
  saveCreds(creds: AuthenticationCreds): Promise<void> {
    const snapshot = toJson(creds);
    return this.#queue(() => this.#write(this.db, [[CREDS_KEY, snapshot]], []));
  }

  /** Logged out: every key of this session goes, so the next start shows a new QR. */
  wipe(): Promise<void> {
    return this.#queue(() =>
      this.db.delete(
        connectionAuthKeys,
        and(
          eq(connectionAuthKeys.connectionId, this.connectionId),
          like(connectionAuthKeys.key, `${PREFIX}%`),
        )!,
      ),
    );
  }

  /**
   * Merges what WhatsApp tells of the phone's contacts: fields given replace the stored ones,
   * the rest stay (an update may bring only the name the person chose).
   */
  saveAddressBook(entries: BookEntry[]): Promise<void> {
    const rows = new Map<string, Record<string, string>>();
    for (const entry of entries) {
      if (!entry.id) continue;
      const value: Record<string, string> = { ...rows.get(entry.id) };
      for (const field of BOOK_FIELDS) {
        const text = entry[field];
        if (typeof text === 'string' && text.trim()) value[field] = storable(text).slice(0, 200);
      }
      rows.set(entry.id, value);
    }
    if (rows.size === 0) return Promise.resolve();
    const list = [...rows];
    return this.#queue(async () => {
      for (let i = 0; i < list.length; i += CHUNK) {
        await this.db
          .insert(
            connectionAuthKeys,
            list.slice(i, i + CHUNK).map(([id, value]) => ({
              connectionId: this.connectionId,
              key: `${BOOK_PREFIX}${id}`,
              value,
            })),
          )
          .onConflictDoUpdate({
            target: [connectionAuthKeys.connectionId, connectionAuthKeys.key],
            set: {
              value: sql`${connectionAuthKeys.value} || excluded.value`,
              updatedAt: sql`now()`,
            },
          });
      }
    });
  }

  /** The address book as stored, each entry with its jid. */
  async addressBook(): Promise<(BookEntry & { id: string })[]> {
    await this.#writes;
    const rows = await this.db
      .select({ key: connectionAuthKeys.key, value: connectionAuthKeys.value })
      .from(
        connectionAuthKeys,
        and(
          eq(connectionAuthKeys.connectionId, this.connectionId),
          like(connectionAuthKeys.key, `${BOOK_PREFIX}%`),
        ),
      );
    return rows.map((row) => ({
      ...(row.value as BookEntry),
      id: row.key.slice(BOOK_PREFIX.length),
    }));
  }

  /** The phone number a person asked to pair by code instead of QR (used once). */
  setPairingNumber(phoneNumber: string): Promise<void> {
    return this.#queue(() => this.#write(this.db, [[PAIRING_KEY, { phoneNumber }]], []));
  }

  async takePairingNumber(): Promise<string | undefined> {
    const stored = (await this.#read([PAIRING_KEY])).get(PAIRING_KEY) as
      | { phoneNumber?: string }
      | undefined;
    if (stored) await this.#queue(() => this.#write(this.db, [], [PAIRING_KEY]));
    return stored?.phoneNumber;
  }
}
