import { randomUUID } from 'node:crypto';
import { ACK } from '@atendi/shared';
import { and, asc, desc, eq, gt, inArray, isNull, lt, notInArray, sql } from 'drizzle-orm';
import {
  connectionAuthKeys,
  connections,
  simulatorMessages,
  simulatorPhones,
} from '../../db/schema';
import { type DbHandle, type TenantDb, tenantDb } from '../../db/tenant';
import { systemContext } from '../../platform/auth/context';
import type { Notifier } from '../../platform/instance-bus';

export const SIMULATOR_CHANNEL = 'atendi_simulator';
const PAIRED_KEY = 'simulator:paired';

/** What travels on the simulator's notification channel between instances. */
export type SimulatorSignal =
  | { type: 'inbound'; connectionId: number }
  | { type: 'paired' | 'unpaired'; connectionId: number }
  | { type: 'ack'; connectionId: number; ids: string[]; ack: number };

export type SimulatorRow = typeof simulatorMessages.$inferSelect;

/** Hears every change of a message the simulator page shows (new, ticks, edits, deletions). */
export type SimulatorChanges = (companyId: number, rows: SimulatorRow[]) => void;

/**
 * Kinds of the protocol messages a phone sends when it edits or deletes one of its messages
 * (as WhatsApp does): delivered to the connection like messages, never shown as one.
 */
export const PROTOCOL_KINDS = ['edit', 'revoke'] as const;
/** What a phone may edit: text, and the caption of media. */
export const EDITABLE_KINDS = ['text', 'image', 'video', 'document'];

export const inboundId = () => `SIMIN${randomUUID().replace(/-/g, '').toUpperCase()}`;

/** The simulated phone number a connection shows once paired. */
export const simulatorNumber = (connectionId: number) =>
  `5500${String(connectionId).padStart(9, '0')}`;

/**
 * The simulator's network, kept in PostgreSQL so every instance sees it: phones' messages to a
 * connection, the connection's messages to phones, ticks and pairing. Ticks are the spec's
 * numbers (ACK): the company's messages go out sent and the phone moves them to delivered, read
 * or played; the phone's own messages wait (pending) until the company reads them.
 */
export class SimulatorNetwork {
  constructor(
    private readonly db: DbHandle,
    readonly notifier: Notifier,
    private readonly announce: SimulatorChanges = () => {},
  ) {}

  /** Tells the page about changed rows; protocol messages are never shown, so never told. */
  #changed(companyId: number, rows: (SimulatorRow | undefined)[]) {
    const shown = rows.filter(
      (row): row is SimulatorRow =>
        row !== undefined && !(PROTOCOL_KINDS as readonly string[]).includes(row.kind),
    );
    if (shown.length > 0) this.announce(companyId, shown);
  }

  tenant(companyId: number): TenantDb {
    return tenantDb(systemContext(this.db, companyId));
  }

  signal(signal: SimulatorSignal): Promise<void> {
    return this.notifier.notify(SIMULATOR_CHANNEL, JSON.stringify(signal));
  }

  async isPaired(companyId: number, connectionId: number): Promise<boolean> {
    const found = await this.tenant(companyId).count(
      connectionAuthKeys,
      and(
        eq(connectionAuthKeys.connectionId, connectionId),
        eq(connectionAuthKeys.key, PAIRED_KEY),
      ),
    );
    return found > 0;
  }

  async setPaired(companyId: number, connectionId: number, paired: boolean): Promise<void> {
    const db = this.tenant(companyId);
    if (paired) {
      await db
        .insert(connectionAuthKeys, { connectionId, key: PAIRED_KEY, value: { at: Date.now() } })
        .onConflictDoNothing();
    } else {
      await db.delete(
        connectionAuthKeys,
        and(
          eq(connectionAuthKeys.connectionId, connectionId),
          eq(connectionAuthKeys.key, PAIRED_KEY),
        )!,
      );
    }
    await this.signal({ type: paired ? 'paired' : 'unpaired', connectionId });
  }

  /** The QR the connection shows now (its row is the one every instance reads). */
  async currentQr(companyId: number, connectionId: number): Promise<string | undefined> {
    const [row] = await this.tenant(companyId)
      .select({ qrcode: connections.qrcode, provider: connections.provider })
      .from(connections, eq(connections.id, connectionId));
    return row?.provider === 'simulator' ? row.qrcode : undefined;
  }

  /** Inbound messages the connection has not committed yet, oldest first. */
  undelivered(companyId: number, connectionId: number, limit = 500) {
    return this.tenant(companyId)
      .selectFrom(
        simulatorMessages,
        and(
          eq(simulatorMessages.connectionId, connectionId),
          eq(simulatorMessages.direction, 'inbound'),
          isNull(simulatorMessages.deliveredAt),
        ),
      )
      .orderBy(asc(simulatorMessages.id))
      .limit(limit);
  }

  async markDelivered(companyId: number, id: number): Promise<void> {
    const rows = await this.tenant(companyId)
      .update(simulatorMessages, { deliveredAt: new Date() }, eq(simulatorMessages.id, id))
      .returning();
    this.#changed(companyId, rows);
  }

  async record(companyId: number, row: Omit<typeof simulatorMessages.$inferInsert, 'companyId'>) {
    const [inserted] = await this.tenant(companyId)
      .insert(simulatorMessages, row)
      .onConflictDoNothing()
      .returning();
    this.#changed(companyId, [inserted]);
    return inserted;
  }

  async markDeleted(companyId: number, connectionId: number, providerMessageId: string) {
    const rows = await this.tenant(companyId)
      .update(
        simulatorMessages,
        { isDeleted: true },
        and(
          eq(simulatorMessages.connectionId, connectionId),
          eq(simulatorMessages.providerMessageId, providerMessageId),
        )!,
      )
      .returning();
    this.#changed(companyId, rows);
  }

  /** A phone saw the connection's messages: ticks move forward, never back. */
  async acknowledge(companyId: number, connectionId: number, phone: string, ack: number) {
    const rows = await this.tenant(companyId)
      .update(
        simulatorMessages,
        { ack },
        and(
          eq(simulatorMessages.connectionId, connectionId),
          eq(simulatorMessages.phone, phone),
          eq(simulatorMessages.direction, 'outbound'),
          lt(simulatorMessages.ack, ack),
        )!,
      )
      .returning();
    this.#changed(companyId, rows);
    if (rows.length > 0) {
      await this.signal({
        type: 'ack',
        connectionId,
        ids: rows.map((row) => row.providerMessageId),
        ack,
      });
    }
    return rows.length;
  }

  /** The company read the phone's messages: they show read on the phone. */
  async readByCompany(
    companyId: number,
    connectionId: number,
    phone: string,
    providerMessageIds: string[],
  ): Promise<number> {
    if (providerMessageIds.length === 0) return 0;
    const rows = await this.tenant(companyId)
      .update(
        simulatorMessages,
        { ack: ACK.read },
        and(
          eq(simulatorMessages.connectionId, connectionId),
          eq(simulatorMessages.phone, phone),
          eq(simulatorMessages.direction, 'inbound'),
          inArray(simulatorMessages.providerMessageId, providerMessageIds),
          lt(simulatorMessages.ack, ACK.read),
        )!,
      )
      .returning();
    this.#changed(companyId, rows);
    return rows.length;
  }

  /**
   * A phone edits or deletes for everyone one of its own messages: changed on the phone at
   * once, and told to the connection by a protocol message in the same transaction, so the
   * change reaches the inbox after the message it changes and survives a crash.
   */
  async changeOwn(
    companyId: number,
    connectionId: number,
    phone: string,
    id: number,
    change: { type: 'edit'; body: string } | { type: 'delete' },
  ): Promise<SimulatorRow | undefined> {
    const changed = await this.tenant(companyId).transaction(async (tx) => {
      const [row] = await tx
        .update(
          simulatorMessages,
          change.type === 'edit' ? { body: change.body, isEdited: true } : { isDeleted: true },
          and(
            eq(simulatorMessages.id, id),
            eq(simulatorMessages.connectionId, connectionId),
            eq(simulatorMessages.phone, phone),
            eq(simulatorMessages.direction, 'inbound'),
            eq(simulatorMessages.isDeleted, false),
            change.type === 'edit'
              ? inArray(simulatorMessages.kind, EDITABLE_KINDS)
              : notInArray(simulatorMessages.kind, [...PROTOCOL_KINDS]),
          )!,
        )
        .returning();
      if (!row) return undefined;
      await tx.insert(simulatorMessages, {
        connectionId,
        phone,
        phoneName: row.phoneName,
        direction: 'inbound',
        providerMessageId: inboundId(),
        kind: change.type === 'edit' ? 'edit' : 'revoke',
        body: change.type === 'edit' ? change.body : '',
        quotedProviderMessageId: row.providerMessageId,
        ack: ACK.pending,
      });
      return row;
    });
    this.#changed(companyId, [changed]);
    if (changed) await this.signal({ type: 'inbound', connectionId });
    return changed;
  }

  conversation(companyId: number, connectionId: number, phone: string, afterId = 0) {
    return this.tenant(companyId)
      .selectFrom(
        simulatorMessages,
        and(
          eq(simulatorMessages.connectionId, connectionId),
          eq(simulatorMessages.phone, phone),
          gt(simulatorMessages.id, afterId),
          notInArray(simulatorMessages.kind, [...PROTOCOL_KINDS]),
        ),
      )
      .orderBy(asc(simulatorMessages.id))
      .limit(500);
  }

  /** A phone added on the page before it wrote; adding it again renames it. */
  async addPhone(companyId: number, connectionId: number, phone: string, name: string) {
    await this.tenant(companyId)
      .insert(simulatorPhones, { connectionId, phone, name })
      .onConflictDoUpdate({
        target: [simulatorPhones.connectionId, simulatorPhones.phone],
        set: { name },
      });
  }

  /**
   * Phones of the connection: those added on the page that have not talked yet (newest first),
   * then those that talked, most recent first.
   */
  async phones(companyId: number, connectionId: number) {
    const db = this.tenant(companyId);
    const [talked, added] = await Promise.all([
      db
        .select({
          phone: simulatorMessages.phone,
          name: sql<string>`max(${simulatorMessages.phoneName})`,
        })
        .from(simulatorMessages, eq(simulatorMessages.connectionId, connectionId))
        .groupBy(simulatorMessages.phone)
        .orderBy(sql`max(${simulatorMessages.id}) desc`)
        .limit(200),
      db
        .select({ phone: simulatorPhones.phone, name: simulatorPhones.name })
        .from(simulatorPhones, eq(simulatorPhones.connectionId, connectionId))
        .orderBy(desc(simulatorPhones.createdAt))
        .limit(200),
    ]);
    const names = new Map(added.map((row) => [row.phone, row.name]));
    const known = new Set(talked.map((row) => row.phone));
    return [
      ...added.filter((row) => !known.has(row.phone)),
      // a phone that wrote without a name keeps the one it was added with
      ...talked.map((row) => ({ phone: row.phone, name: row.name || names.get(row.phone) || '' })),
    ].slice(0, 200);
  }

  /** Phones that wrote to the connection (its address book), each with the newest name it gave. */
  writers(companyId: number, connectionId: number, limit = 10_000) {
    return this.tenant(companyId)
      .select({
        phone: simulatorMessages.phone,
        name: sql<
          string | null
        >`(array_agg(${simulatorMessages.phoneName} order by ${simulatorMessages.id} desc)
          filter (where ${simulatorMessages.phoneName} <> ''))[1]`,
      })
      .from(
        simulatorMessages,
        and(
          eq(simulatorMessages.connectionId, connectionId),
          eq(simulatorMessages.direction, 'inbound'),
        ),
      )
      .groupBy(simulatorMessages.phone)
      .orderBy(sql`max(${simulatorMessages.id}) desc`)
      .limit(limit);
  }

  rowsByProviderIds(companyId: number, connectionId: number, ids: string[]) {
    return this.tenant(companyId).selectFrom(
      simulatorMessages,
      and(
        eq(simulatorMessages.connectionId, connectionId),
        inArray(simulatorMessages.providerMessageId, ids),
      ),
    );
  }
}
