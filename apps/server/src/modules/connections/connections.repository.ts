import type { Connection, ConnectionSession } from '@atendi/shared';
import { and, asc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import { connectionQueues, connections, queues } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { isoRequired } from '../../platform/routes';

// Keyed by a connection read through the company filter; composite keys keep its queues inside.
const queuesOfConnection = sql<Connection['queues']>`coalesce((
  select json_agg(json_build_object('id', q.id, 'name', q.name, 'color', q.color) order by q.name)
  from ${connectionQueues} cq join ${queues} q on q.id = cq.queue_id
  where cq.connection_id = ${connections}.id), '[]'::json)`;

const fields = {
  row: connections,
  queues: queuesOfConnection,
};

type Row = { row: typeof connections.$inferSelect; queues: Connection['queues'] };

export function presentConnection({ row, queues }: Row, withToken: boolean): Connection {
  // The session's switch and the lease are the server's own bookkeeping, answered to nobody.
  const {
    companyId: _company,
    sessionEnabled: _enabled,
    leaseEpoch: _epoch,
    leaseOwner: _owner,
    token,
    createdAt,
    updatedAt,
    ...rest
  } = row;
  return {
    ...rest,
    provider: rest.provider as Connection['provider'],
    status: rest.status as Connection['status'],
    queues,
    ...(withToken ? { token } : {}),
    createdAt: isoRequired(createdAt),
    updatedAt: isoRequired(updatedAt),
  };
}

type ConnectionRow = typeof connections.$inferSelect;
type ConnectionChanges = Partial<Omit<typeof connections.$inferInsert, 'id' | 'companyId'>>;

/** What the session screens show of a connection: its status and QR code. */
export function presentSession(row: ConnectionRow): ConnectionSession {
  return {
    id: row.id,
    name: row.name,
    status: row.status as ConnectionSession['status'],
    qrcode: row.qrcode,
    retries: row.retries,
    number: row.number,
    isDefault: row.isDefault,
    updatedAt: isoRequired(row.updatedAt),
  };
}

export const connectionsRepository = {
  list(db: TenantDb, where?: SQL) {
    return db.select(fields).from(connections, where).orderBy(asc(connections.name));
  },

  async byId(db: TenantDb, id: number): Promise<Row | undefined> {
    const [row] = await db.select(fields).from(connections, eq(connections.id, id));
    return row;
  },

  count(db: TenantDb) {
    return db.count(connections);
  },

  async insert(
    db: TenantDb,
    data: ConnectionChanges & Pick<typeof connections.$inferInsert, 'name'>,
  ): Promise<number> {
    const [row] = await db.insert(connections, data).returning({ id: connections.id });
    return row!.id;
  },

  async update(db: TenantDb, id: number, changes: ConnectionChanges) {
    await db.update(connections, { ...changes, updatedAt: new Date() }, eq(connections.id, id));
  },

  /** No connection is the default any more, but `exceptId` if given. */
  async clearDefault(db: TenantDb, exceptId?: number) {
    await db.update(
      connections,
      { isDefault: false },
      exceptId === undefined
        ? eq(connections.isDefault, true)
        : and(eq(connections.isDefault, true), ne(connections.id, exceptId))!,
    );
  },

  /** Deletes a connection and says whether it was the default; undefined if it was not there. */
  async delete(db: TenantDb, id: number) {
    const [row] = await db
      .delete(connections, eq(connections.id, id))
      .returning({ id: connections.id, isDefault: connections.isDefault });
    return row;
  },

  /** Some connection becomes the default, if any is left. */
  async promoteAnyToDefault(db: TenantDb) {
    const [next] = await db.select({ id: connections.id }).from(connections).limit(1);
    if (next) await db.update(connections, { isDefault: true }, eq(connections.id, next.id));
  },

  /** Saves a change of session state and answers the session as it now is. */
  async updateSession(
    db: TenantDb,
    id: number,
    changes: ConnectionChanges,
    epoch?: number,
  ): Promise<ConnectionSession | undefined> {
    const [row] = await db
      .update(
        connections,
        { ...changes, updatedAt: new Date() },
        and(
          eq(connections.id, id),
          epoch === undefined ? undefined : eq(connections.leaseEpoch, epoch),
        )!,
      )
      .returning();
    return row ? presentSession(row) : undefined;
  },

  async setQueues(db: TenantDb, connectionId: number, queueIds: number[]) {
    await db.delete(connectionQueues, eq(connectionQueues.connectionId, connectionId));
    if (queueIds.length > 0) {
      await db.insert(
        connectionQueues,
        [...new Set(queueIds)].map((queueId) => ({ connectionId, queueId })),
      );
    }
  },

  countQueues(db: TenantDb, ids: number[]) {
    return ids.length === 0 ? Promise.resolve(0) : db.count(queues, inArray(queues.id, ids));
  },
};
