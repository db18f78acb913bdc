import { count, eq } from 'drizzle-orm';
import type { Pool } from 'pg';
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

/**
 * A connection of any company by id with one of its stored keys, in one named statement (parsed
 * and planned once per pooled connection): what every Cloud API webhook needs before it knows the
 * company, so it is not built by the query builder each time.
 */
export async function channelConnectionWithKey(handle: DbHandle, id: number, key: string) {
  const client = (unwrapHandle(handle) as { $client?: Pick<Pool, 'query'> }).$client;
  if (!client) throw new Error('channelConnectionWithKey needs the pool, not a transaction');
  const result = await client.query<{
    id: number;
    companyId: number;
    name: string;
    provider: string;
    sessionEnabled: boolean;
    value: unknown;
  }>({
    name: 'channel_connection_with_key_v1',
    text: `select c.id, c.company_id as "companyId", c.name, c.provider,
        c.session_enabled as "sessionEnabled", k.value
      from connections c
      left join connection_auth_keys k
        on k.company_id = c.company_id and k.connection_id = c.id and k.key = $2
      where c.id = $1`,
    values: [id, key],
  });
  return result.rows[0];
}

/**
 * The connection an external-API token names, of any company, with whether its company's plan
 * allows the external API: what a call needs before it knows the company.
 */
export async function connectionByApiToken(handle: DbHandle, token: string) {
  const client = (unwrapHandle(handle) as { $client?: Pick<Pool, 'query'> }).$client;
  if (!client) throw new Error('connectionByApiToken needs the pool, not a transaction');
  const result = await client.query<{
    id: number;
    companyId: number;
    provider: string;
    useExternalApi: boolean;
  }>({
    name: 'connection_by_api_token_v1',
    text: `select c.id, c.company_id as "companyId", c.provider,
        coalesce(p.use_external_api, false) as "useExternalApi"
      from connections c
      join companies co on co.id = c.company_id
      left join plans p on p.id = co.plan_id
      where c.token = $1`,
    values: [token],
  });
  return result.rows[0];
}

/** How many connections of every company are in each status (the metrics' reading). */
export async function connectionStatusCounts(handle: DbHandle): Promise<Record<string, number>> {
  const rows = await unwrapHandle(handle)
    .select({ status: connections.status, count: count() })
    .from(connections)
    .groupBy(connections.status);
  return Object.fromEntries(rows.map((row) => [row.status, row.count]));
}
