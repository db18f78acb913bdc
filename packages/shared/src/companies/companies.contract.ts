import { z } from 'zod';
import { defineContract } from '../contract';
import { idParamsSchema, listQuerySchema } from '../pagination';
import { planSchema } from '../plans/plans.schemas';
import {
  companyCreateSchema,
  companySchedulesUpdateSchema,
  companySchema,
  companyUpdateSchema,
  companyWithPlanNameSchema,
  signupSchema,
} from './companies.schemas';

const companyIdParams = z.strictObject({ companyId: idParamsSchema.shape.id });

export const companiesContract = defineContract('companies', {
  signup: {
    method: 'POST',
    path: '/companies/cadastro',
    access: 'public',
    body: signupSchema,
    responses: { 201: companySchema },
  },
  list: {
    method: 'GET',
    path: '/companies',
    access: 'companies:manage',
    query: listQuerySchema,
    responses: {
      200: z.object({ companies: z.array(companySchema), count: z.number(), hasMore: z.boolean() }),
    },
  },
  listAll: {
    method: 'GET',
    path: '/companies/list',
    access: 'companies:manage',
    responses: { 200: z.array(companyWithPlanNameSchema) },
  },
  withPlan: {
    method: 'GET',
    path: '/companies/listPlan/:companyId',
    access: 'session:use',
    params: companyIdParams,
    responses: { 200: companySchema.extend({ plan: planSchema }) },
  },
  get: {
    method: 'GET',
    path: '/companies/:id',
    access: 'session:use',
    params: idParamsSchema,
    responses: { 200: companySchema },
  },
  create: {
    method: 'POST',
    path: '/companies',
    access: 'companies:manage',
    body: companyCreateSchema,
    responses: { 201: companySchema },
  },
  update: {
    method: 'PUT',
    path: '/companies/:id',
    access: 'companies:manage',
    params: idParamsSchema,
    body: companyUpdateSchema,
    responses: { 200: companySchema },
  },
  updateSchedules: {
    method: 'PUT',
    path: '/companies/:id/schedules',
    access: 'settings:manage',
    params: idParamsSchema,
    body: companySchedulesUpdateSchema,
    responses: { 200: companySchema },
  },
  remove: {
    method: 'DELETE',
    path: '/companies/:id',
    access: 'companies:manage',
    params: idParamsSchema,
    responses: { 204: null },
  },
});
