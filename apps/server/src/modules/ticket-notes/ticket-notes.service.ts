import {
  hasRole,
  type TicketNote,
  type TicketNoteCreate,
  type TicketNoteListQuery,
} from '@atendi/shared';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError, forbidden } from '../../platform/errors';
import { readableTicket } from '../tickets/tickets.access';
import { deleteNote, insertNote, noteAuthor, notesVisibleTo } from './ticket-notes.repository';

/** Internal notes on a ticket: seen by whoever may read the ticket, never sent to the contact. */
export class TicketNotesService {
  async list(ctx: RequestContext, query: TicketNoteListQuery): Promise<TicketNote[]> {
    if (query.ticketId) await readableTicket(ctx, { id: query.ticketId });
    return notesVisibleTo(tenantDb(ctx), ctx, {
      ticketId: query.ticketId,
      contactId: query.contactId,
    });
  }

  async create(ctx: RequestContext, data: TicketNoteCreate): Promise<TicketNote> {
    const ticket = await readableTicket(ctx, { id: data.ticketId });
    if (ticket.contactId !== data.contactId) {
      throw new AppError('ERR_VALIDATION', 400, {
        fields: [{ path: 'body.contactId', message: "Not the ticket's contact" }],
      });
    }
    return insertNote(tenantDb(ctx), ctx, {
      note: data.note,
      ticketId: ticket.id,
      contactId: ticket.contactId,
      userId: ctx.userId,
    });
  }

  /** The author deletes a note; admins any note. */
  async remove(ctx: RequestContext, id: number): Promise<void> {
    const db = tenantDb(ctx);
    const note = await noteAuthor(db, id);
    if (!note) throw new AppError('ERR_NOT_FOUND', 404);
    if (note.userId !== ctx.userId && !hasRole(ctx, 'admin')) throw forbidden();
    await deleteNote(db, id);
  }
}
