/**
 * What the browser keeps of a session. The keys and the JSON-encoded token follow the original
 * product, so a tab opened by an older client keeps working.
 */
const TOKEN_KEY = 'token';
const COMPANY_KEY = 'companyId';
const USER_KEY = 'userId';
/** Seconds this browser's clock runs ahead of the server's, measured when a token arrives. */
const SKEW_KEY = 'tokenClockSkew';
/** Present while the company's campaign pages are open (spec administration 2, the 'cshow' flag). */
const CAMPAIGN_FLAG_KEY = 'cshow';

export interface TokenClaims {
  /** user id */
  sub: string;
  /** company id */
  cid: number;
  /** session id */
  sid: string;
  /** expiry, seconds since the epoch */
  exp: number;
  /** issued at, seconds since the epoch */
  iat?: number;
}

export function readToken(): string | null {
  const raw = localStorage.getItem(TOKEN_KEY);
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'string' && value ? value : null;
  } catch {
    // a bare token written by hand still counts
    return raw;
  }
}

export function storeToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, JSON.stringify(token));
  // a fresh token was issued "now" by the server: its iat tells how wrong our clock is
  const claims = decodeToken(token);
  if (claims?.iat !== undefined) {
    localStorage.setItem(SKEW_KEY, String(Math.floor(Date.now() / 1000) - claims.iat));
  }
}

function clockSkew(): number {
  const value = Number(localStorage.getItem(SKEW_KEY));
  return Number.isFinite(value) ? value : 0;
}

export function storeSessionIds(companyId: number, userId: number): void {
  localStorage.setItem(COMPANY_KEY, String(companyId));
  localStorage.setItem(USER_KEY, String(userId));
}

/** The 'cshow' flag, written from the company's campaignsEnabled setting at each sign-in. */
export function storeCampaignFlag(enabled: boolean): void {
  if (enabled) localStorage.setItem(CAMPAIGN_FLAG_KEY, 'true');
  else localStorage.removeItem(CAMPAIGN_FLAG_KEY);
}

/** The contact-list and campaign routes and menu items exist only while the flag does. */
export function hasCampaignFlag(): boolean {
  return localStorage.getItem(CAMPAIGN_FLAG_KEY) !== null;
}

export function clearSession(): void {
  localStorage.removeItem(CAMPAIGN_FLAG_KEY);
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(COMPANY_KEY);
  localStorage.removeItem(USER_KEY);
  localStorage.removeItem(SKEW_KEY);
}

function decodeBase64Url(part: string): string {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
  const bytes = Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Reads the access token's claims without checking the signature (the server does that). */
export function decodeToken(token: string | null): TokenClaims | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(decodeBase64Url(payload)) as Partial<TokenClaims>;
    if (typeof claims.exp !== 'number') return null;
    return {
      sub: String(claims.sub ?? ''),
      cid: Number(claims.cid),
      sid: String(claims.sid ?? ''),
      exp: claims.exp,
      iat: typeof claims.iat === 'number' ? claims.iat : undefined,
    };
  } catch {
    return null;
  }
}

/**
 * Seconds the token has left by the server's clock; 0 when expired or unreadable. A browser
 * whose clock is wrong must not think every token is expired (and reload forever).
 */
export function tokenSecondsLeft(token: string | null, now = Date.now()): number {
  const claims = decodeToken(token);
  if (!claims) return 0;
  return Math.max(0, claims.exp - (Math.floor(now / 1000) - clockSkew()));
}

const ENDED_ELSEWHERE_KEY = 'sessionEndedElsewhere';

/**
 * This tab's session was ended by a sign-in elsewhere: kept across the reload that follows, so
 * the sign-in page can say why (a toast would go with the page).
 */
export function markEndedElsewhere(): void {
  sessionStorage.setItem(ENDED_ELSEWHERE_KEY, '1');
}

export function wasEndedElsewhere(): boolean {
  return sessionStorage.getItem(ENDED_ELSEWHERE_KEY) !== null;
}

export function forgetEndedElsewhere(): void {
  sessionStorage.removeItem(ENDED_ELSEWHERE_KEY);
}
