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

/** Words that make a name a credential's: `newPassword`, `verify_token`, `hub.verify_token`. */
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'pwd',
  'secret',
  'token',
  'signature',
  'credential',
  'credentials',
  'otp',
]);

/**
 * Whether a parameter's name (path, query, field) is a credential's: it holds a secret word, or
 * is a key of something (`apiKey`, `voiceKey`; a lone `key` is a setting's name), or is a lone
 * `code` (a reset or OAuth code). The one rule the log masks by, and the log sweep fills by.
 */
export function isSecretName(name: string): boolean {
  const words = name
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
  if (words.some((word) => SECRET_WORDS.has(word))) return true;
  if (words.length > 1 && words.includes('key')) return true;
  return words.length === 1 && words[0] === 'code';
}

const REDACTED = '[redacted]';

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

/**
 * An address as it may be written down: the value of every query parameter named as a secret
 * (the socket handshake's token, a signed link's signature, a webhook's verify token), and, when
 * the route's pattern is known, every path parameter named as one in its contract
 * (`/resetpasswords/:email/:token/:newPassword`), replaced by `[redacted]`.
 */
export function redactUrl(url: string, pattern?: string): string {
  const at = url.indexOf('?');
  let path = at < 0 ? url : url.slice(0, at);
  const query = at < 0 ? undefined : url.slice(at + 1);
  if (pattern?.includes(':')) {
    const names = pattern.replace(/\/+$/, '').split('/');
    const parts = path.replace(/\/+$/, '').split('/');
    if (names.length === parts.length) {
      path = parts
        .map((part, index) => {
          const name = names[index]!;
          return name.startsWith(':') && isSecretName(name.slice(1)) ? REDACTED : part;
        })
        .join('/');
    }
  }
  if (query === undefined) return path;
  const pairs = query.split('&').map((pair) => {
    const equals = pair.indexOf('=');
    const key = equals < 0 ? pair : pair.slice(0, equals);
    return equals >= 0 && isSecretName(decoded(key)) ? `${key}=${REDACTED}` : pair;
  });
  return `${path}?${pairs.join('&')}`;
}

/** A request's address as the log writes it (its route's secret path parameters masked). */
const loggedUrl = (request: { url: string; routeOptions?: { url?: string } }) =>
  redactUrl(request.url, request.routeOptions?.url);

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
      req: (request: {
        method: string;
        url: string;
        ip?: string;
        routeOptions?: { url?: string };
      }) => ({
        method: request.method,
        url: loggedUrl(request),
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
    const line = `${request.method} ${loggedUrl(request)} ${reply.statusCode} ${elapsed}ms`;
    const fields =
      this.format === 'json'
        ? { req: request, res: { statusCode: reply.statusCode }, responseTime: elapsed }
        : {};
    if (error) reply.log.error({ ...fields, err: error }, line);
    else reply.log.info(fields, line);
  }
}

export const requestLogController = (format: 'json' | 'pretty') => new OneLineRequestLog(format);
