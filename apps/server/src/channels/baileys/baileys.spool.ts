import { BufferJSON } from '@whiskeysockets/baileys';
import { and, asc, eq, gt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { inboundSpool } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { backoffCeiling } from '../backoff';

/** What WhatsApp Web tells that must not be lost: a message, an edit or deletion, a call. */
export type SpoolKind = 'message' | 'update' | 'call';

export interface SpoolEntry {
  kind: SpoolKind;
  /** Baileys' own event item (a WAMessage, a WAMessageUpdate, a WACallEvent). */
  item: unknown;
}

export interface SpooledEntry extends SpoolEntry {
  id: number;
  createdAt: Date;
}

/** JSON the way Baileys writes it: binary values (media keys) as base64, which jsonb can hold. */
const toJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value, BufferJSON.replacer));
const fromJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value), BufferJSON.reviver);

/**
 * The connection's spool in PostgreSQL. WhatsApp Web takes a message as delivered as soon as
 * Baileys has it, so it is written here first (one insert for all an event brought) and
 * removed once processed: what a crash interrupts is still here for the next owner.
 */
export class BaileysSpool {
  constructor(
    private readonly db: TenantDb,
    private readonly connectionId: number,
  ) {}

  async add(entries: SpoolEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db.insert(
      inboundSpool,
      entries.map((entry) => ({
        connectionId: this.connectionId,
        kind: entry.kind,
        item: toJson(entry.item),
      })),
    );
  }

  /** The oldest entries after `afterId`. */
  async after(afterId: number, limit: number): Promise<SpooledEntry[]> {
    const rows = await this.db
      .selectFrom(
        inboundSpool,
        and(eq(inboundSpool.connectionId, this.connectionId), gt(inboundSpool.id, afterId)),
      )
      .orderBy(asc(inboundSpool.id))
      .limit(limit);
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind as SpoolKind,
      item: fromJson(row.item),
      createdAt: row.createdAt,
    }));
  }

  async remove(id: number): Promise<void> {
    await this.db.delete(inboundSpool, eq(inboundSpool.id, id));
  }
}

export interface DurableInboxOptions {
  /** Entries processed at once, all chats together (the rest wait in the spool). */
  maxInFlight?: number;
  /** Events kept in memory while the spool cannot be written, before the socket is paused. */
  maxBuffered?: number;
  /** First pause between attempts at an entry; doubled each time up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

interface InboxHooks {
  /** The chat an entry belongs to: its entries are processed one after another. */
  chatOf(entry: SpooledEntry): string;
  /** Hands the entry to the server; resolves once committed. Retried until it does. */
  process(entry: SpooledEntry): Promise<void>;
  /** Too many events wait for the spool: stop taking new ones from the network. */
  pause(): void;
  /** The backlog is written: take events again. */
  resume(): void;
}

/**
 * Inbound events of one WhatsApp Web session, none dropped: spooled in the order heard, then
 * processed oldest first, each chat's entries one after another (a failing entry is retried
 * with backoff, and the later entries of its chat wait for it; other chats go on). Memory is
 * bounded: at most `maxInFlight` entries are read back from the spool at once, and while the
 * spool cannot be written the socket is paused beyond `maxBuffered` events.
 */
export class DurableInbox {
  readonly #buffer: SpoolEntry[] = [];
  readonly #chats = new Map<string, Promise<void>>();
  readonly #sleepers = new Set<() => void>();
  readonly #options: Required<DurableInboxOptions>;
  #writing?: Promise<void>;
  #draining?: Promise<void>;
  #drainAgain = false;
  #retryDrain?: NodeJS.Timeout;
  /** The newest spool entry taken for processing. */
  #cursor = 0;
  #inFlight = 0;
  #paused = false;
  #stopped = false;

  constructor(
    private readonly spool: BaileysSpool,
    private readonly hooks: InboxHooks,
    private readonly log: FastifyBaseLogger,
    options: DurableInboxOptions = {},
  ) {
    this.#options = {
      maxInFlight: options.maxInFlight ?? 500,
      maxBuffered: options.maxBuffered ?? 2_000,
      baseDelayMs: options.baseDelayMs ?? 250,
      maxDelayMs: options.maxDelayMs ?? 30_000,
    };
  }

  /** Events just heard, in order: written to the spool before anything else happens. */
  hear(entries: SpoolEntry[]): void {
    if (entries.length === 0) return;
    this.#buffer.push(...entries);
    if (!this.#paused && this.#buffer.length >= this.#options.maxBuffered) {
      this.#paused = true;
      this.log.error(
        { waiting: this.#buffer.length },
        'the spool cannot be written: WhatsApp Web paused until it can',
      );
      this.hooks.pause();
    }
    this.#write();
  }

  /** Processes what the spool holds (left by an earlier session too), oldest first. */
  drain(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#draining) {
      this.#drainAgain = true;
      return this.#draining;
    }
    this.#draining = this.#drain().finally(() => {
      this.#draining = undefined;
    });
    return this.#draining;
  }

  #write(): void {
    this.#writing ??= (async () => {
      for (let attempt = 1; this.#buffer.length > 0; ) {
        const batch = this.#buffer.slice(0, 200);
        try {
          await this.spool.add(batch);
          this.#buffer.splice(0, batch.length);
          attempt = 1;
          void this.drain();
        } catch (error) {
          if (this.#stopped) {
            this.log.error(
              { err: error, lost: this.#buffer.length },
              'stopping with events the spool could not take',
            );
            return;
          }
          this.log.error({ err: error, attempt }, 'the spool could not be written; trying again');
          await this.#sleep(this.#delay(attempt++));
        }
      }
      if (this.#paused && this.#buffer.length === 0) {
        this.#paused = false;
        if (!this.#stopped) this.hooks.resume();
      }
    })().finally(() => {
      this.#writing = undefined;
      if (this.#buffer.length > 0 && !this.#stopped) this.#write();
    });
  }

  async #drain(): Promise<void> {
    do {
      this.#drainAgain = false;
      for (;;) {
        const room = this.#options.maxInFlight - this.#inFlight;
        if (this.#stopped || room <= 0) return;
        let entries: SpooledEntry[];
        try {
          entries = await this.spool.after(this.#cursor, Math.min(room, 200));
        } catch (error) {
          this.log.error({ err: error }, 'the spool could not be read; trying again');
          this.#retryDrainLater();
          return;
        }
        if (entries.length === 0) break;
        for (const entry of entries) {
          this.#cursor = entry.id;
          this.#inFlight += 1;
          this.#inChat(this.hooks.chatOf(entry), () => this.#settle(entry));
        }
      }
    } while (this.#drainAgain);
  }

  #retryDrainLater() {
    if (this.#retryDrain || this.#stopped) return;
    this.#retryDrain = setTimeout(() => {
      this.#retryDrain = undefined;
      void this.drain();
    }, this.#options.baseDelayMs * 4);
    this.#retryDrain.unref();
  }

  #inChat(chat: string, work: () => Promise<void>) {
    const tail = (this.#chats.get(chat) ?? Promise.resolve()).then(work);
    this.#chats.set(chat, tail);
    void tail.then(() => {
      if (this.#chats.get(chat) === tail) this.#chats.delete(chat);
    });
  }

  /** One entry, tried until it commits (or the session stops: it stays for the next owner). */
  async #settle(entry: SpooledEntry): Promise<void> {
    try {
      for (let attempt = 1; !this.#stopped; attempt++) {
        try {
          await this.hooks.process(entry);
          await this.spool
            .remove(entry.id)
            .catch((error) =>
              this.log.warn({ err: error }, 'processed spool entry not removed: seen again later'),
            );
          return;
        } catch (error) {
          if (this.#stopped) return;
          this.log[attempt < 3 ? 'warn' : 'error'](
            { err: error, attempt, spoolId: entry.id },
            'an inbound event could not be stored; trying again (later ones of its chat wait)',
          );
          await this.#sleep(this.#delay(attempt));
        }
      }
    } finally {
      this.#inFlight -= 1;
      if (!this.#stopped) void this.drain();
    }
  }

  #delay(attempt: number): number {
    return backoffCeiling(attempt, this.#options);
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#sleepers.add(wake);
    });
  }

  /** Waits for the work under way; entries not processed stay in the spool. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#retryDrain) clearTimeout(this.#retryDrain);
    for (const wake of [...this.#sleepers]) wake();
    await this.#writing;
    await this.#draining;
    await Promise.allSettled([...this.#chats.values()]);
  }
}
