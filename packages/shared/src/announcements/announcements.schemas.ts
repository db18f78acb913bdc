import { z } from 'zod';
import { MSG } from '../validation';

export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;
/** 1 high, 2 medium, 3 low. */
export type AnnouncementPriority = (typeof ANNOUNCEMENT_PRIORITIES)[number];
export const DEFAULT_ANNOUNCEMENT_PRIORITY: AnnouncementPriority = 3;

/** What an announcement's image may be (.png, .jpg, .jpeg). */
export const ANNOUNCEMENT_MEDIA_TYPES = ['image/png', 'image/jpeg'] as const;

export const announcementSchema = z.object({
  id: z.number(),
  title: z.string(),
  text: z.string(),
  priority: z.number(),
  status: z.boolean(),
  /** Signed, short-lived address of the image; null without one. */
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Announcement = z.infer<typeof announcementSchema>;

const requiredText = (max: number) =>
  z.string({ error: MSG.required }).trim().min(1, MSG.required).max(max, MSG.tooLong);

const announcementFields = {
  title: requiredText(200),
  text: requiredText(10_000),
  priority: z.coerce
    .number()
    .int()
    .refine((value) => (ANNOUNCEMENT_PRIORITIES as readonly number[]).includes(value), {
      message: 'Priority is 1, 2 or 3',
    })
    .optional(),
  status: z.boolean().optional(),
  // Sent by the spec's client; the file is set through /media-upload.
  mediaPath: z.string().max(2000).nullable().optional(),
  mediaName: z.string().max(255).nullable().optional(),
  companyId: z.coerce.number().int().optional(),
  id: z.coerce.number().int().optional(),
};

export const announcementCreateSchema = z.object(announcementFields);
export type AnnouncementCreate = z.infer<typeof announcementCreateSchema>;
export const announcementUpdateSchema = z.object({
  ...announcementFields,
  title: announcementFields.title.optional(),
  text: announcementFields.text.optional(),
});
export type AnnouncementUpdate = z.infer<typeof announcementUpdateSchema>;

export const announcementsPageSchema = z.object({
  records: z.array(announcementSchema),
  count: z.number(),
  hasMore: z.boolean(),
});

/** Text fields of POST /announcements/:id/media-upload (the file comes as `file`). */
export const announcementMediaFormSchema = z.object({
  typeArch: z.string().max(50).optional(),
});
