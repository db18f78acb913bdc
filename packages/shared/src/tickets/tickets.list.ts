import type { Ticket, TicketListQuery, TicketStatus } from './tickets.schemas';

/**
 * The rule of the ticket lists, written once for both sides: which list a query asks for
 * (`ticketListFilter`) and whether that list keeps a ticket (`ticketListKeeps`). The server
 * writes each field of the filter as SQL (modules/tickets/tickets.repository.ts, listedTickets)
 * and its tests hold the two together; the web keeps its cached lists with the same functions as
 * tickets change under it.
 */

/** What a ticket list keeps, of the tickets the caller may read; each field narrows it when given. */
export interface TicketListFilter {
  /** Only the caller's own tickets and the waiting line (the working lists). */
  workingList: boolean;
  status?: TicketStatus;
  /** Tickets of these queues, and those with no queue yet (in every queue's waiting line). */
  queueIds?: number[];
  users?: number[];
  /** Tickets that carry every one of these tags. */
  tags?: number[];
  withUnreadMessages?: boolean;
  /** Created on this São Paulo day (YYYY-MM-DD). */
  date?: string;
  /** Last active on this São Paulo day (YYYY-MM-DD). */
  updatedAt?: string;
  search?: string;
}

/** The days of `date` and `updatedAt` are São Paulo's, as the original product reads them. */
export const TICKET_LIST_ZONE = 'America/Sao_Paulo';

/**
 * The list a query asks for. The working lists show the caller's tickets and the waiting line;
 * show-all (for those who may: `mayShowAll`) and searches show everything the caller may read.
 */
export function ticketListFilter(
  query: Pick<
    TicketListQuery,
    | 'searchParam'
    | 'showAll'
    | 'status'
    | 'queueIds'
    | 'users'
    | 'tags'
    | 'withUnreadMessages'
    | 'date'
    | 'updatedAt'
  >,
  mayShowAll: boolean,
): TicketListFilter {
  const search = query.searchParam?.trim() || undefined;
  const showAll = query.showAll === true && mayShowAll;
  return {
    workingList: !(showAll || search),
    status: query.status,
    queueIds: query.queueIds,
    users: query.users,
    tags: query.tags,
    withUnreadMessages: query.withUnreadMessages,
    date: query.date,
    updatedAt: query.updatedAt,
    search,
  };
}

const dayIn = (instant: string, zone: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(instant));

/**
 * Whether the list of `filter` keeps `ticket` (one the caller, `meId`, may read). A search
 * cannot be judged from the ticket alone (its words are in the server's documents): null.
 */
export function ticketListKeeps(
  filter: TicketListFilter,
  ticket: Pick<
    Ticket,
    'status' | 'userId' | 'queueId' | 'tags' | 'unreadMessages' | 'createdAt' | 'updatedAt'
  >,
  meId: number,
): boolean | null {
  if (filter.search) return null;
  if (filter.workingList && ticket.userId !== meId && ticket.status !== 'pending') return false;
  if (filter.status && ticket.status !== filter.status) return false;
  if (
    filter.queueIds?.length &&
    ticket.queueId !== null &&
    !filter.queueIds.includes(ticket.queueId)
  ) {
    return false;
  }
  if (filter.users?.length && (ticket.userId === null || !filter.users.includes(ticket.userId))) {
    return false;
  }
  if (filter.tags?.length && !filter.tags.every((id) => ticket.tags.some((tag) => tag.id === id))) {
    return false;
  }
  if (filter.withUnreadMessages && ticket.unreadMessages <= 0) return false;
  if (filter.date && dayIn(ticket.createdAt, TICKET_LIST_ZONE) !== filter.date) return false;
  if (filter.updatedAt && dayIn(ticket.updatedAt, TICKET_LIST_ZONE) !== filter.updatedAt) {
    return false;
  }
  return true;
}
