import {
  hasRole,
  type TicketNote,
  type TicketNoteCreate,
  type TicketNoteListQuery,
} from '@atendi/shared';
import { and, desc, eq } from 'drizzle-orm';
import { ticketNotes, tickets, users } from '../../db/schema';
import { type TenantDb, tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError, forbidden } from '../../platform/errors';
import { isoRequired } from '../../platform/routes';
import { readableTicket } from '../tickets/tickets.access';
import { ticketVisibility } from '../tickets/tickets.repository';

const noteFields = {
  note: ticketNotes,
  user: { id: users.id, name: users.name },
};

/** Notes joined to their ticket, so only notes of tickets the caller may read are seen. */
function selectNotes(db: TenantDb, ctx: RequestContext, where: ReturnType<typeof and>) {
  return db
    .select(noteFields)
    .from(ticketNotes, and(where, ticketVisibility(ctx)))
    .innerJoin(tickets, eq(tickets.id, ticketNotes.ticketId))
    .leftJoin(users, eq(users.id, ticketNotes.userId))
    .orderBy(desc(ticketNotes.createdAt), desc(ticketNotes.id));
}

type NoteRow = Awaited<ReturnType<typeof selectNotes>>[number];

const present = ({ note, user }: NoteRow): TicketNote => ({
  id: note.id,
  note: note.note,
  userId: note.userId,
  user: user?.id ? user : null,
  ticketId: note.ticketId,
  contactId: note.contactId,
  createdAt: isoRequired(note.createdAt),
  updatedAt: isoRequired(note.updatedAt),
});

/** Internal notes on a ticket: seen by whoever may read the ticket, never sent to the contact. */
export class TicketNotesService {
  async list(ctx: RequestContext, query: TicketNoteListQuery): Promise<TicketNote[]> {
    if (query.ticketId) await readableTicket(ctx, { id: query.ticketId });
    const rows = await selectNotes(
      tenantDb(ctx),
      ctx,
      and(
        query.ticketId ? eq(ticketNotes.ticketId, query.ticketId) : undefined,
        query.contactId ? eq(ticketNotes.contactId, query.contactId) : undefined,
      ),
    );
    return rows.map(present);
  }

  async create(ctx: RequestContext, data: TicketNoteCreate): Promise<TicketNote> {
    const ticket = await readableTicket(ctx, { id: data.ticketId });
    if (ticket.contactId !== data.contactId) {
      throw new AppError('ERR_VALIDATION', 400, {
        fields: [{ path: 'body.contactId', message: "Not the ticket's contact" }],
      });
    }
    const db = tenantDb(ctx);
    const [row] = await db
      .insert(ticketNotes, {
        note: data.note,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        userId: ctx.userId,
      })
      .returning({ id: ticketNotes.id });
    const [created] = await selectNotes(db, ctx, eq(ticketNotes.id, row!.id));
    return present(created!);
  }

  /** The author deletes a note; admins any note. */
  async remove(ctx: RequestContext, id: number): Promise<void> {
    const db = tenantDb(ctx);
    const [note] = await db
      .select({ userId: ticketNotes.userId, ticketId: ticketNotes.ticketId })
      .from(ticketNotes, eq(ticketNotes.id, id));
    if (!note) throw new AppError('ERR_NOT_FOUND', 404);
    if (note.userId !== ctx.userId && !hasRole(ctx, 'admin')) throw forbidden();
    await db.delete(ticketNotes, eq(ticketNotes.id, id));
  }
}
