/**
 * What a token says of itself. Live tokens are JWTs (the docs' example carries `iat`/`exp` about 90 days apart):
 * the payload is read without checking the signature — Takedesk cannot check it and does not need to, since the
 * service decides what it accepts. This only tells when the session ends and whose it is. Any other token (an
 * opaque string, a malformed JWT) has no claims, and nothing fails.
 */

/** The claims Takedesk reads. */
export interface TokenClaims {
  /** Whose token it is (`sub`). */
  subject?: string;
  /** The account's email, when the token carries one (`email`). */
  email?: string;
  /** When the token stops being accepted (`exp`), in epoch ms. */
  expiresAt?: number;
}

/** The claims of a JWT-shaped token; `{}` for anything else. */
export function readTokenClaims(token: string | null | undefined): TokenClaims {
  const parts = token?.split('.');
  if (!parts || parts.length !== 3 || !parts[1]) return {};
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return {};
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return {};
  const { sub, email, exp } = payload as Record<string, unknown>;
  const claims: TokenClaims = {};
  if ((typeof sub === 'string' && sub) || typeof sub === 'number') claims.subject = String(sub);
  if (typeof email === 'string' && email.includes('@')) claims.email = email.trim().toLowerCase();
  // `exp` is in seconds (RFC 7519); a value that is not a plausible date is ignored.
  if (typeof exp === 'number' && Number.isFinite(exp) && exp > 0 && exp < 1e11) claims.expiresAt = exp * 1000;
  return claims;
}
