import type { Plan, PlanCreate } from '@atendi/shared';
import { asc, eq } from 'drizzle-orm';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors';
import { globalDb } from '../../db/global';
import { companies, plans } from '../../db/schema';
import type { DbHandle } from '../../db/tenant';
import { AppError } from '../../platform/errors';
import { presentPlan } from './plans.presenter';

const duplicatedName = () =>
  new AppError('ERR_VALIDATION', 409, { fields: [{ path: 'body.name', message: 'Duplicated' }] });

/** Plans are the platform's catalogue: the public list for sign-up, the rest for the super user. */
export class PlansService {
  constructor(private readonly db: DbHandle) {}

  async list(): Promise<Plan[]> {
    const rows = await globalDb({ db: this.db })
      .selectFrom(plans)
      .orderBy(asc(plans.value), asc(plans.id));
    return rows.map(presentPlan);
  }

  async get(id: number): Promise<Plan> {
    const [row] = await globalDb({ db: this.db }).selectFrom(plans, eq(plans.id, id));
    if (!row) throw new AppError('ERR_NO_PLAN_FOUND', 404);
    return presentPlan(row);
  }

  async create(data: PlanCreate): Promise<Plan> {
    try {
      const [row] = await globalDb({ db: this.db }).insert(plans, data).returning();
      return presentPlan(row!);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicatedName();
      throw error;
    }
  }

  async update(id: number, data: Partial<PlanCreate>): Promise<Plan> {
    const { ...changes } = data as Partial<PlanCreate> & { id?: number };
    delete (changes as { id?: number }).id;
    try {
      const [row] = await globalDb({ db: this.db })
        .update(plans, { ...changes, updatedAt: new Date() }, eq(plans.id, id))
        .returning();
      if (!row) throw new AppError('ERR_NO_PLAN_FOUND', 404);
      return presentPlan(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicatedName();
      throw error;
    }
  }

  async remove(id: number): Promise<void> {
    const db = globalDb({ db: this.db });
    const [inUse] = await db.selectFrom(companies, eq(companies.planId, id)).limit(1);
    if (inUse) throw new AppError('ERR_PLAN_IN_USE', 409);
    try {
      const deleted = await db.delete(plans, eq(plans.id, id)).returning({ id: plans.id });
      if (deleted.length === 0) throw new AppError('ERR_NO_PLAN_FOUND', 404);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new AppError('ERR_PLAN_IN_USE', 409);
      throw error;
    }
  }
}
