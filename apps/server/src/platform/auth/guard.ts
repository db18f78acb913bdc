import { type Access, can, type RouteContract } from '@atendi/shared';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../../db/client';
import { AppError } from '../errors';
import { loadContext, type RequestContext } from './context';
import { bearerToken, type TokenService } from './tokens';

export type { Access };

/** A registered route as the guard saw it: what the sweeps walk and the docs describe. */
export interface CatalogRoute {
  method: string;
  url: string;
  access: Access;
  schema: FastifySchema | undefined;
  /** The contract the route was registered from. */
  contract: RouteContract;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyInstance {
    /** Every route registered after the guard, HEAD twins left out. */
    routeCatalog: CatalogRoute[];
  }
  interface FastifyRequest {
    /** The caller; set on every non-public route before validation and the handler. */
    ctx: RequestContext;
  }
}

const ALWAYS_PUBLIC = [/^\/docs(\/|$)/];

export interface GuardOptions {
  db: Db;
  tokens: TokenService;
}

/**
 * Every route comes from a contract of packages/shared, which says who may call it: registration
 * fails otherwise, so a route cannot ship unguarded, or unknown to the web, by accident.
 * Authentication runs first, before the body is parsed.
 */
export const authGuard = fp<GuardOptions>(async (app: FastifyInstance, { db, tokens }) => {
  app.decorateRequest('ctx', null as unknown as RequestContext);
  const catalog: CatalogRoute[] = [];
  app.decorate('routeCatalog', catalog);

  app.addHook('onRoute', (route) => {
    if (ALWAYS_PUBLIC.some((pattern) => pattern.test(route.url))) {
      route.config = { ...(route.config as object), access: 'public' };
      return;
    }
    const contract = (route.config as { contract?: RouteContract } | undefined)?.contract;
    if (!contract) {
      throw new Error(`Route ${route.method} ${route.url} does not come from a route contract`);
    }
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      catalog.push({
        method,
        url: route.url,
        access: contract.access,
        schema: route.schema,
        contract,
      });
    }
  });

  app.addHook('onRequest', async (request: FastifyRequest) => {
    const access = request.routeOptions.config.access;
    if (!access || access === 'public') return;
    request.ctx = await authenticate(db, tokens, bearerToken(request.headers.authorization));
    if (!can(request.ctx, access, request.ctx.planFlags)) {
      throw new AppError('ERR_NO_PERMISSION', 403);
    }
  });
});

/**
 * Missing, forged or revoked tokens are 401 (the client signs out). An expired but genuine
 * token is 403 ERR_SESSION_EXPIRED, which the spec's clients answer with one refresh and a retry.
 */
export async function authenticate(
  db: Db,
  tokens: TokenService,
  token: string | undefined,
): Promise<RequestContext> {
  if (!token) throw new AppError('ERR_SESSION_EXPIRED', 401);
  const verified = await tokens.verify(token);
  if (!verified.ok) {
    throw new AppError('ERR_SESSION_EXPIRED', verified.reason === 'expired' ? 403 : 401);
  }
  const ctx = await loadContext(db, verified.claims);
  if (!ctx) throw new AppError('ERR_SESSION_EXPIRED', 401);
  return ctx;
}
