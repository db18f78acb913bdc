import type { Help, HelpCreate, ListQuery } from '@atendi/shared';
import { DEFAULT_PAGE_SIZE } from '@atendi/shared';
import { asc, eq, ilike } from 'drizzle-orm';
import { globalDb } from '../../db/global';
import { helps } from '../../db/schema';
import type { DbHandle } from '../../db/tenant';
import { AppError } from '../../platform/errors';
import { isoRequired, likePattern, page, sliceMore } from '../../platform/routes';

const present = (row: typeof helps.$inferSelect): Help => ({
  id: row.id,
  title: row.title,
  description: row.description,
  video: row.video,
  createdAt: isoRequired(row.createdAt),
  updatedAt: isoRequired(row.updatedAt),
});

/** Help videos: one list for every company, edited by the super user. */
export class HelpsService {
  constructor(private readonly db: DbHandle) {}

  get #db() {
    return globalDb({ db: this.db });
  }

  async all(): Promise<Help[]> {
    const rows = await this.#db.selectFrom(helps).orderBy(asc(helps.title), asc(helps.id));
    return rows.map(present);
  }

  async list(query: ListQuery) {
    const search = query.searchParam?.trim();
    const where = search ? ilike(helps.title, likePattern(search)) : undefined;
    const { limit, offset } = page(query.pageNumber, DEFAULT_PAGE_SIZE);
    const rows = await this.#db
      .selectFrom(helps, where)
      .orderBy(asc(helps.title))
      .limit(limit)
      .offset(offset);
    const { rows: pageRows, hasMore } = sliceMore(rows, DEFAULT_PAGE_SIZE);
    return { records: pageRows.map(present), hasMore };
  }

  async create(data: HelpCreate): Promise<Help> {
    const [row] = await this.#db.insert(helps, data).returning();
    return present(row!);
  }

  async update(id: number, data: Partial<HelpCreate> & { id?: number }): Promise<Help> {
    const { id: _ignored, ...changes } = data;
    const [row] = await this.#db
      .update(helps, { ...changes, updatedAt: new Date() }, eq(helps.id, id))
      .returning();
    if (!row) throw new AppError('ERR_NOT_FOUND', 404);
    return present(row);
  }

  async remove(id: number): Promise<void> {
    const deleted = await this.#db.delete(helps, eq(helps.id, id)).returning({ id: helps.id });
    if (deleted.length === 0) throw new AppError('ERR_NOT_FOUND', 404);
  }
}
