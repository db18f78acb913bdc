import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Route modules are plugins built from the services they call. */
export const routes = (register: FastifyPluginAsyncZod): FastifyPluginAsyncZod => register;

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
