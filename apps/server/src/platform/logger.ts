import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Not logged unless it fails: 'always' (health, metrics, the simulator's polling), or `true`
     * in the pretty format only (files).
     */
    quiet?: boolean | 'always';
  }
}

/** The request a piece of work runs for, wherever it logs from (services use the app's logger). */
const requestScope = new AsyncLocalStorage<{ requestId: string }>();

/** A caller's own X-Request-Id is kept when it is a plain token; else one is made. */
const REQUEST_ID = /^[\w.:-]{1,64}$/;

export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Every line logged while a request is handled carries its id (`requestId`), service lines
 * included, and the answer carries it in X-Request-Id, so a report names the lines to read.
 */
export function registerRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    requestScope.run({ requestId: request.id }, done);
  });
}

/** The id of the request being handled, if any. */
export const currentRequestId = (): string | undefined => requestScope.getStore()?.requestId;

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
const LEFT_OUT = new Set(['time', 'level', 'msg', 'pid', 'hostname', 'requestId', 'err']);

/**
 * LOG_FORMAT=pretty, for a person at a terminal: each entry becomes one short line (time, level,
 * message, any other fields), with an error's stack below it. Otherwise pino's JSON.
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
  { format, stream }: { format: 'json' | 'pretty'; stream?: LogStream },
): FastifyServerOptions['logger'] {
  const destination = format === 'json' ? stream : shortLines(stream ?? process.stdout);
  return {
    level,
    // The request's id on every line written while it is handled (the request's own logger
    // has no bindings of its own: see `childLoggerFactory` in the app).
    mixin: () => {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
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
 * One entry per answered request at info (fastify writes two): method, address, status and
 * time; none for quiet routes unless they fail. In JSON the entry has the request and answer
 * as fields; in the pretty format it is one short line.
 */
class OneLineRequestLog extends LogController {
  constructor(private readonly format: 'json' | 'pretty') {
    super();
  }

  override incomingRequest() {}

  override routeNotFound() {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    const quiet = request.routeOptions.config?.quiet;
    const silent =
      quiet === 'always' ||
      (this.format === 'pretty' &&
        (quiet === true || request.routeOptions.url?.startsWith('/docs/static')));
    if (silent && !error && reply.statusCode < 500) return;
    const elapsed = Math.round(reply.elapsedTime);
    const line = `${request.method} ${redactUrl(request.url)} ${reply.statusCode} ${elapsed}ms`;
    const fields =
      this.format === 'json'
        ? { req: request, res: { statusCode: reply.statusCode }, responseTime: elapsed }
        : {};
    if (error) reply.log.error({ ...fields, err: error }, line);
    else reply.log.info(fields, line);
  }
}

export const requestLogController = (format: 'json' | 'pretty') => new OneLineRequestLog(format);
