import { createHash, randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

export interface AccessClaims {
  /** user id */
  sub: string;
  /** company id */
  cid: number;
  /** session id */
  sid: string;
}

export type VerifyResult =
  | { ok: true; claims: AccessClaims; exp: number }
  | { ok: false; reason: 'expired' | 'invalid' };

export class TokenService {
  readonly #key: Uint8Array;
  constructor(
    secret: string,
    readonly accessTtlSeconds: number,
  ) {
    this.#key = new TextEncoder().encode(secret);
  }

  sign(claims: AccessClaims): Promise<string> {
    return new SignJWT({ cid: claims.cid, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.accessTtlSeconds)
      .sign(this.#key);
  }

  async verify(token: string): Promise<VerifyResult> {
    try {
      const { payload } = await jwtVerify(token, this.#key, { algorithms: ['HS256'] });
      const { sub, cid, sid, exp } = payload;
      if (typeof sub !== 'string' || typeof cid !== 'number' || typeof sid !== 'string') {
        return { ok: false, reason: 'invalid' };
      }
      return { ok: true, claims: { sub, cid, sid }, exp: exp ?? 0 };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { ok: false, reason: 'expired' };
      return { ok: false, reason: 'invalid' };
    }
  }
}

/** Opaque refresh tokens: 256 random bits; only their SHA-256 is stored. */
export const newRefreshToken = (): string => randomBytes(32).toString('base64url');
export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

export const bearerToken = (header: string | undefined): string | undefined => {
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
};
