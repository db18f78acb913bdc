import { idParamsSchema, planCreateSchema, planSchema, planUpdateSchema } from '@atendi/shared';
import { z } from 'zod';
import { routes } from '../../platform/routes';
import type { Services } from '../services';

const tags = ['plans'];
const planList = { 200: z.array(planSchema) };

export const plansRoutes = ({ plans }: Services) =>
  routes(async (app) => {
    app.get(
      '/plans/list',
      { config: { access: 'public' }, schema: { tags, response: planList } },
      () => plans.list(),
    );
    for (const path of ['/plans', '/plans/all']) {
      app.get(
        path,
        { config: { access: 'plans:manage' }, schema: { tags, response: planList } },
        () => plans.list(),
      );
    }
    app.get(
      '/plans/:id',
      {
        config: { access: 'plans:manage' },
        schema: { tags, params: idParamsSchema, response: { 200: planSchema } },
      },
      (req) => plans.get(req.params.id),
    );
    app.post(
      '/plans',
      {
        config: { access: 'plans:manage' },
        schema: { tags, body: planCreateSchema, response: { 201: planSchema } },
      },
      async (req, reply) => reply.status(201).send(await plans.create(req.body)),
    );
    app.put(
      '/plans/:id',
      {
        config: { access: 'plans:manage' },
        schema: {
          tags,
          params: idParamsSchema,
          body: planUpdateSchema,
          response: { 200: planSchema },
        },
      },
      (req) => plans.update(req.params.id, req.body),
    );
    app.delete(
      '/plans/:id',
      { config: { access: 'plans:manage' }, schema: { tags, params: idParamsSchema } },
      async (req, reply) => {
        await plans.remove(req.params.id);
        return reply.status(204).send();
      },
    );
  });
