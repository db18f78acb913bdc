import type { Plan, PlanCreate } from '@atendi/shared';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors';
import { globalDb } from '../../db/global';
import type { DbHandle } from '../../db/tenant';
import { AppError } from '../../platform/errors';
import {
  deletePlan,
  insertPlan,
  planById,
  planInUse,
  plansByPrice,
  updatePlan,
} from './plans.repository';

const duplicatedName = () =>
  new AppError('ERR_VALIDATION', 409, { fields: [{ path: 'body.name', message: 'Duplicated' }] });

/** Plans are the platform's catalogue: the public list for sign-up, the rest for the super user. */
export class PlansService {
  constructor(private readonly db: DbHandle) {}

  get #db() {
    return globalDb({ db: this.db });
  }

  list(): Promise<Plan[]> {
    return plansByPrice(this.#db);
  }

  async get(id: number): Promise<Plan> {
    const plan = await planById(this.#db, id);
    if (!plan) throw new AppError('ERR_NO_PLAN_FOUND', 404);
    return plan;
  }

  async create(data: PlanCreate): Promise<Plan> {
    try {
      return await insertPlan(this.#db, data);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicatedName();
      throw error;
    }
  }

  async update(id: number, data: Partial<PlanCreate>): Promise<Plan> {
    const { ...changes } = data as Partial<PlanCreate> & { id?: number };
    delete (changes as { id?: number }).id;
    try {
      const plan = await updatePlan(this.#db, id, changes);
      if (!plan) throw new AppError('ERR_NO_PLAN_FOUND', 404);
      return plan;
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicatedName();
      throw error;
    }
  }

  async remove(id: number): Promise<void> {
    const db = this.#db;
    if (await planInUse(db, id)) throw new AppError('ERR_PLAN_IN_USE', 409);
    try {
      if (!(await deletePlan(db, id))) throw new AppError('ERR_NO_PLAN_FOUND', 404);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new AppError('ERR_PLAN_IN_USE', 409);
      throw error;
    }
  }
}
