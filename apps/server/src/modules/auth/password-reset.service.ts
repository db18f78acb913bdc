import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  type ForgotPassword,
  RESET_CODE_MAX_ATTEMPTS,
  RESET_CODE_TTL_MINUTES,
  type ResetPassword,
} from '@atendi/shared';
import { findLoginUser } from '../../platform/auth/credentials';
import { PasswordResetStore } from '../../platform/auth/password-resets';
import { hashPassword } from '../../platform/auth/passwords';
import { AppError } from '../../platform/errors';
import type { Platform } from '../../platform/platform';

const MINUTE = 60_000;
/** Code requests: per e-mail (a mailbox is not flooded) and per address (no e-mail probing). */
const REQUESTS_PER_EMAIL = { max: 3, windowMs: 15 * MINUTE };
const REQUESTS_PER_ADDRESS = { max: 10, windowMs: 60 * MINUTE };
/** Reset tries per address, on top of the five tries each code takes. */
const RESETS_PER_ADDRESS = { max: 20, windowMs: 60 * MINUTE };

const OK_SENT = 'Email enviado com sucesso!';
const OK_RESET = 'Senha redefinida com sucesso.';

/**
 * Password reset by a one-time code sent by mail. Codes are kept as keyed hashes, live 15
 * minutes, take five tries and are spent by the first right one; a reset ends every session of
 * the user. An unknown e-mail answers 404 'Email não encontrado', as the spec's clients expect,
 * under the same limits as a known one.
 */
export class PasswordResetService {
  readonly #store: PasswordResetStore;
  readonly #key: Buffer;

  constructor(private readonly platform: Platform) {
    this.#store = new PasswordResetStore(platform.db);
    this.#key = createHmac('sha256', platform.config.JWT_SECRET).update('password-reset').digest();
  }

  async request({ email }: ForgotPassword, address: string): Promise<{ message: string }> {
    await this.platform.limiter.consume(
      { key: `reset:request:email:${email}`, ...REQUESTS_PER_EMAIL },
      { key: `reset:request:address:${address}`, ...REQUESTS_PER_ADDRESS },
    );
    const user = await findLoginUser(this.platform.db, email);
    if (!user) throw new AppError('ERR_EMAIL_NOT_FOUND', 404);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await this.#store.issue(
      user.id,
      this.#hash(user.id, code),
      new Date(Date.now() + RESET_CODE_TTL_MINUTES * MINUTE),
    );
    await this.platform.mailer.send({
      to: email,
      subject: 'Código para redefinir sua senha',
      text: [
        `Seu código para redefinir a senha é: ${code}`,
        '',
        `Ele vale por ${RESET_CODE_TTL_MINUTES} minutos e pode ser usado uma única vez.`,
        'Se você não pediu para redefinir a senha, ignore este e-mail.',
      ].join('\n'),
    });
    return { message: OK_SENT };
  }

  async reset(data: ResetPassword, address: string): Promise<{ message: string }> {
    await this.platform.limiter.consume({
      key: `reset:try:address:${address}`,
      ...RESETS_PER_ADDRESS,
    });
    const invalid = () => new AppError('ERR_INVALID_RESET_CODE', 400);
    const user = await findLoginUser(this.platform.db, data.email);
    if (!user) throw invalid();
    const live = await this.#store.tryCode(user.id, RESET_CODE_MAX_ATTEMPTS);
    const tried = this.#hash(user.id, data.token);
    if (!live || !sameHash(live.codeHash, tried)) throw invalid();
    const passwordHash = await hashPassword(data.newPassword);
    if (!(await this.#store.spend(user.id, tried, passwordHash))) throw invalid();
    await this.platform.sessions.revokeUser(user.id);
    await this.platform.limiter.reset(`login:email-failures:${data.email}`);
    return { message: OK_RESET };
  }

  /** The code's keyed hash, bound to its user. */
  #hash(userId: number, code: string): string {
    return createHmac('sha256', this.#key).update(`${userId}:${code}`).digest('base64url');
  }
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
