import {
  DEFAULT_SETTINGS,
  type PublicSettingKey,
  SECRET_SETTING_KEYS,
  SETTING_VALUES,
  type Setting,
  type SettingKey,
  SUPER_SETTING_KEYS,
} from '@atendi/shared';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError, forbidden } from '../../platform/errors';
import type { Platform } from '../../platform/platform';
import { platformSetting } from '../../platform/platform-settings';
import { isSecretHint, openSecretSetting, SecretBox, secretHint } from '../../platform/secrets';
import { saveSetting, settingByKey, storedSettings } from './settings.repository';

export class SettingsService {
  constructor(private readonly platform: Platform) {}

  /** The company's settings; the super-only ones (payment key, sign-up switch) only for super. */
  async list(ctx: RequestContext): Promise<Setting[]> {
    const rows = await storedSettings(tenantDb(ctx));
    const stored = new Map(rows.map((row) => [row.key, row.value]));
    const keys = new Set([...Object.keys(DEFAULT_SETTINGS), ...stored.keys()]);
    return [...keys]
      .filter((key) => ctx.super || !SUPER_SETTING_KEYS.includes(key as SettingKey))
      .map((key) => {
        const value = stored.get(key);
        // A secret (the payment key) is sealed at rest and answered as a masked hint only.
        if (SECRET_SETTING_KEYS.includes(key as SettingKey)) {
          return {
            key,
            value: secretHint(openSecretSetting(this.platform.config.SECRETS_KEY, value)),
          };
        }
        return {
          key,
          value: value ?? DEFAULT_SETTINGS[key as keyof typeof DEFAULT_SETTINGS] ?? '',
        };
      });
  }

  /** A sign-up switch of the platform, for anyone: the login and sign-up pages read them. */
  async showPublic(key: PublicSettingKey): Promise<Setting> {
    const value = await platformSetting(this.platform.db, key);
    return { key, value: value ?? DEFAULT_SETTINGS[key] };
  }

  async update(ctx: RequestContext, key: SettingKey, value: string): Promise<Setting> {
    if (SUPER_SETTING_KEYS.includes(key) && !ctx.super) throw forbidden();
    const parsed = SETTING_VALUES[key].safeParse(value);
    if (!parsed.success) {
      throw new AppError('ERR_VALIDATION', 400, {
        fields: [{ path: 'body.value', message: parsed.error.issues[0]?.message ?? 'Invalid' }],
      });
    }
    const db = tenantDb(ctx);
    const secret = SECRET_SETTING_KEYS.includes(key);
    if (secret && isSecretHint(parsed.data)) {
      // The masked hint the page showed, sent back: the stored key stays as it is.
      const kept = await settingByKey(db, key);
      return {
        key,
        value: secretHint(openSecretSetting(this.platform.config.SECRETS_KEY, kept?.value)),
      };
    }
    await saveSetting(
      db,
      key,
      secret && parsed.data
        ? new SecretBox(this.platform.config.SECRETS_KEY).seal(parsed.data)
        : parsed.data,
    );
    const row = await settingByKey(db, key);
    if (!row) throw new AppError('ERR_NO_SETTING_FOUND', 404);
    // A secret value never travels on the realtime channel.
    if (!SECRET_SETTING_KEYS.includes(key)) {
      this.platform.events.emit('settings.updated', {
        companyId: ctx.companyId,
        setting: { key: row.key, value: row.value },
      });
    }
    return secret ? { key, value: secretHint(parsed.data) } : row;
  }
}
