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

const PREFIX = 'baileys:';
const CREDS_KEY = `${PREFIX}creds`;
const PAIRING_KEY = `${PREFIX}pairing-number`;
/** Rows per statement: Baileys hands over dozens of pre-keys at once. */
const CHUNK = 200;

/** JSON the way Baileys writes it: binary values as base64, which jsonb can hold. */
const toJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value, BufferJSON.replacer));
const fromJson = <T>(value: unknown): T => JSON.parse(JSON.stringify(value), BufferJSON.reviver);

const signalKey = (type: string, id: string) => `${PREFIX}${type}:${id}`;

/** The login has completed once WhatsApp signed this device into the account. */
export const isPaired = (creds: AuthenticationCreds): boolean => Boolean(creds.account);

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
