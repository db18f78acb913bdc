import { hash, verify } from '@node-rs/argon2';
import { verify as verifyBcrypt } from '@node-rs/bcrypt';

// argon2id (the library's default algorithm) at OWASP's baseline: 19 MiB, 2 passes, 1 lane.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

/** bcrypt, as the Whaticket family hashes passwords (bcryptjs writes `$2a$`). */
const BCRYPT = /^\$2[abxy]\$\d{2}\$/;

/**
 * Whether the password is the hash's: argon2id, ours, or bcrypt, which users moved from a
 * Whaticket database still have until their first sign-in here (see `isOutdatedHash`).
 */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    if (BCRYPT.test(passwordHash)) return await verifyBcrypt(password, passwordHash);
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash not of our kind: replaced by an argon2id one when its password is next given. */
export const isOutdatedHash = (passwordHash: string): boolean => BCRYPT.test(passwordHash);

/** A hash to verify against when the email is unknown, so both paths take the same time. */
let decoy: Promise<string> | undefined;
export const decoyHash = (): Promise<string> => {
  decoy ??= hashPassword('decoy-password-that-never-matches');
  return decoy;
};
