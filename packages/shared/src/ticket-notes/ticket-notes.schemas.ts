import { z } from 'zod';
import { MSG, positiveId } from '../validation';

export const ticketNoteSchema = z.object({
  id: z.number(),
  note: z.string(),
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  ticketId: z.number(),
  contactId: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TicketNote = z.infer<typeof ticketNoteSchema>;

export const ticketNoteCreateSchema = z.object({
  note: z
    .string({ error: MSG.required })
    .trim()
    .min(1, MSG.required)
    .min(2, MSG.tooShort)
    .max(5000, MSG.tooLong),
  ticketId: positiveId,
  contactId: positiveId,
});
export type TicketNoteCreate = z.infer<typeof ticketNoteCreateSchema>;

export const ticketNoteListQuerySchema = z
  .object({
    ticketId: positiveId.optional(),
    contactId: positiveId.optional(),
  })
  .refine((query) => query.ticketId !== undefined || query.contactId !== undefined, {
    message: MSG.required,
    path: ['ticketId'],
  });
export type TicketNoteListQuery = z.infer<typeof ticketNoteListQuerySchema>;
