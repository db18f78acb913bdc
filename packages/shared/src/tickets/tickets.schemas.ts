import { z } from 'zod';

export const TICKET_STATUSES = ['pending', 'open', 'closed'] as const;
export const ticketStatusSchema = z.enum(TICKET_STATUSES);
export type TicketStatus = z.infer<typeof ticketStatusSchema>;

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
