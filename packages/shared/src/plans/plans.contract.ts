import { z } from 'zod';
import { defineContract } from '../contract';
import { idParamsSchema } from '../pagination';
import { planCreateSchema, planSchema, planUpdateSchema } from './plans.schemas';

const planList = { 200: z.array(planSchema) };

export const plansContract = defineContract('plans', {
  /** Public: the sign-up page offers them. */
  listPublic: { method: 'GET', path: '/plans/list', access: 'public', responses: planList },
  /** Public: the same plans, where the original product's sign-up page reads them. */
  register: { method: 'GET', path: '/plans/register', access: 'public', responses: planList },
  list: { method: 'GET', path: '/plans', access: 'plans:manage', responses: planList },
  listAll: { method: 'GET', path: '/plans/all', access: 'plans:manage', responses: planList },
  get: {
    method: 'GET',
    path: '/plans/:id',
    access: 'plans:manage',
    params: idParamsSchema,
    responses: { 200: planSchema },
  },
  create: {
    method: 'POST',
    path: '/plans',
    access: 'plans:manage',
    body: planCreateSchema,
    responses: { 201: planSchema },
  },
  update: {
    method: 'PUT',
    path: '/plans/:id',
    access: 'plans:manage',
    params: idParamsSchema,
    body: planUpdateSchema,
    responses: { 200: planSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/plans/:id',
    access: 'plans:manage',
    params: idParamsSchema,
    responses: { 204: null },
  },
});
