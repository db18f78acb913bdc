import { z } from 'zod';
import { booleanQuery, dayQuery, idListQuery } from '../query';
import { optionalRef } from '../tolerant';
import { positiveId } from '../validation';

export const TICKET_STATUSES = ['pending', 'open', 'closed'] as const;
export const ticketStatusSchema = z.enum(TICKET_STATUSES);
export type TicketStatus = z.infer<typeof ticketStatusSchema>;

/** Tickets per page of GET /tickets. */
export const TICKETS_PAGE_SIZE = 40;

/** The spec's form message when a queue is required. */
export const SELECT_QUEUE_MESSAGE = 'Selecione uma fila';

export const ticketSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  status: ticketStatusSchema,
  lastMessage: z.string(),
  unreadMessages: z.number(),
  isGroup: z.boolean(),
  chatbot: z.boolean(),
  useIntegration: z.boolean(),
  integrationId: z.number().nullable(),
  promptId: z.number().nullable(),
  contactId: z.number(),
  contact: z.object({
    id: z.number(),
    name: z.string(),
    number: z.string(),
    profilePicUrl: z.string(),
    isGroup: z.boolean(),
  }),
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  queueId: z.number().nullable(),
  queue: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
  whatsappId: z.number().nullable(),
  whatsapp: z.object({ id: z.number(), name: z.string() }).nullable(),
  tags: z.array(z.object({ id: z.number(), name: z.string(), color: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Ticket = z.infer<typeof ticketSchema>;

/**
 * GET /tickets. Lists of ids come as JSON or comma lists; `showAll` counts only for admins;
 * `date` and `updatedAt` are days in São Paulo time.
 */
export const ticketListQuerySchema = z.object({
  searchParam: z.string().max(200).optional(),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  status: ticketStatusSchema.optional(),
  tags: idListQuery.optional(),
  users: idListQuery.optional(),
  queueIds: idListQuery.optional(),
  showAll: booleanQuery.optional(),
  withUnreadMessages: booleanQuery.optional(),
  date: dayQuery.optional(),
  updatedAt: dayQuery.optional(),
  /** Tolerated hint of old clients; the session's company is always used. */
  companyId: z.coerce.number().int().optional(),
});
export type TicketListQuery = z.infer<typeof ticketListQuerySchema>;

export const ticketsPageSchema = z.object({
  tickets: z.array(ticketSchema),
  /** Matching rows; a search counts no further than SEARCH_COUNT_LIMIT (see countExact). */
  count: z.number(),
  /** False when a search found more than SEARCH_COUNT_LIMIT: `count` is then a lower bound. */
  countExact: z.boolean(),
  hasMore: z.boolean(),
});

export const ticketUuidParamsSchema = z.strictObject({ uuid: z.uuid() });

export const ticketCreateSchema = z.object({
  contactId: positiveId,
  queueId: positiveId.nullable().optional(),
  /** Absent: the company's default connection. */
  whatsappId: positiveId.nullable().optional(),
  userId: positiveId.nullable().optional(),
  status: z.enum(['open', 'pending']).optional(),
});
export type TicketCreate = z.infer<typeof ticketCreateSchema>;

/**
 * PUT /tickets/:id. The transition follows from the fields: status 'closed' resolves; a new
 * queue, connection or another agent (or `transfer: true`) transfers; otherwise pending -> open
 * accepts, open -> pending returns and closed -> open reopens.
 */
export const ticketUpdateSchema = z.object({
  status: ticketStatusSchema.optional(),
  userId: positiveId.nullable().optional(),
  queueId: positiveId.nullable().optional(),
  whatsappId: positiveId.nullable().optional(),
  transfer: z.boolean().optional(),
  // Sent by the spec's client with every resolve; closing always clears them, other
  // transitions carry them over.
  useIntegration: z.boolean().optional(),
  // The original client resolves with `promptId: false, integrationId: false`: none.
  promptId: optionalRef,
  integrationId: optionalRef,
});
export type TicketUpdate = z.infer<typeof ticketUpdateSchema>;

/** Body of ERR_OTHER_OPEN_TICKET: the live ticket that already exists, with its user and queue. */
export const otherOpenTicketSchema = z.object({
  error: z.literal('ERR_OTHER_OPEN_TICKET'),
  ticket: ticketSchema.optional(),
});
