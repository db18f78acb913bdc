import { z } from 'zod';
import { TRIAL_DAYS } from '../constants';

const toggle = z.enum(['enabled', 'disabled']);

/** An IANA zone the runtime knows ('America/Sao_Paulo'); the company's hours are read in it. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.includes('/') || zone === 'UTC';
  } catch {
    return false;
  }
}
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

/** Every company setting and the values it accepts (spec core 3, administration 3). */
export const SETTING_VALUES = {
  userRating: toggle,
  scheduleType: z.enum(['disabled', 'queue', 'company']),
  call: toggle,
  CheckMsgIsGroup: toggle,
  sendGreetingAccepted: toggle,
  sendMsgTransfTicket: toggle,
  sendGreetingMessageOneQueues: toggle,
  chatBotType: z.enum(['text']),
  /** The company's time zone: business hours, greetings and dashboard days are computed in it. */
  timezone: z.string().max(64).refine(isTimeZone, 'Invalid time zone'),
  campaignsEnabled: z.enum(['true', 'false']),
  userCreation: toggle,
  /** Payment-provider key: readable only by the super user, never emitted. */
  asaas: z.string().max(500),
  /**
   * The original product's switches for its agents' tickets screen: whether an agent (profile
   * user) sees the closed tickets' tab and the groups' tab. That client reads them from
   * GET /settings; admins always see both.
   */
  viewclosed: toggle,
  viewgroups: toggle,
  /** The login page's link to sign-up (the original product's switch). */
  viewregister: toggle,
  /** Public sign-up, the original product's name for it: closed when this or userCreation is off. */
  allowregister: toggle,
  /**
   * The original product's fields for its IXC and MK-AUTH integrations, which its settings page
   * saves as they are typed: kept per company (the token and the client secret sealed like the
   * payment key) and carried over by the Whaticket import. Nothing here calls those systems yet.
   */
  ipixc: z.string().max(500),
  tokenixc: z.string().max(500),
  ipmkauth: z.string().max(500),
  clientidmkauth: z.string().max(500),
  clientsecretmkauth: z.string().max(500),
  /** Days of trial a company signing up gets. */
  trial: z
    .string()
    .regex(/^\d{1,3}$/, 'Invalid number')
    .refine((days) => Number(days) >= 1 && Number(days) <= 365, 'Invalid number'),
} as const;

export type SettingKey = keyof typeof SETTING_VALUES;
export const SETTING_KEYS = Object.keys(SETTING_VALUES) as SettingKey[];
/** Settings sealed at rest and answered as a masked hint only, never emitted. */
const SECRET_KEYS = [
  'asaas',
  'tokenixc',
  'clientsecretmkauth',
] as const satisfies readonly SettingKey[];
type SecretSettingKey = (typeof SECRET_KEYS)[number];
export const SECRET_SETTING_KEYS: readonly SettingKey[] = SECRET_KEYS;
/** The settings with a default, which the server reads for its rules (no secret among them). */
export type PlainSettingKey = Exclude<SettingKey, SecretSettingKey>;
/** Settings only the super user may read or change. */
export const SUPER_SETTING_KEYS: readonly SettingKey[] = [
  'asaas',
  'userCreation',
  'viewregister',
  'allowregister',
  'trial',
];
/** The platform's sign-up switches, which anyone may read (the login and sign-up pages do). */
export const PUBLIC_SETTING_KEYS = ['viewregister', 'allowregister', 'trial'] as const;
export type PublicSettingKey = (typeof PUBLIC_SETTING_KEYS)[number];

export const DEFAULT_SETTINGS: Record<PlainSettingKey, string> = {
  userRating: 'disabled',
  // Hours are the company's choice: nothing closes until it picks queue or company hours.
  scheduleType: 'disabled',
  call: 'disabled',
  CheckMsgIsGroup: 'enabled',
  sendGreetingAccepted: 'disabled',
  sendMsgTransfTicket: 'disabled',
  sendGreetingMessageOneQueues: 'enabled',
  chatBotType: 'text',
  timezone: DEFAULT_TIME_ZONE,
  campaignsEnabled: 'true',
  userCreation: 'enabled',
  viewclosed: 'disabled',
  viewgroups: 'disabled',
  viewregister: 'enabled',
  allowregister: 'enabled',
  trial: String(TRIAL_DAYS),
  ipixc: '',
  ipmkauth: '',
  clientidmkauth: '',
};

export const settingSchema = z.object({ key: z.string(), value: z.string() });
export type Setting = z.infer<typeof settingSchema>;

export const settingKeyParamsSchema = z.strictObject({
  key: z.enum(SETTING_KEYS as [SettingKey, ...SettingKey[]]),
});
export const publicSettingKeyParamsSchema = z.strictObject({ key: z.enum(PUBLIC_SETTING_KEYS) });
export const settingUpdateSchema = z.object({
  value: z.union([z.string().max(500), z.boolean()]).transform((value) => String(value)),
  key: z.string().max(100).optional(),
});
