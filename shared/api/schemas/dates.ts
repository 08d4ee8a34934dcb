// The service's timestamps: how the client writes one and how it reads any spelling the service sends.
/** Timestamp format of the service: ISO 8601 without a zone offset, e.g. "2026-11-21T18:17:38" (UTC wall clock). */
export function isoNoZone(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/**
 * Epoch ms of a service timestamp, whatever its spelling: the spec's zone-less form (UTC wall clock), a
 * space instead of `T` ("2026-11-23 09:00:00"), or a zoned form ("…Z", "…+01:00"). NaN when unreadable.
 */
export function serviceTime(value: string | null | undefined): number {
  if (!value) return Number.NaN;
  const text = value.trim().replace(/^(\d{4}-\d{2}-\d{2})[ T]/, '$1T');
  const zoned = /(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(text) || !text.includes('T') ? text : `${text}Z`;
  return Date.parse(zoned);
}
