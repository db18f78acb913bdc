import { type Ticket, type TicketStatus, ticketListFilter, ticketListKeeps } from '@atendi/shared';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { setLiveQueryData } from '../../app/liveCache';

export interface TicketFilters {
  status?: TicketStatus;
  searchParam?: string;
  showAll?: boolean;
  queueIds?: number[];
  tags?: number[];
  users?: number[];
  withUnreadMessages?: boolean;
}

export interface TicketsPage {
  tickets: Ticket[];
  count: number;
  hasMore: boolean;
}

export type TicketsData = InfiniteData<TicketsPage>;

export const ticketsKeys = {
  all: ['tickets'] as const,
  list: (filters: TicketFilters) => ['tickets', filters] as const,
  detail: (uuid: string) => ['ticket', uuid] as const,
};

export const flattenTickets = (data: TicketsData | undefined): Ticket[] => {
  if (!data) return [];
  const seen = new Set<number>();
  const result: Ticket[] = [];
  for (const page of data.pages) {
    for (const ticket of page.tickets) {
      // pages read while tickets moved can hold one twice
      if (seen.has(ticket.id)) continue;
      seen.add(ticket.id);
      result.push(ticket);
    }
  }
  return result;
};

/**
 * Whether a list with these filters would hold the ticket, by the lists' one rule
 * (`ticketListKeeps` of packages/shared, which the server's lists are held to). Searches cannot
 * be judged here: they only get changes to the tickets they show. The screens ask show-all only
 * for those who may (admins), so the filters are read as they are.
 */
export function ticketMatches(
  ticket: Ticket,
  filters: TicketFilters,
  meId: number,
): boolean | null {
  return ticketListKeeps(ticketListFilter(filters, true), ticket, meId);
}

/** Puts a changed ticket in one list: replaced where it is, on top when asked, dropped when it left. */
export function patchTicketsData(
  data: TicketsData | undefined,
  ticket: Ticket,
  matches: boolean | null,
  moveToTop: boolean,
): TicketsData | undefined {
  if (!data || data.pages.length === 0) return data;
  const present = data.pages.some((page) => page.tickets.some((item) => item.id === ticket.id));
  if (matches === null && !present) return data;
  if (matches === false) {
    if (!present) return data;
    return removeFromData(data, ticket.id);
  }
  if (present && !moveToTop) {
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        tickets: page.tickets.map((item) => (item.id === ticket.id ? ticket : item)),
      })),
    };
  }
  const pages = data.pages.map((page) => ({
    ...page,
    tickets: page.tickets.filter((item) => item.id !== ticket.id),
    count: present ? page.count : page.count + 1,
  }));
  pages[0] = { ...pages[0]!, tickets: [ticket, ...pages[0]!.tickets] };
  return { ...data, pages };
}

export function removeFromData(data: TicketsData | undefined, ticketId: number) {
  if (!data) return data;
  const present = data.pages.some((page) => page.tickets.some((item) => item.id === ticketId));
  if (!present) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      tickets: page.tickets.filter((item) => item.id !== ticketId),
      count: Math.max(0, page.count - 1),
    })),
  };
}

const isListKey = (key: readonly unknown[]) =>
  key[0] === 'tickets' && typeof key[1] === 'object' && key[1] !== null;

/** A ticket changed (HTTP answer or realtime event): every cached list and its detail follow. */
export function applyTicketChange(
  queryClient: QueryClient,
  ticket: Ticket,
  meId: number,
  { moveToTop = false }: { moveToTop?: boolean } = {},
): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ticketsKeys.all })) {
    const key = query.queryKey;
    if (!isListKey(key)) continue;
    const filters = key[1] as TicketFilters;
    setLiveQueryData<TicketsData>(queryClient, key, (data) =>
      patchTicketsData(data, ticket, ticketMatches(ticket, filters, meId), moveToTop),
    );
  }
  queryClient.setQueryData<Ticket>(ticketsKeys.detail(ticket.uuid), (current) =>
    current ? { ...current, ...ticket } : current,
  );
}

export function removeTicket(queryClient: QueryClient, ticketId: number): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ticketsKeys.all })) {
    if (!isListKey(query.queryKey)) continue;
    setLiveQueryData<TicketsData>(queryClient, query.queryKey, (data) =>
      removeFromData(data, ticketId),
    );
  }
}

/** A contact changed (its name or picture): the tickets that show it follow. */
export function patchTicketContact(
  queryClient: QueryClient,
  contact: Partial<Ticket['contact']> & { id: number },
): void {
  const merge = (ticket: Ticket): Ticket =>
    ticket.contactId === contact.id
      ? { ...ticket, contact: { ...ticket.contact, ...contact } }
      : ticket;
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ticketsKeys.all })) {
    if (!isListKey(query.queryKey)) continue;
    setLiveQueryData<TicketsData>(queryClient, query.queryKey, (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page) => ({ ...page, tickets: page.tickets.map(merge) })),
          }
        : data,
    );
  }
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ['ticket'] })) {
    queryClient.setQueryData<Ticket>(query.queryKey, (ticket) => (ticket ? merge(ticket) : ticket));
  }
}
