/**
 * Route contracts: the method, path, access and zod schemas of each HTTP route, which the server
 * registers its routes from and the web calls them through, so neither can drift from the other.
 * A small helper of our own rather than ts-rest: its latest release (3.52) needs zod 3 and
 * fastify 4, and we run zod 4 and fastify 5.
 */
import type { z } from 'zod';
import type { PermissionName } from './permissions';

/** Who may call a route: anyone (public), or holders of a permission of the shared table. */
export type Access = 'public' | PermissionName;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Answers by status: one success (200, 201 or 204 with null for no body), and documented errors. */
export type RouteResponses = { [status: number]: z.ZodType | null };

export interface RouteDefinition {
  method: HttpMethod;
  /** fastify's form: `/tags/:id`. */
  path: string;
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  responses: RouteResponses;
  /** The body may also come as a multipart form (files); `body` describes the JSON form. */
  multipart?: boolean;
  /** Left out of the OpenAPI document. */
  hidden?: boolean;
}

export interface RouteContract extends RouteDefinition {
  /** The area, which is the OpenAPI tag. */
  area: string;
}

/** One area's routes: each definition gets the area, literal types kept for the callers. */
export function defineContract<const R extends Record<string, RouteDefinition>>(
  area: string,
  routes: R,
): { [K in keyof R]: R[K] & { area: string } } {
  const entries = Object.entries(routes).map(([name, route]) => [name, { ...route, area }]);
  return Object.fromEntries(entries) as { [K in keyof R]: R[K] & { area: string } };
}

const SUCCESS = [200, 201, 202, 204] as const;
type SuccessStatus = (typeof SUCCESS)[number];

/** The status a route answers when it succeeds. */
export function successStatus(route: RouteDefinition): SuccessStatus {
  const status = SUCCESS.find((code) => code in route.responses);
  if (status === undefined) throw new Error(`${route.method} ${route.path} has no success answer`);
  return status;
}

type Success<C extends RouteDefinition> = C['responses'][Extract<
  keyof C['responses'],
  SuccessStatus
>];

/** What a successful call answers, as the web reads it. */
export type ResponseOf<C extends RouteDefinition> =
  Success<C> extends z.ZodType ? z.output<Success<C>> : undefined;

/** What the server's handler returns for a successful call (before the answer's schema). */
export type ReplyOf<C extends RouteDefinition> =
  Success<C> extends z.ZodType
    ? z.input<Success<C>>
    : // biome-ignore lint/suspicious/noConfusingVoidType: a route without a body answers what its service returns, nothing
      void;

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The path's parameters by name, as a caller fills them. */
export type PathParamsOf<C extends RouteDefinition> = {
  [K in ParamNames<C['path']>]: string | number;
};

/** The body a caller sends (the schema's input). */
export type BodyOf<C extends RouteDefinition> = C['body'] extends z.ZodType
  ? z.input<C['body']>
  : undefined;

type QueryText = string | number | boolean | null | undefined;

/** The query a caller sends: the schema's keys, each as its input or as text for the address. */
export type QueryOf<C extends RouteDefinition> = C['query'] extends z.ZodType
  ? { [K in keyof z.input<C['query']>]: z.input<C['query']>[K] | QueryText | QueryText[] }
  : undefined;

/** The address of a route with its parameters filled in (each encoded). */
export function pathOf(route: Pick<RouteDefinition, 'path'>, params: object = {}): string {
  const values = params as Record<string, string | number>;
  return route.path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${route.path} needs its ${name}`);
    return encodeURIComponent(String(value));
  });
}
