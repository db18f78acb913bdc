import { webhooksContract as webhooks } from '@atendi/shared';
import { AppError } from '../../platform/errors';
import { contractRoutes } from '../../platform/routes';
import type { ChannelManager } from '../manager';
import type { CloudWebhook } from './cloud-api.normalise';
import { type CloudApiProvider, sameSecret, validSignature } from './cloud-api.provider';

/**
 * Meta's webhook for a Cloud API connection. Public (Meta calls it), so the secrets decide:
 * the verify token for the subscription check, the app secret's signature for each payload.
 */
export const cloudApiRoutes = (
  provider: CloudApiProvider,
  channels: Pick<ChannelManager, 'eventsFor'>,
) =>
  contractRoutes((serve, app) => {
    // The signature covers the exact bytes sent: keep them, and parse after checking.
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
      done(null, body),
    );

    const target = async (connectionId: number) => {
      const found = await provider.webhookTarget(connectionId);
      // 503 rather than 404: Meta keeps the payload and tries again once the session is started.
      if (!found) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 503);
      return found;
    };

    serve(webhooks.cloudApiVerify, async (req, reply) => {
      const { settings } = await target(req.params.connectionId);
      const query = req.query;
      if (
        query['hub.mode'] !== 'subscribe' ||
        !sameSecret(query['hub.verify_token'] ?? '', settings.verifyToken)
      ) {
        throw new AppError('ERR_NO_PERMISSION', 403);
      }
      return reply.type('text/plain; charset=utf-8').send(query['hub.challenge'] ?? '');
    });

    serve(
      webhooks.cloudApiReceive,
      async (req, reply) => {
        const { ref, settings } = await target(req.params.connectionId);
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
        // Taken here even when another instance owns the connection: storing needs only the
        // database, and the answer waits for the commit either way.
        await provider.receive(ref, channels.eventsFor(ref), payload, settings);
        return reply.status(200).send({ received: true });
      },
      { bodyLimit: 5 * 1024 * 1024 },
    );
  });
