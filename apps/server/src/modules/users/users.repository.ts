import { USER_ONLINE_WINDOW_MS, type User } from '@atendi/shared';
import { and, asc, eq, ilike, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import { connections, queues, tickets, userQueues, users } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { isoRequired, likePattern } from '../../platform/routes';

// Sub-queries keyed by a user already read through the company filter; the composite keys of
// user_queues keep every linked queue inside that company. The outer id is written qualified:
// drizzle prints a single-table select's columns bare, and a bare "id" here would be q.id.
const queuesOfUser = sql<User['queues']>`coalesce((
  select json_agg(json_build_object('id', q.id, 'name', q.name, 'color', q.color,
    'UserQueue', json_build_object('queueId', q.id, 'userId', uq.user_id)) order by q.name)
  from ${userQueues} uq join ${queues} q on q.id = uq.queue_id
  where uq.user_id = ${users}.id), '[]'::json)`;

const online = sql<boolean>`coalesce(${users.lastSeenAt} > now() - make_interval(secs => ${USER_ONLINE_WINDOW_MS / 1000}), false)`;

const userFields = {
  id: users.id,
  name: users.name,
  email: users.email,
  profile: users.profile,
  super: users.super,
  allTicket: users.allTicket,
  whatsappId: users.whatsappId,
  companyId: users.companyId,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  online,
  queues: queuesOfUser,
};

type UserChanges = Partial<
  Pick<
    typeof users.$inferInsert,
    'name' | 'email' | 'passwordHash' | 'profile' | 'allTicket' | 'whatsappId'
  >
>;

type UserRow = {
  [K in keyof typeof userFields]: (typeof userFields)[K] extends SQL<infer T>
    ? T
    : (typeof users.$inferSelect)[K & keyof typeof users.$inferSelect];
};

const present = (row: UserRow): User => ({
  ...row,
  createdAt: isoRequired(row.createdAt),
  updatedAt: isoRequired(row.updatedAt),
});

export const usersRepository = {
  async page(db: TenantDb, search: string | undefined, limit: number, offset: number) {
    const where = search
      ? or(ilike(users.name, likePattern(search)), ilike(users.email, likePattern(search)))
      : undefined;
    const [rows, count] = await Promise.all([
      db
        .select(userFields)
        .from(users, where)
        .orderBy(asc(users.name), asc(users.id))
        .limit(limit)
        .offset(offset),
      db.count(users, where),
    ]);
    return { rows: rows.map(present), count };
  },

  async all(db: TenantDb) {
    const rows = await db.select(userFields).from(users).orderBy(asc(users.name));
    return rows.map(present);
  },

  async byId(db: TenantDb, id: number): Promise<User | undefined> {
    const [row] = await db.select(userFields).from(users, eq(users.id, id)).limit(1);
    return row ? present(row) : undefined;
  },

  count(db: TenantDb) {
    return db.count(users);
  },

  async insert(
    db: TenantDb,
    data: Pick<typeof users.$inferInsert, 'name' | 'email' | 'passwordHash'> &
      Partial<Pick<typeof users.$inferInsert, 'profile' | 'super' | 'allTicket' | 'whatsappId'>>,
  ): Promise<number> {
    const [row] = await db.insert(users, data).returning({ id: users.id });
    return row!.id;
  },

  async update(db: TenantDb, id: number, changes: UserChanges) {
    await db.update(users, { ...changes, updatedAt: new Date() }, eq(users.id, id));
  },

  /** Whether a user was there to delete. */
  async delete(db: TenantDb, id: number): Promise<boolean> {
    const deleted = await db.delete(users, eq(users.id, id)).returning({ id: users.id });
    return deleted.length > 0;
  },

  /** The user's open tickets go back to the waiting line, with no agent. */
  async releaseOpenTickets(db: TenantDb, userId: number) {
    await db.update(
      tickets,
      { status: 'pending', userId: null },
      and(eq(tickets.userId, userId), eq(tickets.status, 'open'), isNotNull(tickets.userId))!,
    );
  },

  async lastSeenOf(db: TenantDb, id: number) {
    const [row] = await db.select({ lastSeenAt: users.lastSeenAt }).from(users, eq(users.id, id));
    return row;
  },

  async setLastSeen(db: TenantDb, id: number, at: Date | null) {
    await db.update(users, { lastSeenAt: at }, eq(users.id, id));
  },

  passwordHashOf(db: TenantDb, id: number) {
    return db.select({ passwordHash: users.passwordHash }).from(users, eq(users.id, id));
  },

  /** How many of `ids` are queues of this company. */
  countQueues(db: TenantDb, ids: number[]) {
    return ids.length === 0 ? Promise.resolve(0) : db.count(queues, inArray(queues.id, ids));
  },

  connectionExists(db: TenantDb, id: number) {
    return db.count(connections, eq(connections.id, id)).then((found) => found > 0);
  },

  async setQueues(db: TenantDb, userId: number, queueIds: number[]) {
    await db.delete(userQueues, eq(userQueues.userId, userId));
    if (queueIds.length > 0) {
      await db.insert(
        userQueues,
        [...new Set(queueIds)].map((queueId) => ({ userId, queueId })),
      );
    }
  },
};
