import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Secrets kept at rest (AI and voice keys): AES-256-GCM under a key derived from SECRETS_KEY,
 * each with its own random IV, so the database alone never reveals them and a changed
 * ciphertext fails to open instead of yielding garbage.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = createHash('sha256').update(`atendi-secrets:${secret}`).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body].map(encode).join('.');
  }

  /** The plain text, or undefined when it was sealed under another key or changed. */
  open(sealed: string | null | undefined): string | undefined {
    if (!sealed) return undefined;
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}

const encode = (part: string | Buffer) =>
  typeof part === 'string' ? part : part.toString('base64url');

/**
 * A secret setting (the payment provider's key) as stored: sealed by the settings service.
 * A value stored before keys were sealed is still read as it is.
 */
export function openSecretSetting(secretsKey: string, stored: string | undefined) {
  if (!stored) return undefined;
  if (!stored.startsWith(`${VERSION}.`)) return stored;
  return new SecretBox(secretsKey).open(stored);
}

const HINT_MASK = '********';

/** What is answered instead of a secret: its last four characters at most, the rest masked. */
export function secretHint(plain: string | undefined): string {
  if (!plain) return '';
  return plain.length <= 8 ? HINT_MASK : `${HINT_MASK}${plain.slice(-4)}`;
}

/** Whether a value is a hint `secretHint` answered (sent back, it means "keep the secret"). */
export const isSecretHint = (value: string) => value.startsWith(HINT_MASK);
