import { z } from 'zod';
import { listQuerySchema } from '../pagination';
import { MSG, positiveId } from '../validation';

/** The spec's messages for a file list's form (administration 5). */
export const FILE_LIST_NAME_SHORT = 'nome muito curto';
export const FILE_LIST_REQUIRED = 'Obrigatório';
/** Options a list may hold. */
export const FILE_LIST_MAX_OPTIONS = 50;

/** One file of a list: a name, and the file once it is uploaded. */
export const fileListOptionSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** Signed, short-lived address of the uploaded file; null until one is uploaded. */
  path: z.string().nullable(),
  mediaType: z.string().nullable(),
  /** The uploaded file's own name (metadata; it is stored under a generated name). */
  mediaName: z.string().nullable(),
});
export type FileListOption = z.infer<typeof fileListOptionSchema>;

/** A list of files kept for campaigns and bots (spec administration 3, "File list"). */
export const fileListSchema = z.object({
  id: z.number(),
  name: z.string(),
  message: z.string(),
  options: z.array(fileListOptionSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FileListRecord = z.infer<typeof fileListSchema>;

const optionFields = z.object({
  /** An option the list has; without it a new one. */
  id: positiveId.optional(),
  name: z
    .string({ error: FILE_LIST_REQUIRED })
    .trim()
    .min(1, FILE_LIST_REQUIRED)
    .max(100, MSG.tooLong),
  // Sent back by the spec's client as read; the file is set through /files/uploadList.
  path: z.string().max(2000).nullable().optional(),
  mediaType: z.string().max(255).nullable().optional(),
  mediaName: z.string().max(255).nullable().optional(),
});

/** The original's blank option row: no id, and its name, path and media type all "". */
const isUntouchedRow = (row: unknown): boolean => {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return false;
  const { id, name, path, mediaType } = row as Record<string, unknown>;
  return id === undefined && name === '' && path === '' && mediaType === '';
};

const fileListFields = {
  name: z
    .string({ error: FILE_LIST_REQUIRED })
    .trim()
    .min(1, FILE_LIST_REQUIRED)
    .min(3, FILE_LIST_NAME_SHORT)
    .max(100, MSG.tooLong),
  message: z
    .string({ error: FILE_LIST_REQUIRED })
    .trim()
    .min(1, FILE_LIST_REQUIRED)
    .max(10_000, MSG.tooLong),
  /**
   * The list's options after the save: listed ones kept or added, the others removed. The
   * original client's dialog starts with one row { name: "", path: "", mediaType: "" }; sent
   * untouched, that row is no option.
   */
  options: z
    .preprocess(
      (value) => (Array.isArray(value) ? value.filter((row) => !isUntouchedRow(row)) : value),
      z.array(optionFields).max(FILE_LIST_MAX_OPTIONS),
    )
    .optional(),
  // Sent by the spec's client; the session decides both.
  userId: z.coerce.number().int().nullable().optional(),
  companyId: z.coerce.number().int().optional(),
  id: z.coerce.number().int().optional(),
};

export const fileListCreateSchema = z.object(fileListFields);
export type FileListCreate = z.infer<typeof fileListCreateSchema>;
export const fileListUpdateSchema = z.object({
  ...fileListFields,
  name: fileListFields.name.optional(),
  message: fileListFields.message.optional(),
});
export type FileListUpdate = z.infer<typeof fileListUpdateSchema>;

export const fileListsQuerySchema = z.object({
  ...listQuerySchema.shape,
  companyId: z.coerce.number().int().optional(),
});
export type FileListsQuery = z.infer<typeof fileListsQuerySchema>;

export const fileListsPageSchema = z.object({
  files: z.array(fileListSchema),
  count: z.number(),
  hasMore: z.boolean(),
});

/** POST /files/uploadList/:fileId params; the name is the spec's. */
export const fileListUploadParamsSchema = z.strictObject({
  fileId: positiveId,
});

/**
 * Text fields of POST /files/uploadList/:fileId. `id`, `name` and `mediaType` come once per
 * file, in the order of the `files` parts: the n-th file is the option of the n-th `id`.
 */
export const fileListUploadFormSchema = z.object({
  fileId: z.coerce.number().int().optional(),
  typeArch: z.string().max(50).optional(),
});

export const fileListUploadResultSchema = fileListSchema;
