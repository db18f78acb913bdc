import { and, asc, eq, gt, lt } from 'drizzle-orm';
import type { DeferredCommand } from '../../channels/commands';
import { connections, deferredChannelCommands } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';

/** Keeps a command for the connection's next owner; answers its id. */
export async function storeDeferred(db: TenantDb, connectionId: number, command: DeferredCommand) {
  const { action, ...payload } = command;
  const [row] = await db
    .insert(deferredChannelCommands, { connectionId, action, payload })
    .returning({ id: deferredChannelCommands.id });
  return row!.id;
}

export async function deferredById(db: TenantDb, id: number) {
  const [row] = await db.selectFrom(deferredChannelCommands, eq(deferredChannelCommands.id, id));
  return row && { id: row.id, connectionId: row.connectionId, command: commandOf(row) };
}

/** The oldest commands kept for a connection, after `afterId`. */
export async function deferredFor(
  db: TenantDb,
  connectionId: number,
  afterId: number,
  limit: number,
) {
  const rows = await db
    .selectFrom(
      deferredChannelCommands,
      and(
        eq(deferredChannelCommands.connectionId, connectionId),
        gt(deferredChannelCommands.id, afterId),
      ),
    )
    .orderBy(asc(deferredChannelCommands.id))
    .limit(limit);
  return rows.map((row) => ({ id: row.id, command: commandOf(row) }));
}

export function removeDeferred(db: TenantDb, id: number) {
  return db.delete(deferredChannelCommands, eq(deferredChannelCommands.id, id));
}

/** Commands too old to matter any more (a read receipt of last week tells the contact nothing). */
export function forgetDeferredBefore(db: TenantDb, connectionId: number, before: Date) {
  return db.delete(
    deferredChannelCommands,
    and(
      eq(deferredChannelCommands.connectionId, connectionId),
      lt(deferredChannelCommands.createdAt, before),
    )!,
  );
}

function commandOf(row: typeof deferredChannelCommands.$inferSelect): DeferredCommand {
  return { action: row.action, ...(row.payload as object) } as DeferredCommand;
}

/** Whether the connection is meant to run (some instance takes it when none does). */
export async function sessionEnabled(db: TenantDb, connectionId: number) {
  const [row] = await db
    .select({ enabled: connections.sessionEnabled })
    .from(connections, eq(connections.id, connectionId));
  return row?.enabled ?? false;
}
