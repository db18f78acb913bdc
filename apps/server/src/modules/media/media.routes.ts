import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { routes } from '../../platform/routes';
import { Storage } from '../../platform/storage';

const params = z.strictObject({
  companyId: z.string().regex(/^\d{1,10}$/),
  file: z.string().regex(/^[0-9a-f-]{36}\.[a-z0-9]{1,5}$/),
});
const query = z.strictObject({
  expires: z.coerce.number().int(),
  signature: z.string().max(100),
});

/**
 * Media files by signed, short-lived address (so <img> and <audio> can load them without a
 * bearer token). A forged, expired or other-company address answers 404; active content (HTML,
 * SVG and anything unknown) is always a download, sandboxed.
 */
export const mediaRoutes = (storage: Storage) =>
  routes(async (app) => {
    app.get(
      '/media/:companyId/:file',
      {
        config: { access: 'public' },
        schema: { tags: ['media'], params, querystring: query, hide: true },
      },
      async (req, reply) => {
        const key = `${req.params.companyId}/${req.params.file}`;
        if (!storage.verify(key, req.query.expires, req.query.signature)) {
          throw new AppError('ERR_NOT_FOUND', 404);
        }
        const file = await storage.open(key).catch(() => {
          throw new AppError('ERR_NOT_FOUND', 404);
        });
        const type = Storage.typeOf(key);
        return (
          reply
            .header('content-type', type)
            .header('content-length', file.size)
            .header('content-disposition', Storage.inline(type) ? 'inline' : 'attachment')
            .header('content-security-policy', "sandbox; default-src 'none'")
            .header('cache-control', 'private, max-age=3600')
            // The signed address is the access check; the web app embeds it from its own site
            // (another port of an IP address is another site, and same-site would block it).
            .header('cross-origin-resource-policy', 'cross-origin')
            .send(file.stream)
        );
      },
    );
  });
