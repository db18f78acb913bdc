import { eq } from 'drizzle-orm';
import { unwrapHandle } from './client';
import { connections } from './schema';
import type { DbHandle } from './tenant';

/** Connections of every company whose session should be running: the lease sweep's work list. */
export function enabledConnections(handle: DbHandle) {
  return unwrapHandle(handle)
    .select({
      id: connections.id,
      companyId: connections.companyId,
      name: connections.name,
      provider: connections.provider,
    })
    .from(connections)
    .where(eq(connections.sessionEnabled, true));
}

/** One connection of any company, by id: what an instance needs before it knows the company. */
export async function channelConnection(handle: DbHandle, id: number) {
  const [row] = await unwrapHandle(handle)
    .select({
      id: connections.id,
      companyId: connections.companyId,
      name: connections.name,
      provider: connections.provider,
      sessionEnabled: connections.sessionEnabled,
    })
    .from(connections)
    .where(eq(connections.id, id));
  return row;
}
