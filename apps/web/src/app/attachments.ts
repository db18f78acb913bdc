import { errorMessage } from './errors';
import { toast } from './toast';

/** The record was saved; only its file was refused. */
export class MediaUploadError extends Error {
  constructor(override readonly cause: unknown) {
    super('media upload failed', { cause });
    this.name = 'MediaUploadError';
  }
}

export interface AttachmentRoutes<T> {
  /** The spec client's `typeArch` field of the form. */
  typeArch: string;
  attach: (id: number, form: FormData) => Promise<T>;
  detach: (id: number) => Promise<T>;
}

/**
 * A record saved, then its file through its `/media-upload` route (the spec's order: the file
 * needs the record's id). `media`: a File replaces the one it has, null removes it, undefined
 * keeps it. `onSaved` sees the record as soon as it is saved. A failed upload throws
 * MediaUploadError, the record staying saved.
 */
export async function saveWithAttachment<T>(
  save: () => Promise<T>,
  idOf: (record: T) => number | undefined,
  media: File | null | undefined,
  routes: AttachmentRoutes<T>,
  onSaved?: (record: T) => void,
): Promise<T> {
  const saved = await save();
  onSaved?.(saved);
  const id = idOf(saved);
  if (id === undefined || media === undefined) return saved;
  if (media === null) return routes.detach(id);
  const form = new FormData();
  form.append('typeArch', routes.typeArch);
  form.append('file', media);
  try {
    return await routes.attach(id, form);
  } catch (error) {
    throw new MediaUploadError(error);
  }
}

/**
 * A save that failed on its file only: the record is saved, so the dialog says so and closes
 * (saving again would save it twice). Answers whether it was that.
 */
export function closedOnMediaFailure(
  error: unknown,
  text: (reason: string) => string,
  close: () => void,
): boolean {
  if (!(error instanceof MediaUploadError)) return false;
  toast.error(text(errorMessage(error.cause)));
  close();
  return true;
}
