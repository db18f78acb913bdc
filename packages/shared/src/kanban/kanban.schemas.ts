import { z } from 'zod';
import { idListQuery } from '../query';
import { tagSchema } from '../tags/tags.schemas';
import { ticketSchema } from '../tickets/tickets.schemas';

/** Cards per page of one lane. */
export const KANBAN_PAGE_SIZE = 40;

/** The lane of tickets with no kanban tag ('Em aberto'), as `tagId` names it. */
export const OPEN_LANE = 0;

/** GET /tags/kanban: the company's kanban tags, one lane each, by name. */
export const kanbanTagsSchema = z.object({ lista: z.array(tagSchema) });

/**
 * GET /ticket/kanban. `queueIds` (JSON list) narrows the board to those queues and the tickets
 * with no queue; `teste` is sent by the spec's client and means nothing. Without `tagId` the
 * answer holds the first page of every lane; with it (0 for 'Em aberto'), one page of that lane.
 */
export const kanbanQuerySchema = z.object({
  queueIds: idListQuery.optional(),
  teste: z.string().max(20).optional(),
  tagId: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  companyId: z.coerce.number().int().optional(),
});
export type KanbanQuery = z.infer<typeof kanbanQuerySchema>;

/**
 * A card of the board: the spec's kanban ticket (id, uuid, contact, lastMessage, tags) and what
 * places it on a lane (status, queue, last activity). A full ticket, as the realtime events
 * carry, is a card too.
 */
export const kanbanCardSchema = ticketSchema.pick({
  id: true,
  uuid: true,
  status: true,
  lastMessage: true,
  unreadMessages: true,
  contactId: true,
  contact: true,
  userId: true,
  queueId: true,
  tags: true,
  updatedAt: true,
});
export type KanbanCard = z.infer<typeof kanbanCardSchema>;

export const kanbanTicketsSchema = z.object({
  tickets: z.array(kanbanCardSchema),
  hasMore: z.boolean(),
});
export type KanbanTickets = z.infer<typeof kanbanTicketsSchema>;

export const ticketTagParamsSchema = z.strictObject({
  ticketId: z.coerce.number().int().positive().max(2_147_483_647),
});
export const ticketTagPairParamsSchema = z.strictObject({
  ticketId: z.coerce.number().int().positive().max(2_147_483_647),
  tagId: z.coerce.number().int().positive().max(2_147_483_647),
});

export const ticketTagRemovedSchema = z.object({ message: z.string() });
export const ticketTagSchema = z.object({ ticketId: z.number(), tagId: z.number() });
