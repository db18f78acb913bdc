import { settingKeyParamsSchema, settingSchema, settingUpdateSchema } from '@atendi/shared';
import { z } from 'zod';
import { routes } from '../../platform/routes';
import type { Services } from '../services';

const tags = ['settings'];

export const settingsRoutes = ({ settings }: Services) =>
  routes(async (app) => {
    app.get(
      '/settings',
      {
        config: { access: 'settings:manage' },
        schema: { tags, response: { 200: z.array(settingSchema) } },
      },
      (req) => settings.list(req.ctx),
    );
    app.put(
      '/settings/:key',
      {
        config: { access: 'settings:manage' },
        schema: {
          tags,
          params: settingKeyParamsSchema,
          body: settingUpdateSchema,
          response: { 200: settingSchema },
        },
      },
      (req) => settings.update(req.ctx, req.params.key, req.body.value),
    );
  });
