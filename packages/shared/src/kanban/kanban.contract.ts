import { defineContract } from '../contract';
import {
  kanbanQuerySchema,
  kanbanTagsSchema,
  kanbanTicketsSchema,
  ticketTagPairParamsSchema,
  ticketTagParamsSchema,
  ticketTagRemovedSchema,
  ticketTagSchema,
} from './kanban.schemas';

/** The kanban board (spec administration 2, 4 and 7); the plan's useKanban switches it on. */
export const kanbanContract = defineContract('kanban', {
  tags: {
    method: 'GET',
    path: '/tags/kanban',
    access: 'kanban:use',
    responses: { 200: kanbanTagsSchema },
  },
  tickets: {
    method: 'GET',
    path: '/ticket/kanban',
    access: 'kanban:use',
    query: kanbanQuerySchema,
    responses: { 200: kanbanTicketsSchema },
  },
  /** Takes the ticket off its lane: its kanban tags go, its other tags stay. */
  removeTags: {
    method: 'DELETE',
    path: '/ticket-tags/:ticketId',
    access: 'kanban:use',
    params: ticketTagParamsSchema,
    responses: { 200: ticketTagRemovedSchema },
  },
  /** Puts the ticket on the lane of a kanban tag. */
  addTag: {
    method: 'PUT',
    path: '/ticket-tags/:ticketId/:tagId',
    access: 'kanban:use',
    params: ticketTagPairParamsSchema,
    responses: { 201: ticketTagSchema },
  },
});
