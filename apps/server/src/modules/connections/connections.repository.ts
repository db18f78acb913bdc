import type { Connection } from '@atendi/shared';
import { asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
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
  const { companyId: _company, token, createdAt, updatedAt, ...rest } = row;
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

export const connectionsRepository = {
  list(db: TenantDb, where?: SQL) {
    return db.select(fields).from(connections, where).orderBy(asc(connections.name));
  },

  async byId(db: TenantDb, id: number): Promise<Row | undefined> {
    const [row] = await db.select(fields).from(connections, eq(connections.id, id));
    return row;
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
