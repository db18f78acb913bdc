import { type Queue, type QueueCreate, withTwoPeriods } from '@atendi/shared';
import { asc, eq } from 'drizzle-orm';
import { queues } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { isoRequired } from '../../platform/routes';

/** The queue's token is for the company's admins, as a connection's is. */
const present = (row: typeof queues.$inferSelect, admin: boolean): Queue => ({
  id: row.id,
  name: row.name,
  color: row.color,
  greetingMessage: row.greetingMessage,
  complationMessage: row.complationMessage,
  outOfHoursMessage: row.outOfHoursMessage,
  ratingMessage: row.ratingMessage,
  ...(admin ? { token: row.token } : {}),
  orderQueue: row.orderQueue,
  integrationId: row.integrationId,
  promptId: row.promptId,
  // The original client's queue form reads each day's two periods.
  schedules: row.schedules.map(withTwoPeriods),
  createdAt: isoRequired(row.createdAt),
  updatedAt: isoRequired(row.updatedAt),
});

/** `admin` says whether the answer carries each queue's token. */
export async function queuesInOrder(db: TenantDb, admin: boolean): Promise<Queue[]> {
  const rows = await db.selectFrom(queues).orderBy(asc(queues.orderQueue), asc(queues.name));
  return rows.map((row) => present(row, admin));
}

export async function queueById(db: TenantDb, id: number, admin: boolean) {
  const [row] = await db.selectFrom(queues, eq(queues.id, id));
  return row ? present(row, admin) : undefined;
}

export async function insertQueue(db: TenantDb, data: QueueCreate, admin: boolean) {
  const [row] = await db.insert(queues, data).returning();
  return present(row!, admin);
}

export async function updateQueue(
  db: TenantDb,
  id: number,
  data: Partial<QueueCreate>,
  admin: boolean,
) {
  const [row] = await db
    .update(queues, { ...data, updatedAt: new Date() }, eq(queues.id, id))
    .returning();
  return row ? present(row, admin) : undefined;
}

export function countQueues(db: TenantDb): Promise<number> {
  return db.count(queues);
}

/** Whether a queue was there to delete. */
export async function deleteQueue(db: TenantDb, id: number): Promise<boolean> {
  const deleted = await db.delete(queues, eq(queues.id, id)).returning({ id: queues.id });
  return deleted.length > 0;
}
