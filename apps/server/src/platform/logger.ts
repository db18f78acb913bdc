import type { FastifyServerOptions } from 'fastify';

/** Never log credentials: headers, cookies, passwords and tokens are redacted wherever they appear. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.passwordHash',
  '*.token',
  '*.refreshToken',
];

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        url: request.url.replace(/([?&](token|access_token)=)[^&]*/gi, '$1[redacted]'),
        ip: request.ip,
      }),
    },
  };
}
