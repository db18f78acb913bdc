import {
  type ReplyOf,
  type RouteContract,
  type RouteDefinition,
  successStatus,
} from '@atendi/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { z } from 'zod';
import { withUploads } from './uploads';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract the route was registered from. */
    contract?: RouteContract;
  }
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A request as the contract's schemas leave it. */
export type ContractRequest<C extends RouteDefinition> = FastifyRequest<{
  Params: Parsed<C['params']>;
  Querystring: Parsed<C['query']>;
  Body: Parsed<C['body']>;
}>;

/**
 * A route's handler: the answer for the contract's success status (set for it), or the reply
 * when the handler sends something else itself (a file, plain text).
 */
export type ContractHandler<C extends RouteDefinition> = (
  request: ContractRequest<C>,
  reply: FastifyReply,
) => ReplyOf<C> | FastifyReply | Promise<ReplyOf<C> | FastifyReply>;

/** What only the server decides: logging and the size of a body. */
export interface ServeOptions {
  /**
   * Not logged unless it fails: 'always' (health checks, metrics, polling), `true` in the
   * pretty format only (files).
   */
  quiet?: boolean | 'always';
  bodyLimit?: number;
}

export type Serve = <C extends RouteContract>(
  contract: C,
  handler: ContractHandler<C>,
  options?: ServeOptions,
) => void;

/** The fastify schema of a contract: validation, the answer's shape and the OpenAPI entry. */
export function schemaOf(contract: RouteContract): FastifySchema & { tags: string[] } {
  const response = Object.fromEntries(
    Object.entries(contract.responses).filter(([, schema]) => schema !== null),
  );
  return {
    tags: [contract.area],
    ...(contract.hidden ? { hide: true } : {}),
    ...(contract.params ? { params: contract.params } : {}),
    ...(contract.query ? { querystring: contract.query } : {}),
    ...(contract.body ? { body: contract.body } : {}),
    ...(Object.keys(response).length ? { response } : {}),
  };
}

/** Registers routes on `app` from their contracts; multipart ones get the form parser. */
export function serveOn(app: FastifyInstance): Serve {
  return (contract, handler, options = {}) => {
    if (contract.multipart) {
      // in a scope of its own, so every other route keeps answering a form with 415
      void app.register(withUploads(async (forms) => register(forms, contract, handler, options)));
    } else {
      register(app, contract, handler, options);
    }
  };
}

function register<C extends RouteContract>(
  app: FastifyInstance,
  contract: C,
  handler: ContractHandler<C>,
  options: ServeOptions,
): void {
  const status = successStatus(contract);
  app.route({
    method: contract.method,
    url: contract.path,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    config: {
      contract,
      access: contract.access,
      ...(options.quiet ? { quiet: options.quiet } : {}),
    },
    schema: schemaOf(contract),
    handler: async (request, reply) => {
      const answer = await handler(request as ContractRequest<C>, reply);
      if (answer === reply) return reply;
      if (reply.statusCode === 200) reply.code(status);
      return status === 204 ? reply.send() : answer;
    },
  });
}

/**
 * An area's routes: a plugin built from the services it calls, each route registered from its
 * contract (the guard refuses any other).
 */
export const contractRoutes =
  (register: (serve: Serve, app: FastifyInstance) => void | Promise<void>) =>
  async (app: FastifyInstance) => {
    await register(serveOn(app), app);
  };

/** ISO text of a timestamp, as every answer carries them. */
export const iso = (date: Date | null | undefined): string | null =>
  date ? date.toISOString() : null;
export const isoRequired = (date: Date): string => date.toISOString();

/** `{ pageNumber }` to limit and offset; one extra row tells whether more exist. */
export const page = (pageNumber: number, size: number) => ({
  limit: size + 1,
  offset: (pageNumber - 1) * size,
});

export function sliceMore<T>(rows: T[], size: number): { rows: T[]; hasMore: boolean } {
  return { rows: rows.slice(0, size), hasMore: rows.length > size };
}

/** Escapes LIKE wildcards so a search for '%' finds a percent sign. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
