import { z } from 'zod';
import { MESSAGE_BODY_MAX } from '../messages/messages.schemas';
import { listQuerySchema } from '../pagination';
import { booleanQuery } from '../query';
import { parseDateTimeText } from '../schedules/schedules.schemas';
import { boundedString, MSG } from '../validation';

/** The spec's campaign states (administration 4), shown as Inativa, Programada... */
export const CAMPAIGN_STATUSES = [
  'INATIVA',
  'PROGRAMADA',
  'EM_ANDAMENTO',
  'CANCELADA',
  'FINALIZADA',
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Up to five messages and five confirmation messages (spec administration 9). */
export const CAMPAIGN_MESSAGE_SLOTS = [1, 2, 3, 4, 5] as const;
export const CAMPAIGN_MESSAGE_KEYS = [
  'message1',
  'message2',
  'message3',
  'message4',
  'message5',
] as const;
export const CAMPAIGN_CONFIRMATION_KEYS = [
  'confirmationMessage1',
  'confirmationMessage2',
  'confirmationMessage3',
  'confirmationMessage4',
  'confirmationMessage5',
] as const;
export type CampaignMessageKey = (typeof CAMPAIGN_MESSAGE_KEYS)[number];
export type CampaignConfirmationKey = (typeof CAMPAIGN_CONFIRMATION_KEYS)[number];

/** The original client's "no tag" choice of the tag list select. */
export const NO_TAG = 'Nenhuma';

/** Media a campaign may carry: images, video, audio and documents people send. */
export const CAMPAIGN_MEDIA_TYPES = [
  'image/png',
  'image/jpeg',
  'video/mp4',
  'audio/mpeg',
  'audio/ogg',
  'application/pdf',
] as const;

export const CAMPAIGN_DATE_MESSAGE = 'Invalid date';

/** A select's value: a positive id, or nothing (null, and '', false or 'Nenhuma' as the original client sends it). */
const optionalRef = z.preprocess(
  (value) => (value === '' || value === false || value === NO_TAG ? null : value),
  z.coerce.number().int().positive().max(2_147_483_647).nullable().optional(),
);

const messageField = z
  .string()
  .max(MESSAGE_BODY_MAX, MSG.tooLong)
  .nullable()
  .optional()
  .transform((text) => (text == null ? text : text.trim()));

/** 'YYYY-MM-DD HH:mm:ss' (or ISO with its offset), on the company's clock; '' is none. */
const scheduledAtField = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
  z
    .string()
    .trim()
    .max(40, CAMPAIGN_DATE_MESSAGE)
    .refine((text) => parseDateTimeText(text) !== undefined, CAMPAIGN_DATE_MESSAGE)
    .nullable()
    .optional(),
);

const confirmationField = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  z.boolean().optional(),
);

const campaignFields = {
  name: boundedString(2, 50),
  confirmation: confirmationField,
  scheduledAt: scheduledAtField,
  whatsappId: optionalRef,
  contactListId: optionalRef,
  /** Recipients may also come from the contacts whose conversations carry this tag. */
  tagListId: optionalRef,
  /** A file list (its files are not sent yet): kept as chosen. */
  fileListId: optionalRef,
  message1: messageField,
  message2: messageField,
  message3: messageField,
  message4: messageField,
  message5: messageField,
  confirmationMessage1: messageField,
  confirmationMessage2: messageField,
  confirmationMessage3: messageField,
  confirmationMessage4: messageField,
  confirmationMessage5: messageField,
  // Sent by the original client; the server decides them.
  companyId: z.unknown().optional(),
  status: z.unknown().optional(),
};

export const campaignCreateSchema = z.object(campaignFields);
export type CampaignCreate = z.infer<typeof campaignCreateSchema>;
export const campaignUpdateSchema = z.object({
  ...campaignFields,
  name: campaignFields.name.optional(),
});
export type CampaignUpdate = z.infer<typeof campaignUpdateSchema>;

export const campaignShippingSchema = z.object({
  id: z.number(),
  number: z.string(),
  name: z.string(),
  deliveredAt: z.string().nullable(),
  confirmationRequestedAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
});
export type CampaignShipping = z.infer<typeof campaignShippingSchema>;

const messagesShape = Object.fromEntries(
  [...CAMPAIGN_MESSAGE_KEYS, ...CAMPAIGN_CONFIRMATION_KEYS].map((key) => [key, z.string()]),
) as Record<CampaignMessageKey | CampaignConfirmationKey, z.ZodString>;

export const campaignSchema = z.object({
  id: z.number(),
  name: z.string(),
  ...messagesShape,
  status: z.enum(CAMPAIGN_STATUSES),
  confirmation: z.boolean(),
  scheduledAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  whatsappId: z.number().nullable(),
  contactListId: z.number().nullable(),
  /** None as null: the original client's 'Nenhuma' is its select's label, never an id. */
  tagListId: z.number().nullable(),
  fileListId: z.number().nullable(),
  companyId: z.number(),
  /** Signed, short-lived address of the media; null without one. */
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  contactList: z.object({ id: z.number(), name: z.string() }).nullable(),
  whatsapp: z.object({ id: z.number(), name: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Campaign = z.infer<typeof campaignSchema>;

/** The campaign with its report: recipients' counts and the sends over time. */
export const campaignDetailSchema = campaignSchema.extend({
  report: z.object({
    /** Recipients the campaign writes to (not opted out, with a number). */
    validContacts: z.number(),
    delivered: z.number(),
    confirmationRequested: z.number(),
    confirmed: z.number(),
    optedOut: z.number(),
    failed: z.number(),
    /** Deliveries per minute, oldest first. */
    timeline: z.array(z.object({ at: z.string(), delivered: z.number() })),
  }),
  /**
   * Every recipient's progress, as the original product's report counts it (it filters this
   * list itself); left out when the caller asks `withRows=false`.
   */
  shipping: z
    .array(
      z.object({
        id: z.number(),
        deliveredAt: z.string().nullable(),
        confirmationRequestedAt: z.string().nullable(),
        confirmedAt: z.string().nullable(),
      }),
    )
    .optional(),
  /** The list with its entries' WhatsApp check (null: not checked yet), without `withRows=false`. */
  contactList: z
    .object({
      id: z.number(),
      name: z.string(),
      contacts: z
        .array(z.object({ id: z.number(), isWhatsappValid: z.boolean().nullable() }))
        .optional(),
    })
    .nullable(),
});

export const campaignGetQuerySchema = z.object({
  /** 'false': the counts only, without every recipient and list entry (our own web). */
  withRows: booleanQuery.optional(),
});
export type CampaignDetail = z.infer<typeof campaignDetailSchema>;

export const campaignListQuerySchema = listQuerySchema.extend({
  companyId: z.coerce.number().int().optional(),
});
export type CampaignListQuery = z.infer<typeof campaignListQuerySchema>;

export const campaignsPageSchema = z.object({
  records: z.array(campaignSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type CampaignsPage = z.infer<typeof campaignsPageSchema>;

/** Text fields of POST /campaigns/:id/media-upload (the file comes as `file`). */
export const campaignMediaFormSchema = z.object({
  typeArch: z.string().max(50).optional(),
});

// Campaign settings (spec administration 3, 5, 9).

export const MESSAGE_INTERVAL_OPTIONS = [0, 5, 10, 15, 20] as const;
export const LONGER_INTERVAL_OPTIONS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;
export const DEFAULT_OPT_OUT_WORDS = ['SAIR', 'PARAR', 'STOP'] as const;

export const campaignVariableSchema = z.object({
  key: z.string().trim().min(1, MSG.required).max(50, MSG.tooLong),
  value: z.string().max(1_000, MSG.tooLong),
});
export type CampaignVariable = z.infer<typeof campaignVariableSchema>;

const seconds = (options: readonly number[]) =>
  z.coerce
    .number()
    .int()
    .refine((value) => options.includes(value), 'Not an option');

export const campaignSettingsValuesSchema = z.object({
  /** Seconds between two sends (randomised around it). */
  messageInterval: seconds(MESSAGE_INTERVAL_OPTIONS),
  /** After this many sends in a row, one longer pause (0: never). */
  longerIntervalAfter: seconds(LONGER_INTERVAL_OPTIONS),
  /** The longer pause, in seconds. */
  greaterInterval: seconds(LONGER_INTERVAL_OPTIONS),
  /** Custom {{key}} variables of the messages; a repeated key keeps its first value. */
  variables: z
    .array(campaignVariableSchema)
    .max(100)
    .transform((list) => list.filter((v, i) => list.findIndex((w) => w.key === v.key) === i)),
  /** Not in the original product: a contact answering one of these words opts out. */
  optOutWords: z.array(z.string().trim().min(1).max(30)).max(20),
  /** Not in the original product: campaign sends per connection per day (0: no cap). */
  dailyLimit: z.coerce.number().int().min(0).max(1_000_000),
});
export type CampaignSettingsValues = z.infer<typeof campaignSettingsValuesSchema>;
export type CampaignSettingKey = keyof CampaignSettingsValues;

export const DEFAULT_CAMPAIGN_SETTINGS: CampaignSettingsValues = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [],
  optOutWords: [...DEFAULT_OPT_OUT_WORDS],
  dailyLimit: 0,
};

/** GET /campaign-settings: each key with its value as JSON text. */
export const campaignSettingSchema = z.object({ key: z.string(), value: z.string() });
export type CampaignSetting = z.infer<typeof campaignSettingSchema>;

/** POST /campaign-settings: `{ settings: {...} }`, any of the keys. */
export const campaignSettingsSaveSchema = z.object({
  settings: campaignSettingsValuesSchema.partial(),
  companyId: z.unknown().optional(),
});
export type CampaignSettingsSave = z.infer<typeof campaignSettingsSaveSchema>;
