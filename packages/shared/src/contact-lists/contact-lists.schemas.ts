import { z } from 'zod';
import { INVALID_NUMBER_MESSAGE, optionalEmailField } from '../contacts/contacts.schemas';
import { listQuerySchema } from '../pagination';
import { normalizePhoneNumber } from '../phone';
import { boundedString, MSG, positiveId } from '../validation';

export const contactListSchema = z.object({
  id: z.number(),
  name: z.string(),
  contactsCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactList = z.infer<typeof contactListSchema>;

export const contactListCreateSchema = z.object({
  name: boundedString(2, 50),
  // Sent by the spec's client; the session's company decides.
  companyId: z.coerce.number().int().optional(),
});
export type ContactListCreate = z.infer<typeof contactListCreateSchema>;
export const contactListUpdateSchema = contactListCreateSchema;
export type ContactListUpdate = ContactListCreate;

export const contactListsQuerySchema = listQuerySchema.extend({
  companyId: z.coerce.number().int().optional(),
});
export type ContactListsQuery = z.infer<typeof contactListsQuerySchema>;

export const contactListsPageSchema = z.object({
  records: z.array(contactListSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type ContactListsPage = z.infer<typeof contactListsPageSchema>;

/** GET /contact-lists/list: every list by name, for the campaign dialog. */
export const contactListOptionSchema = z.object({ id: z.number(), name: z.string() });
export type ContactListOption = z.infer<typeof contactListOptionSchema>;

export const contactListItemSchema = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  /** Whether the number is on WhatsApp: null until the connection could tell. */
  isWhatsappValid: z.boolean().nullable(),
  companyId: z.number(),
  contactListId: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactListItem = z.infer<typeof contactListItemSchema>;

/** A number of a list: country code, area code, number (see normalizePhoneNumber), 8 to 50. */
export const listNumberField = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .min(8, MSG.tooShort)
  .max(50, MSG.tooLong)
  .transform((value, ctx) => {
    const number = normalizePhoneNumber(value);
    if (!number) {
      ctx.addIssue({ code: 'custom', message: INVALID_NUMBER_MESSAGE });
      return z.NEVER;
    }
    return number;
  });

const itemFields = {
  name: boundedString(2, 50),
  number: listNumberField,
  email: optionalEmailField.optional(),
};

export const contactListItemCreateSchema = z.object({
  ...itemFields,
  contactListId: positiveId,
  companyId: z.coerce.number().int().optional(),
});
export type ContactListItemCreate = z.infer<typeof contactListItemCreateSchema>;

export const contactListItemUpdateSchema = z.object({
  name: itemFields.name.optional(),
  number: itemFields.number.optional(),
  email: itemFields.email,
  companyId: z.coerce.number().int().optional(),
});
export type ContactListItemUpdate = z.infer<typeof contactListItemUpdateSchema>;

export const contactListItemsQuerySchema = listQuerySchema.extend({
  contactListId: positiveId,
  companyId: z.coerce.number().int().optional(),
});
export type ContactListItemsQuery = z.infer<typeof contactListItemsQuerySchema>;

export const contactListItemsPageSchema = z.object({
  contacts: z.array(contactListItemSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type ContactListItemsPage = z.infer<typeof contactListItemsPageSchema>;

/** Rows whose number was refused are listed up to this many; the count has them all. */
export const IMPORT_INVALID_ROWS_SHOWN = 100;

/** The answer of an import: what was added, skipped as a repeat, and refused. */
export const contactListImportResultSchema = z.object({
  /** Data rows read (the header not counted). */
  rows: z.number(),
  imported: z.number(),
  /** Numbers already in the list, or repeated in the file: kept once. */
  duplicates: z.number(),
  invalid: z.number(),
  /** The first rows refused, by their row number in the sheet (the header is row 1). */
  invalidRows: z.array(z.object({ row: z.number(), number: z.string() })),
});
export type ContactListImportResult = z.infer<typeof contactListImportResultSchema>;

/** Spreadsheets an import reads. Legacy .xls (Excel 97-2003) is refused: save as .xlsx or .csv. */
export const CONTACT_LIST_IMPORT_ACCEPT = '.xlsx,.csv';
export const LEGACY_XLS_MESSAGE = 'Legacy .xls is not supported: save the sheet as .xlsx or .csv';
export const NO_NUMBER_COLUMN_MESSAGE = 'Header must name a number column';

/** How far an import has read its file, told while it runs. */
export interface ContactImportProgress {
  contactListId: number;
  /** Data rows read so far. */
  rows: number;
  /** Share of the file read, 0 to 100. */
  percent: number;
}
