import type { QueueOption, QueueOptionFields } from '@atendi/shared';
import { and, asc, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { queueOptions, queues } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { isoRequired } from '../../platform/routes';

type OptionRow = typeof queueOptions.$inferSelect;
type OptionTexts = Pick<typeof queueOptions.$inferInsert, 'title' | 'message' | 'option'>;

const present = (row: OptionRow): QueueOptionFields => ({
  id: row.id,
  title: row.title,
  message: row.message,
  option: row.option,
  queueId: row.queueId,
  parentId: row.parentId,
  createdAt: isoRequired(row.createdAt),
  updatedAt: isoRequired(row.updatedAt),
});

const isNumber = sql`${queueOptions.option} ~ '^[0-9]+$'`;

/** Menu order: by number ('2' before '10'), anything else after, then by id. */
const menuOrder = [
  asc(sql`case when ${isNumber} then ${queueOptions.option}::numeric end`),
  asc(queueOptions.option),
  asc(queueOptions.id),
];

const levelOf = (queueId: number, parentId: number | null): SQL =>
  and(
    eq(queueOptions.queueId, queueId),
    parentId === null ? isNull(queueOptions.parentId) : eq(queueOptions.parentId, parentId),
  ) as SQL;

/** One level of a queue's menu, each option with its direct children: two statements. */
export async function optionsOfLevel(
  db: TenantDb,
  queueId: number,
  parentId: number | null,
): Promise<QueueOption[]> {
  const rows = await db.selectFrom(queueOptions, levelOf(queueId, parentId)).orderBy(...menuOrder);
  if (rows.length === 0) return [];
  const children = await db
    .selectFrom(
      queueOptions,
      inArray(
        queueOptions.parentId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(...menuOrder);
  return rows.map((row) => ({
    ...present(row),
    children: children.filter((child) => child.parentId === row.id).map(present),
  }));
}

export async function optionById(db: TenantDb, id: number): Promise<OptionRow | undefined> {
  const [row] = await db.selectFrom(queueOptions, eq(queueOptions.id, id));
  return row;
}

/** The option as the routes answer it, with its direct children. */
export async function presentOption(db: TenantDb, row: OptionRow): Promise<QueueOption> {
  const children = await db
    .selectFrom(queueOptions, eq(queueOptions.parentId, row.id))
    .orderBy(...menuOrder);
  return { ...present(row), children: children.map(present) };
}

/**
 * Whether the queue exists, locking it until the transaction ends: options written under the
 * lock check their siblings one after another. 'no key update' leaves the queue's other writes
 * (and its options' foreign keys) unblocked.
 */
export async function lockQueue(db: TenantDb, queueId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: queues.id })
    .from(queues, eq(queues.id, queueId))
    .for('no key update');
  return row !== undefined;
}

export async function queueExists(db: TenantDb, queueId: number): Promise<boolean> {
  return (await db.count(queues, eq(queues.id, queueId))) > 0;
}

/** Whether a sibling (same queue and parent) already answers to this number. */
export async function siblingTakes(
  db: TenantDb,
  level: { queueId: number; parentId: number | null },
  option: string,
  exceptId?: number,
): Promise<boolean> {
  const sameNumber = sql`case when ${isNumber} then ${queueOptions.option}::numeric = ${option}::numeric else ${queueOptions.option} = ${option} end`;
  const found = await db.count(
    queueOptions,
    and(
      levelOf(level.queueId, level.parentId),
      sameNumber,
      exceptId === undefined ? undefined : ne(queueOptions.id, exceptId),
    ),
  );
  return found > 0;
}

export async function insertOption(
  db: TenantDb,
  data: OptionTexts & { queueId: number; parentId: number | null },
): Promise<OptionRow> {
  const [row] = await db.insert(queueOptions, data).returning();
  return row!;
}

export async function updateOption(
  db: TenantDb,
  id: number,
  data: Partial<OptionTexts>,
): Promise<OptionRow | undefined> {
  const [row] = await db
    .update(queueOptions, { ...data, updatedAt: new Date() }, eq(queueOptions.id, id))
    .returning();
  return row;
}

/**
 * Removes the option; its whole subtree goes with it (the parent key cascades). Answers the
 * option's queue, or nothing when there was no such option.
 */
export async function deleteOption(db: TenantDb, id: number): Promise<number | undefined> {
  const [deleted] = await db
    .delete(queueOptions, eq(queueOptions.id, id))
    .returning({ queueId: queueOptions.queueId });
  return deleted?.queueId;
}
