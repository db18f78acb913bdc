import {
  companyCreateSchema,
  companySchedulesUpdateSchema,
  companySchema,
  companyUpdateSchema,
  idParamsSchema,
  listQuerySchema,
  planSchema,
  signupSchema,
} from '@atendi/shared';
import { z } from 'zod';
import { routes } from '../../platform/routes';
import type { Services } from '../services';

const tags = ['companies'];
const companyIdParams = z.strictObject({ companyId: idParamsSchema.shape.id });

export const companiesRoutes = ({ companies }: Services) =>
  routes(async (app) => {
    app.post(
      '/companies/cadastro',
      {
        config: { access: 'public' },
        schema: { tags, body: signupSchema, response: { 201: companySchema } },
      },
      async (req, reply) => reply.status(201).send(await companies.signup(req.body)),
    );
    app.get(
      '/companies',
      {
        config: { access: 'companies:manage' },
        schema: {
          tags,
          querystring: listQuerySchema,
          response: {
            200: z.object({
              companies: z.array(companySchema),
              count: z.number(),
              hasMore: z.boolean(),
            }),
          },
        },
      },
      (req) => companies.list(req.query),
    );
    app.get(
      '/companies/list',
      {
        config: { access: 'companies:manage' },
        schema: { tags, response: { 200: z.array(companySchema) } },
      },
      () => companies.all(),
    );
    app.get(
      '/companies/listPlan/:companyId',
      {
        config: { access: 'session:use' },
        schema: {
          tags,
          params: companyIdParams,
          response: { 200: companySchema.extend({ plan: planSchema }) },
        },
      },
      (req) => companies.withPlan(req.ctx, req.params.companyId),
    );
    app.get(
      '/companies/:id',
      {
        config: { access: 'session:use' },
        schema: { tags, params: idParamsSchema, response: { 200: companySchema } },
      },
      (req) => companies.get(req.ctx, req.params.id),
    );
    app.post(
      '/companies',
      {
        config: { access: 'companies:manage' },
        schema: { tags, body: companyCreateSchema, response: { 201: companySchema } },
      },
      async (req, reply) => reply.status(201).send(await companies.create(req.body)),
    );
    app.put(
      '/companies/:id',
      {
        config: { access: 'companies:manage' },
        schema: {
          tags,
          params: idParamsSchema,
          body: companyUpdateSchema,
          response: { 200: companySchema },
        },
      },
      (req) => companies.update(req.params.id, req.body),
    );
    app.put(
      '/companies/:id/schedules',
      {
        config: { access: 'settings:manage' },
        schema: {
          tags,
          params: idParamsSchema,
          body: companySchedulesUpdateSchema,
          response: { 200: companySchema },
        },
      },
      (req) => companies.updateSchedules(req.ctx, req.params.id, req.body.schedules),
    );
    app.delete(
      '/companies/:id',
      { config: { access: 'companies:manage' }, schema: { tags, params: idParamsSchema } },
      async (req, reply) => {
        await companies.remove(req.ctx, req.params.id);
        return reply.status(204).send();
      },
    );
  });
