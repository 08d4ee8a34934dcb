/**
 * Which service a profile talks to: the embedded sandbox, or a live account. It is the profile's `kind`
 * (`ProfileSummary.kind`), and the one notion every sandbox-only choice (codes, limits, currencies) is gated on.
 */
export type AccountKind = 'sandbox' | 'service';

/**
 * Whether requests go to a live account. Anything but the sandbox counts as live, so a profile whose kind is not
 * known yet gets the live rules (documented values only, no client-side limits).
 */
export function isLiveAccount(kind: AccountKind | undefined): boolean {
  return kind !== 'sandbox';
}
