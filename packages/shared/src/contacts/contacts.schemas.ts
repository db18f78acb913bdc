import { z } from 'zod';
import { dayQuery } from '../query';
import { boundedString, MSG, positiveId } from '../validation';

export const contactExtraInfoSchema = z.object({
  name: z.string(),
  value: z.string(),
});

export const contactSchema = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  profilePicUrl: z.string(),
  isGroup: z.boolean(),
  extraInfo: z.array(contactExtraInfoSchema),
  whatsappId: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Contact = z.infer<typeof contactSchema>;

export const INVALID_NUMBER_MESSAGE = 'Invalid number';

/** A phone number as people type it; stored as its digits (8 to 50). */
export const contactNumberField = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(80, MSG.tooLong)
  .regex(/^[\d\s()+.-]+$/, INVALID_NUMBER_MESSAGE)
  .transform((value) => value.replace(/\D/g, ''))
  .pipe(z.string().min(8, MSG.tooShort).max(50, MSG.tooLong));

/** Empty, or a valid email. */
export const optionalEmailField = z
  .string()
  .trim()
  .max(254, MSG.tooLong)
  .refine((value) => value === '' || z.email().safeParse(value).success, MSG.invalidEmail)
  .transform((value) => value.toLowerCase());

const extraInfoItem = z.object({
  /** Old clients send the stored item's id back; items are replaced as a whole. */
  id: z.number().optional(),
  name: z.string().trim().min(1, MSG.required).max(100, MSG.tooLong),
  value: z.string().max(1000, MSG.tooLong),
});

const contactFields = {
  name: boundedString(2, 50),
  number: contactNumberField,
  email: optionalEmailField.optional(),
  extraInfo: z.array(extraInfoItem).max(50).optional(),
};

export const contactCreateSchema = z.object(contactFields);
export type ContactCreate = z.infer<typeof contactCreateSchema>;

export const contactUpdateSchema = z.object({
  ...contactFields,
  name: contactFields.name.optional(),
  number: contactFields.number.optional(),
});
export type ContactUpdate = z.infer<typeof contactUpdateSchema>;

/** GET /contacts: search over name, number and email; `date` or `dateStart`..`dateEnd` by creation. */
export const contactListQuerySchema = z.object({
  searchParam: z.string().max(200).optional(),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  date: dayQuery.optional(),
  dateStart: dayQuery.optional(),
  dateEnd: dayQuery.optional(),
  companyId: z.coerce.number().int().optional(),
});
export type ContactListQuery = z.infer<typeof contactListQuerySchema>;

export const contactsPageSchema = z.object({
  contacts: z.array(contactSchema),
  /** Matching rows; a search counts no further than SEARCH_COUNT_LIMIT (see countExact). */
  count: z.number(),
  /** False when a search found more than SEARCH_COUNT_LIMIT: `count` is then a lower bound. */
  countExact: z.boolean(),
  hasMore: z.boolean(),
});

/** GET /contacts/list: every contact (optionally by name), capped. */
export const contactSimpleListQuerySchema = z.object({
  name: z.string().max(200).optional(),
  searchParam: z.string().max(200).optional(),
  companyId: z.coerce.number().int().optional(),
});
export const CONTACTS_LIST_LIMIT = 1000;

/**
 * POST /contacts/import: a multipart CSV as `file`, or no file to import the connection's
 * address book (the given connection, else the default one), as the original product did.
 */
export const contactImportQuerySchema = z.object({
  whatsappId: positiveId.optional(),
});
export type ContactImportQuery = z.infer<typeof contactImportQuerySchema>;

export const contactImportResultSchema = z.object({
  imported: z.number(),
  skipped: z.number(),
});
