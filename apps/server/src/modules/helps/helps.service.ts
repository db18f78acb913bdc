import type { Help, HelpCreate, ListQuery } from '@atendi/shared';
import { DEFAULT_PAGE_SIZE } from '@atendi/shared';
import { globalDb } from '../../db/global';
import type { DbHandle } from '../../db/tenant';
import { AppError } from '../../platform/errors';
import { page, sliceMore } from '../../platform/routes';
import { allHelps, deleteHelp, helpsPage, insertHelp, updateHelp } from './helps.repository';

/** Help videos: one list for every company, edited by the super user. */
export class HelpsService {
  constructor(private readonly db: DbHandle) {}

  get #db() {
    return globalDb({ db: this.db });
  }

  all(): Promise<Help[]> {
    return allHelps(this.#db);
  }

  async list(query: ListQuery) {
    const { limit, offset } = page(query.pageNumber, DEFAULT_PAGE_SIZE);
    const rows = await helpsPage(this.#db, query.searchParam?.trim(), { limit, offset });
    const { rows: pageRows, hasMore } = sliceMore(rows, DEFAULT_PAGE_SIZE);
    return { records: pageRows, hasMore };
  }

  create(data: HelpCreate): Promise<Help> {
    return insertHelp(this.#db, data);
  }

  async update(id: number, data: Partial<HelpCreate> & { id?: number }): Promise<Help> {
    const { id: _ignored, ...changes } = data;
    const help = await updateHelp(this.#db, id, changes);
    if (!help) throw new AppError('ERR_NOT_FOUND', 404);
    return help;
  }

  async remove(id: number): Promise<void> {
    if (!(await deleteHelp(this.#db, id))) throw new AppError('ERR_NOT_FOUND', 404);
  }
}
