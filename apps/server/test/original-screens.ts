/**
 * Requests as the original product's client shapes them, where more than one place replays them
 * (the tests and the benchmark).
 */

/**
 * The reports screen's GET /ticket/reports (its "Filtrar"): every filter sent, the lists as JSON
 * text, the contact and the ticket's id '' when none, the days from `dateFrom` to `dateTo`.
 */
export function reportsScreenQuery(
  dateFrom: string,
  dateTo: string,
  filters: Record<string, string> = {},
): Record<string, string> {
  return {
    searchParam: '',
    ticketId: '',
    contactId: '',
    whatsappId: '[]',
    users: '[]',
    queueIds: '[]',
    status: '[]',
    dateFrom,
    dateTo,
    page: '1',
    pageSize: '10',
    ...filters,
  };
}
