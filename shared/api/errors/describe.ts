// What the producer is told about an error: title, detail and hint, with the talent's return date read out of a
// TALENT_ON_VACATION message.
import { ERROR_CATALOG, isErrorCode } from './catalog';
import type { ErrorEntry } from './types';

/** The sandbox's TALENT_ON_VACATION message; the UI reads the date back with parseTalentAwayUntil. */
export function talentAwayMessage(untilIso: string): string {
  return `The talent is on vacation until ${untilIso}.`;
}

const ISO_DATE_IN_TEXT =
  /(?<![\d-])(\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01]))(?:[T ]((?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?(?![\d-])/;

/**
 * The end of the talent's absence found anywhere in a message: "YYYY-MM-DD" or that date with a
 * time ("2026-12-05T10:00:00"), so live-service wording works too. Undefined when none.
 */
export function parseTalentAwayUntil(message: string): string | undefined {
  const match = ISO_DATE_IN_TEXT.exec(message);
  if (!match?.[1]) return undefined;
  return match[2] ? `${match[1]}T${match[2]}${match[3] ?? ''}` : match[1];
}

/** What the UI shows for an error. */
export interface ErrorDescription {
  title: string;
  detail: string;
  hint: string;
}

/** Producer-facing title, detail and hint for a service or client error (unknown codes get a generic text). */
export function describeError(error: { type: string; message?: string }, locale = 'en-US'): ErrorDescription {
  const message = error.message?.trim() ?? '';
  if (!isErrorCode(error.type)) {
    return {
      title: `The service reported an error (${error.type})`,
      detail: message || 'No details were given.',
      hint: 'Try again; if it keeps happening, contact support with this code.',
    };
  }
  const entry: ErrorEntry = ERROR_CATALOG[error.type];
  if (error.type === 'TALENT_ON_VACATION') {
    const until = parseTalentAwayUntil(message);
    if (until) {
      const date = new Date(`${until.slice(0, 10)}T00:00:00Z`);
      const shown = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
      return { title: entry.title, detail: `The talent is away until ${shown}.`, hint: entry.hint };
    }
  }
  return { title: entry.title, detail: message || entry.message, hint: entry.hint };
}
