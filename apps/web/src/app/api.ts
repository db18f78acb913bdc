import {
  authContract,
  type BodyOf,
  type PathParamsOf,
  pathOf,
  type QueryOf,
  type ResponseOf,
  type RouteContract,
  successStatus,
} from '@atendi/shared';
import { clearSession, readToken, storeToken } from './session';

declare global {
  interface Window {
    /** Set by /env.js, which the server that serves the page writes (null: same host, :8080). */
    __ENV__?: { BACKEND_URL?: string | null };
  }
}

export function apiBaseUrl(): string {
  const configured = typeof window !== 'undefined' ? window.__ENV__?.BACKEND_URL : undefined;
  if (configured) return configured.replace(/\/+$/, '');
  return `${location.protocol}//${location.hostname}:8080`;
}

export interface ApiErrorBody {
  error?: string;
  fields?: { path: string; message: string }[];
  message?: string;
  dueDate?: string;
  /** What a refusal names: a limit, the rows an import found, a time budget in seconds. */
  limit?: number;
  rows?: number;
  limitSeconds?: number;
}

export class ApiError extends Error {
  /** True when this answer ended the session (the app is already going to /login). */
  sessionEnded = false;

  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | null,
    /** Seconds the server asks to wait before trying again (its Retry-After), when it said. */
    readonly retryAfter?: number,
  ) {
    super(body?.error ?? body?.message ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }

  get code(): string | undefined {
    return this.body?.error;
  }
}

type Listener = () => void;
const loggedOutListeners = new Set<Listener>();

/** Called when the server says the session is over (401, or a refresh that failed). */
export function onLoggedOut(listener: Listener): () => void {
  loggedOutListeners.add(listener);
  return () => loggedOutListeners.delete(listener);
}

function endSession(): void {
  clearSession();
  for (const listener of [...loggedOutListeners]) listener();
}

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue | QueryValue[]>;
  body?: unknown;
  signal?: AbortSignal;
  /** Public calls (login, sign-up, plans): no bearer refresh and no logout on 401. */
  anonymous?: boolean;
  /**
   * A bearer token of another kind than the session's (a connection's external-API token): sent
   * instead of the session's, and the call is anonymous (its 401 does not end the session).
   */
  bearer?: string;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const url = new URL(`${apiBaseUrl()}${path.startsWith('/') ? path : `/${path}`}`);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    url.searchParams.set(key, Array.isArray(value) ? JSON.stringify(value) : String(value));
  }
  return url.toString();
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** Retry-After in seconds: the header is a number of seconds or an HTTP date. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

function toErrorBody(data: unknown): ApiErrorBody | null {
  if (data && typeof data === 'object') return data as ApiErrorBody;
  if (typeof data === 'string' && data.trim()) return { message: data.trim() };
  return null;
}

function send(method: string, path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = options.bearer ?? readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  return fetch(buildUrl(path, options.query), {
    method,
    headers,
    body,
    credentials: 'include',
    signal: options.signal,
  });
}

let refreshing: Promise<string | null> | null = null;

/**
 * Trades the refresh cookie for a new access token. Calls made at the same time share one
 * refresh, since the server rotates the cookie on each use. Resolves null when refused.
 */
export function refreshAccessToken(): Promise<string | null> {
  refreshing ??= (async () => {
    try {
      const response = await send(authContract.refresh.method, authContract.refresh.path, {});
      if (!response.ok) return null;
      const data = (await readBody(response)) as { token?: string } | undefined;
      if (!data?.token) return null;
      storeToken(data.token);
      return data.token;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/** The transport under `api.call`: the bearer token, one refresh on 403, errors as ApiError. */
export async function request<T>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  if (options.bearer !== undefined) options = { ...options, anonymous: true };
  let response = await send(method, path, options);

  // The spec's rule: a 403 gets one token refresh and one retry.
  if (response.status === 403 && !options.anonymous) {
    const token = await refreshAccessToken();
    if (!token) {
      const error = new ApiError(403, toErrorBody(await readBody(response)));
      error.sessionEnded = true;
      endSession();
      throw error;
    }
    response = await send(method, path, options);
  }

  const data = await readBody(response);
  if (response.ok) return data as T;

  const error = new ApiError(
    response.status,
    toErrorBody(data),
    retryAfterSeconds(response.headers.get('retry-after')),
  );
  if (response.status === 401 && !options.anonymous) {
    error.sessionEnded = true;
    endSession();
  }
  throw error;
}

type ParamsInput<C extends RouteContract> = keyof PathParamsOf<C> extends never
  ? { params?: undefined }
  : { params: PathParamsOf<C> };

type BodyInput<C extends RouteContract> = C['multipart'] extends true
  ? { body?: BodyOf<C> | FormData }
  : C['body'] extends object
    ? undefined extends BodyOf<C>
      ? { body?: BodyOf<C> }
      : { body: BodyOf<C> }
    : { body?: undefined };

type QueryInput<C extends RouteContract> = C['query'] extends object
  ? object extends QueryOf<C>
    ? { query?: QueryOf<C> }
    : { query: QueryOf<C> }
  : { query?: undefined };

/** What a call through a contract takes: its path parameters, query and body, typed by it. */
export type CallInput<C extends RouteContract> = ParamsInput<C> &
  BodyInput<C> &
  QueryInput<C> &
  Pick<RequestOptions, 'signal' | 'anonymous' | 'bearer'>;

type CallArgs<C extends RouteContract> =
  object extends CallInput<C> ? [input?: CallInput<C>] : [input: CallInput<C>];

/** An answer that does not match its route's contract: the web and the server disagree. */
export class ContractMismatchError extends Error {
  constructor(route: RouteContract, detail: string) {
    super(`${route.method} ${route.path} answered outside its contract: ${detail}`);
    this.name = 'ContractMismatchError';
  }
}

/**
 * Calls a route through its contract. In development the answer is checked against the
 * contract's schema, so a drift between web and server shows at once; production trusts it.
 */
async function call<C extends RouteContract>(
  route: C,
  ...[input]: CallArgs<C>
): Promise<ResponseOf<C>> {
  const { params, query, body, signal, anonymous, bearer } = (input ?? {}) as {
    params?: object;
    query?: RequestOptions['query'];
    body?: unknown;
    signal?: AbortSignal;
    anonymous?: boolean;
    bearer?: string;
  };
  const data = await request<unknown>(route.method, pathOf(route, params), {
    query,
    body,
    signal,
    anonymous,
    ...(bearer === undefined ? {} : { bearer }),
  });
  if (import.meta.env.DEV) {
    const schema = route.responses[successStatus(route)];
    const checked = schema ? schema.safeParse(data) : { success: true as const };
    if (!checked.success) throw new ContractMismatchError(route, checked.error.message);
  }
  return data as ResponseOf<C>;
}

/** Every call of the web goes through a route contract. */
export const api = { call };
