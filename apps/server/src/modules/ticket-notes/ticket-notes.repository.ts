import type { TicketNote } from '@atendi/shared';
import { and, desc, eq, type SQL } from 'drizzle-orm';
import { ticketNotes, tickets, users } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { isoRequired } from '../../platform/routes';
import { ticketVisibility } from '../tickets/tickets.sql';

const noteFields = {
  note: ticketNotes,
  user: { id: users.id, name: users.name },
};

/** Notes joined to their ticket, so only notes of tickets the caller may read are seen. */
function selectNotes(db: TenantDb, ctx: RequestContext, where: SQL | undefined) {
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

/** The notes the caller may read, newest first, of a ticket and of a contact when asked. */
export async function notesVisibleTo(
  db: TenantDb,
  ctx: RequestContext,
  filter: { ticketId?: number; contactId?: number },
): Promise<TicketNote[]> {
  const rows = await selectNotes(
    db,
    ctx,
    and(
      filter.ticketId ? eq(ticketNotes.ticketId, filter.ticketId) : undefined,
      filter.contactId ? eq(ticketNotes.contactId, filter.contactId) : undefined,
    ),
  );
  return rows.map(present);
}

/** Adds a note and answers it as the lists show it. */
export async function insertNote(
  db: TenantDb,
  ctx: RequestContext,
  data: Pick<typeof ticketNotes.$inferInsert, 'note' | 'ticketId' | 'contactId' | 'userId'>,
): Promise<TicketNote> {
  const [row] = await db.insert(ticketNotes, data).returning({ id: ticketNotes.id });
  const [created] = await selectNotes(db, ctx, eq(ticketNotes.id, row!.id));
  return present(created!);
}

/** Who wrote a note and on which ticket. */
export async function noteAuthor(db: TenantDb, id: number) {
  const [note] = await db
    .select({ userId: ticketNotes.userId, ticketId: ticketNotes.ticketId })
    .from(ticketNotes, eq(ticketNotes.id, id));
  return note;
}

export async function deleteNote(db: TenantDb, id: number) {
  await db.delete(ticketNotes, eq(ticketNotes.id, id));
}
