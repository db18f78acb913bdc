import {
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Not logged outside production unless it fails: health checks and files. */
    quiet?: boolean;
  }
}

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

/** Where log lines go (tests capture them); standard output otherwise. */
export interface LogStream {
  write(line: string): unknown;
}

/** A token in an address (the socket handshake, a signed link) is not written down. */
export const redactUrl = (url: string) =>
  url.replace(/([?&](token|access_token|signature)=)[^&]*/gi, '$1[redacted]');

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const LEFT_OUT = new Set(['time', 'level', 'msg', 'pid', 'hostname', 'reqId', 'err']);

/**
 * Outside production a person reads the console: each entry becomes one short line (time, level,
 * message, any other fields), with an error's stack below it. Production keeps pino's JSON.
 */
export function shortLines(out: LogStream): LogStream {
  return {
    write(line: string) {
      const entry = JSON.parse(line) as Record<string, unknown> & {
        time: number;
        level: number;
        msg?: string;
        err?: { stack?: string; message?: string };
      };
      const time = new Date(entry.time).toTimeString().slice(0, 8);
      const fields = Object.fromEntries(Object.entries(entry).filter(([k]) => !LEFT_OUT.has(k)));
      let text = `${time} ${LEVELS[entry.level] ?? entry.level} ${entry.msg ?? ''}`;
      if (Object.keys(fields).length > 0) text += ` ${JSON.stringify(fields)}`;
      if (entry.err) text += `\n${entry.err.stack ?? entry.err.message}`;
      return out.write(`${text}\n`);
    },
  };
}

export function loggerOptions(
  level: string,
  { production, stream }: { production: boolean; stream?: LogStream },
): FastifyServerOptions['logger'] {
  const destination = production ? stream : shortLines(stream ?? process.stdout);
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        url: redactUrl(request.url),
        ip: request.ip,
      }),
    },
    ...(destination ? { stream: destination } : {}),
  };
}

/**
 * Outside production, fastify's two JSON entries per request become one line per answered
 * request, and none for quiet routes and the API docs' files unless they fail.
 */
class BriefRequestLog extends LogController {
  override incomingRequest() {}

  override routeNotFound() {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    const quiet =
      request.routeOptions.config?.quiet === true ||
      request.routeOptions.url?.startsWith('/docs/static');
    if (quiet && !error && reply.statusCode < 500) return;
    const line = `${request.method} ${redactUrl(request.url)} ${reply.statusCode} ${Math.round(reply.elapsedTime)}ms`;
    if (error) reply.log.error({ err: error }, line);
    else reply.log.info(line);
  }
}

/** Production keeps fastify's own request entries. */
export const requestLogController = (production: boolean) =>
  production ? undefined : new BriefRequestLog();
