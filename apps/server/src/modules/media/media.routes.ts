import { mediaContract } from '@atendi/shared';
import { AppError } from '../../platform/errors';
import { contractRoutes } from '../../platform/routes';
import { Storage } from '../../platform/storage';

/**
 * A Content-Disposition that saves the file under `name`: a plain-ASCII fallback and the exact
 * name percent-encoded (RFC 6266), so no quote, control character or line break reaches the header.
 */
export function attachmentNamed(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_').trim() || 'arquivo';
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Media files by signed, short-lived address (so <img> and <audio> can load them without a
 * bearer token). A forged, expired or other-company address answers 404; active content (HTML,
 * SVG and anything unknown) is always a download, sandboxed. `download` asks for a download under
 * a name (the address carries it because a link's download attribute is ignored across sites).
 */
export const mediaRoutes = (storage: Storage) =>
  contractRoutes((serve) => {
    serve(
      mediaContract.file,
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
            .header(
              'content-disposition',
              req.query.download !== undefined
                ? attachmentNamed(req.query.download)
                : Storage.inline(type)
                  ? 'inline'
                  : 'attachment',
            )
            .header('content-security-policy', "sandbox; default-src 'none'")
            .header('cache-control', 'private, max-age=3600')
            // The signed address is the access check; the web app embeds it from its own site
            // (another port of an IP address is another site, and same-site would block it).
            .header('cross-origin-resource-policy', 'cross-origin')
            .send(file.stream)
        );
      },
      // Every picture of a conversation is a request: files are not logged one by one.
      { quiet: true },
    );
  });
