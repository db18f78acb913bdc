import { z } from 'zod';
import { optionalRef } from '../tolerant';
import { boundedString, emailField, passwordField, positiveId } from '../validation';

export const PROFILES = ['admin', 'user'] as const;
export const profileSchema = z.enum(PROFILES);
export type Profile = z.infer<typeof profileSchema>;

/** The original product spells the disabled value 'desabled'; clients send and expect it. */
export const allTicketSchema = z.enum(['enabled', 'desabled']);

export const userQueueSchema = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  /** The link as the original product's client reads it (its kanban: `queue.UserQueue.queueId`). */
  UserQueue: z.object({ queueId: z.number(), userId: z.number() }).optional(),
});

export const userSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  profile: profileSchema,
  super: z.boolean(),
  allTicket: allTicketSchema,
  online: z.boolean(),
  companyId: z.number(),
  whatsappId: z.number().nullable(),
  queues: z.array(userQueueSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

const userFields = {
  name: boundedString(2, 50),
  email: emailField,
  profile: profileSchema.optional(),
  allTicket: allTicketSchema.optional(),
  /** The user's default connection; the original client sends `false` or `""` for none. */
  whatsappId: optionalRef,
  queueIds: z.array(positiveId).max(500).optional(),
  /** Old clients send it; a user's company never changes through this form. */
  companyId: z.coerce.number().int().optional(),
};

export const userCreateSchema = z.object({ ...userFields, password: passwordField });
export type UserCreate = z.infer<typeof userCreateSchema>;

/** Password is optional on edit: an empty string keeps the current one. */
export const userUpdateSchema = z.object({
  ...userFields,
  name: userFields.name.optional(),
  email: userFields.email.optional(),
  password: z.union([z.literal(''), passwordField]).optional(),
});
export type UserUpdate = z.infer<typeof userUpdateSchema>;

/** What GET /users/list answers of a user to anyone signed in (admins read the whole record). */
export const userListItemSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  profile: profileSchema,
  online: z.boolean(),
  queues: z.array(userQueueSchema),
});
export type UserListItem = z.infer<typeof userListItemSchema>;

/**
 * A page of GET /users: whole records to admins; to the other profiles, the fields of
 * GET /users/list (the family's transfer dialog searches the users through this route).
 */
export const usersPageSchema = z.object({
  users: z.array(z.union([userSchema, userListItemSchema])),
  count: z.number(),
  hasMore: z.boolean(),
});

/** Whether a user of a page is the whole record (it is on every page an admin reads). */
export const isWholeUser = (user: User | UserListItem): user is User => 'allTicket' in user;
