import { idParamsSchema } from '@atendi/shared';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { routes } from '../../platform/routes';
import type { CloudWebhook } from './cloud-api.normalise';
import { type CloudApiProvider, sameSecret, validSignature } from './cloud-api.provider';

const tags = ['webhooks'];
const params = z.strictObject({ connectionId: idParamsSchema.shape.id });

/**
 * Meta's webhook for a Cloud API connection. Public (Meta calls it), so the secrets decide:
 * the verify token for the subscription check, the app secret's signature for each payload.
 */
export const cloudApiRoutes = (provider: CloudApiProvider) =>
  routes(async (app) => {
    // The signature covers the exact bytes sent: keep them, and parse after checking.
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
      done(null, body),
    );

    const running = (connectionId: number) => {
      const session = provider.session(connectionId);
      // 503 rather than 404: Meta keeps the payload and tries again once the session runs.
      if (!session) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 503);
      return session;
    };

    app.get(
      '/webhooks/cloud-api/:connectionId',
      {
        config: { access: 'public' },
        schema: {
          tags,
          params,
          querystring: z.looseObject({
            'hub.mode': z.string().max(50).optional(),
            'hub.verify_token': z.string().max(500).optional(),
            'hub.challenge': z.string().max(500).optional(),
          }),
        },
      },
      async (req, reply) => {
        const settings = await running(req.params.connectionId).settings();
        const query = req.query;
        if (
          !settings ||
          query['hub.mode'] !== 'subscribe' ||
          !sameSecret(query['hub.verify_token'] ?? '', settings.verifyToken)
        ) {
          throw new AppError('ERR_NO_PERMISSION', 403);
        }
        return reply.type('text/plain; charset=utf-8').send(query['hub.challenge'] ?? '');
      },
    );

    app.post(
      '/webhooks/cloud-api/:connectionId',
      { config: { access: 'public' }, bodyLimit: 5 * 1024 * 1024, schema: { tags, params } },
      async (req, reply) => {
        const session = running(req.params.connectionId);
        const settings = await session.settings();
        if (!settings) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 503);
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const signature = req.headers['x-hub-signature-256'];
        if (
          !validSignature(
            raw,
            typeof signature === 'string' ? signature : undefined,
            settings.appSecret,
          )
        ) {
          throw new AppError('ERR_NO_PERMISSION', 401);
        }
        let payload: CloudWebhook;
        try {
          payload = JSON.parse(raw.toString('utf8')) as CloudWebhook;
        } catch {
          throw new AppError('ERR_INVALID_JSON', 400);
        }
        await session.receive(payload, settings);
        return reply.status(200).send({ received: true });
      },
    );
  });
