import {
  type Company,
  type CompanyCreate,
  type CompanySchedule,
  type CompanyUpdate,
  type CompanyWithPlanName,
  DEFAULT_PAGE_SIZE,
  DEFAULT_SCHEDULES,
  hasRole,
  type ListQuery,
  type Plan,
  type Signup,
  TRIAL_DAYS,
} from '@atendi/shared';
import { isUniqueViolation } from '../../db/errors';
import { type GlobalDb, globalDb } from '../../db/global';
import type { RequestContext } from '../../platform/auth/context';
import { emailTaken } from '../../platform/auth/credentials';
import { hashPassword } from '../../platform/auth/passwords';
import { AppError, forbidden } from '../../platform/errors';
import type { Platform } from '../../platform/platform';
import { platformSetting } from '../../platform/platform-settings';
import { page, sliceMore } from '../../platform/routes';
import { planOf } from '../plans/plans.limits';
import { startCompanySettings, storeCompanySetting } from '../settings/settings.values';
import { insertFirstAdmin } from '../users/users.service';
import {
  companiesByName,
  companiesPage,
  companyHours,
  deleteCompany,
  insertCompany,
  presentCompany,
  updateCompany,
} from './companies.repository';

/** The company's opening hours, on its own clock (the default week when it never set them). */
export function openingHoursOf(db: GlobalDb, companyId: number) {
  return companyHours(db, companyId);
}

/**
 * Stores the name and address a company's checkout gave as its billing fields (the super
 * user's company form shows the same ones); answers the company, or undefined when it is gone.
 */
export function keepBillingDetails(
  db: GlobalDb,
  companyId: number,
  billing: Partial<
    Pick<
      Company,
      'billingName' | 'addressZipCode' | 'addressStreet' | 'addressCity' | 'addressState'
    >
  >,
): Promise<Company | undefined> {
  return updateCompany(db, companyId, billing);
}

export interface NewCompany {
  name: string;
  email: string;
  phone?: string | null;
  planId: number;
  status?: boolean;
  dueDate?: string | null;
  trialExpiration?: Date | null;
  recurrence?: string;
  campaignsEnabled?: boolean;
  billingName?: string | null;
  addressZipCode?: string | null;
  addressStreet?: string | null;
  addressState?: string | null;
  addressCity?: string | null;
  addressDistrict?: string | null;
  admin?: { name: string; email: string; password: string; super?: boolean };
}

const today = (plusDays = 0) => {
  const date = new Date(Date.now() + plusDays * 86_400_000);
  return date.toISOString().slice(0, 10);
};

/**
 * Creates a company with its settings and, when given, its first admin, in one transaction.
 * Used by sign-up, by the super user and by the seed.
 */
export async function provisionCompany(db: GlobalDb, data: NewCompany) {
  const passwordHash = data.admin ? await hashPassword(data.admin.password) : undefined;
  try {
    return await db.transaction(async (tx, tenantOf) => {
      if (!(await planOf(tx, data.planId))) throw new AppError('ERR_NO_PLAN_FOUND', 404);
      const company = await insertCompany(tx, {
        name: data.name,
        email: data.email,
        phone: data.phone ?? null,
        planId: data.planId,
        status: data.status ?? true,
        dueDate: data.dueDate ?? null,
        trialExpiration: data.trialExpiration ?? null,
        recurrence: data.recurrence ?? 'MENSAL',
        schedules: DEFAULT_SCHEDULES,
        billingName: data.billingName ?? null,
        addressZipCode: data.addressZipCode ?? null,
        addressStreet: data.addressStreet ?? null,
        addressState: data.addressState ?? null,
        addressCity: data.addressCity ?? null,
        addressDistrict: data.addressDistrict ?? null,
      });
      const tenant = tenantOf(company.id);
      await startCompanySettings(
        tenant,
        data.campaignsEnabled === false ? { campaignsEnabled: 'false' } : {},
      );
      let adminId: number | undefined;
      if (data.admin && passwordHash) {
        adminId = await insertFirstAdmin(tenant, {
          name: data.admin.name,
          email: data.admin.email,
          passwordHash,
          super: data.admin.super ?? false,
        });
      }
      return { company, adminId };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'companies_name_key')) {
      throw new AppError('ERR_DUPLICATED_COMPANY', 409);
    }
    if (isUniqueViolation(error, 'users_email_key'))
      throw new AppError('ERR_DUPLICATED_EMAIL', 409);
    throw error;
  }
}

export class CompaniesService {
  constructor(private readonly platform: Platform) {}

  get #db() {
    return globalDb({ db: this.platform.db });
  }

  /** Public sign-up: a company on a trial (the platform's 'trial' days, 3 unless set) with its first admin (the route takes five an hour from one address). */
  async signup(data: Signup): Promise<Company> {
    if (!(await this.#signupOpen())) throw new AppError('ERR_USER_CREATION_DISABLED', 403);
    const trialDays = Number((await platformSetting(this.platform.db, 'trial')) ?? TRIAL_DAYS);
    if (await emailTaken(this.platform.db, data.email)) {
      throw new AppError('ERR_DUPLICATED_EMAIL', 409);
    }
    const { company } = await provisionCompany(this.#db, {
      name: data.name,
      email: data.email,
      phone: data.phone,
      planId: data.planId,
      dueDate: today(trialDays),
      trialExpiration: new Date(Date.now() + trialDays * 86_400_000),
      recurrence: 'MENSAL',
      campaignsEnabled: data.campaignsEnabled ?? true,
      admin: { name: data.name, email: data.email, password: data.password },
    });
    this.platform.events.emit('company.dueDateSet', {
      companyId: company.id,
      dueDate: company.dueDate,
    });
    return presentCompany(company);
  }

  async list(query: ListQuery) {
    const { limit, offset } = page(query.pageNumber, DEFAULT_PAGE_SIZE);
    const { rows, count } = await companiesPage(this.#db, query.searchParam?.trim(), {
      limit,
      offset,
    });
    const { rows: pageRows, hasMore } = sliceMore(rows, DEFAULT_PAGE_SIZE);
    return { companies: pageRows, count, hasMore };
  }

  async all(): Promise<CompanyWithPlanName[]> {
    return companiesByName(this.#db);
  }

  async get(ctx: RequestContext, id: number): Promise<Company> {
    this.#ownOrSuper(ctx, id);
    const row = await this.#db.companyById(id);
    if (!row) throw new AppError('ERR_NO_COMPANY_FOUND', 404);
    return presentCompany(row);
  }

  /** The company with its plan, for its own admin or the super user. */
  async withPlan(ctx: RequestContext, id: number): Promise<Company & { plan: Plan }> {
    const company = await this.get(ctx, id);
    const plan = await planOf(this.#db, company.planId);
    return { ...company, plan: plan! };
  }

  async create(data: CompanyCreate): Promise<Company> {
    if (data.password && (await emailTaken(this.platform.db, data.email))) {
      throw new AppError('ERR_DUPLICATED_EMAIL', 409);
    }
    const { company } = await provisionCompany(this.#db, {
      ...data,
      dueDate: data.dueDate ?? null,
      admin: data.password
        ? { name: data.name, email: data.email, password: data.password }
        : undefined,
    });
    this.platform.events.emit('company.dueDateSet', {
      companyId: company.id,
      dueDate: company.dueDate,
    });
    return presentCompany(company);
  }

  async update(id: number, data: CompanyUpdate): Promise<Company> {
    const { id: _ignored, campaignsEnabled, ...changes } = data;
    if (changes.planId) await this.#requirePlan(changes.planId);
    const company = await this.#db
      .transaction(async (tx, tenantOf) => {
        const updated = await updateCompany(tx, id, changes);
        if (updated && campaignsEnabled !== undefined) {
          await storeCompanySetting(tenantOf(id), 'campaignsEnabled', String(campaignsEnabled));
        }
        return updated;
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new AppError('ERR_DUPLICATED_COMPANY', 409);
        throw error;
      });
    if (!company) throw new AppError('ERR_NO_COMPANY_FOUND', 404);
    if (changes.dueDate !== undefined) {
      this.platform.events.emit('company.dueDateSet', { companyId: id, dueDate: company.dueDate });
    }
    return company;
  }

  async remove(ctx: RequestContext, id: number): Promise<void> {
    if (id === ctx.companyId) throw new AppError('ERR_NO_PERMISSION', 403);
    if (!(await deleteCompany(this.#db, id))) throw new AppError('ERR_NO_COMPANY_FOUND', 404);
    this.platform.events.emit('company.deleted', { companyId: id });
  }

  async updateSchedules(
    ctx: RequestContext,
    id: number,
    schedules: CompanySchedule[],
  ): Promise<Company> {
    this.#ownOrSuper(ctx, id);
    if (!hasRole(ctx, 'admin')) throw forbidden();
    const company = await updateCompany(this.#db, id, { schedules });
    if (!company) throw new AppError('ERR_NO_COMPANY_FOUND', 404);
    this.platform.events.emit('company.saved', { companyId: id, company });
    return company;
  }

  /** Another company's id answers 404, as if it did not exist, unless the caller is super. */
  #ownOrSuper(ctx: RequestContext, id: number) {
    if (id !== ctx.companyId && !ctx.super) throw new AppError('ERR_NO_COMPANY_FOUND', 404);
  }

  async #requirePlan(planId: number) {
    if (!(await planOf(this.#db, planId))) throw new AppError('ERR_NO_PLAN_FOUND', 404);
  }

  /** Sign-up is open unless the platform's super user switched 'userCreation' (or the original's 'allowregister') off. */
  async #signupOpen(): Promise<boolean> {
    const switches = await Promise.all(
      (['userCreation', 'allowregister'] as const).map((key) =>
        platformSetting(this.platform.db, key),
      ),
    );
    return !switches.includes('disabled');
  }
}
