/** What the producer reads for a value: prices, dates, labels, clocks, sizes, rates and levels (pure, table-tested). */
import { serviceTime } from '../../shared/api/schemas';
import { revisionWindowEnd, type RevisionWindowFacts } from '../../shared/review/revision-window';
import { serviceLabel } from '../../shared/text/service-label';

/** What a screen shows where a value is unknown (one mark everywhere). */
export const NO_VALUE = '—';

/** `m:ss.t` — the clock a producer reads on the transport (tenths, never rounded up past the end). */
export function formatClock(seconds: number): string {
  const safe = Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
  const tenths = Math.floor(safe * 10 + 1e-6);
  const minutes = Math.floor(tenths / 600);
  const rest = (tenths % 600) / 10;
  return `${minutes}:${rest.toFixed(1).padStart(4, '0')}`;
}

/** `[0:12.4]`, the marker a producer drops into revision instructions. */
export function formatTimestamp(seconds: number): string {
  return `[${formatClock(seconds)}]`;
}

/** A `[m:ss.t]` marker found in a note: where it points and where it sits in the text. */
export interface NoteTimestamp {
  seconds: number;
  /** The marker as written, e.g. `[0:02.1]`. */
  text: string;
  /** Offset of the marker in the note. */
  index: number;
}

// `[m:ss.t]` as formatTimestamp writes it, also `[h:mm:ss]` and a missing fraction, typed by hand.
const TIMESTAMP = /\[(?:(\d{1,2}):)?(\d{1,3}):([0-5]\d(?:\.\d{1,3})?)\]/g;

/** Every `[m:ss.t]` marker in `text`, the inverse of formatTimestamp (waveform markers for notes). */
export function parseTimestamps(text: string): NoteTimestamp[] {
  const found: NoteTimestamp[] = [];
  for (const match of text.matchAll(TIMESTAMP)) {
    const [whole, hours, minutes, seconds] = match;
    const value = Number(hours ?? 0) * 3600 + Number(minutes) * 60 + Number(seconds);
    if (Number.isFinite(value)) found.push({ seconds: value, text: whole, index: match.index });
  }
  return found;
}

/** `1:05` for durations shown in lists (whole seconds). */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds) || seconds < 0) return NO_VALUE;
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return h > 0
    ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`
    : `${m}:${String(s).padStart(2, '0')}`;
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** `12.3 MB` (decimal units, as file managers show them). */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes == null || !Number.isFinite(bytes) || bytes < 0) return NO_VALUE;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
}

/** `2.4 MB/s`; an idle transfer shows a dash, not "0 B/s". */
export function formatRate(bytesPerSecond: number): string {
  if (!Number.isFinite(bytesPerSecond) || bytesPerSecond <= 0) return NO_VALUE;
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** `3 s left`, `2 min left`; null when the size or the rate is unknown. */
export function formatEta(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds) || seconds < 0) return '';
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s left`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min left`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min left`;
}

/** Signed loudness/peak figures with one decimal; `-inf` for silence. */
export function formatLevel(value: number | null | undefined, unit: string): string {
  if (value == null || !Number.isFinite(value)) return `-inf ${unit}`;
  return `${value.toFixed(1)} ${unit}`;
}

const money = new Map<string, Intl.NumberFormat>();

/** `31` -> "$31.00"; an unknown currency code falls back to "31.00 XYZ". */
export function formatPrice(value: number | null | undefined, currency = 'USD'): string {
  if (value == null || !Number.isFinite(value)) return NO_VALUE;
  const code = currency.toUpperCase();
  let format = money.get(code);
  if (!format) {
    try {
      format = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
    } catch {
      return `${value.toFixed(2)} ${code}`;
    }
    money.set(code, format);
  }
  return format.format(value);
}

/**
 * A price with its currency named, so no "$" is left to guess: "$27.10 USD", "€3.00 EUR"; a currency Intl
 * knows only by its code reads "XYZ 5.00".
 */
export function formatMoney(value: number | null | undefined, currency: string): string {
  const text = formatPrice(value, currency);
  const code = currency.toUpperCase();
  return text === NO_VALUE || text.includes(code) ? text : `${text} ${code}`;
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard' });
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/**
 * The service's language code, three letters and a region (`eng-za`), as words: "English (South Africa)". A region
 * that is not a country code (`cmn-zh`) leaves just the language; a code no one knows is shown as it is.
 */
export function languageName(code: string | null | undefined): string {
  if (!code) return NO_VALUE;
  const [language = '', region] = code.split('-');
  let name: string;
  try {
    name = languageNames.of(language.toLowerCase()) ?? language;
  } catch {
    return code;
  }
  if (name.toLowerCase() === language.toLowerCase()) return code;
  if (!region) return name;
  let place: string | undefined;
  try {
    place = regionNames.of(region.toUpperCase());
  } catch {
    place = undefined;
  }
  return place && place !== region.toUpperCase() ? `${name} (${place})` : name;
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/**
 * The service writes timestamps without a zone (UTC wall clock), and the live service sometimes with a space or
 * a zone: read them all as instants (serviceTime), show them locally.
 */
export function parseServiceDate(value: string | null | undefined): Date | null {
  const time = serviceTime(value);
  return Number.isNaN(time) ? null : new Date(time);
}

export function formatDateTime(value: string | null | undefined): string {
  const date = parseServiceDate(value);
  return date ? dateFormat.format(date) : NO_VALUE;
}

export function formatDate(value: string | null | undefined): string {
  const date = parseServiceDate(value);
  return date ? dayFormat.format(date) : NO_VALUE;
}

const dayMonthFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' });
const dayMonthYearFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

/** An instant (epoch ms) as a day in the sentence "… until 24 Feb": the year only when it is not this year's. */
export function formatDay(time: number, now = Date.now()): string {
  if (!Number.isFinite(time)) return NO_VALUE;
  const date = new Date(time);
  return date.getFullYear() === new Date(now).getFullYear()
    ? dayMonthFormat.format(date)
    : dayMonthYearFormat.format(date);
}

const clockFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });

/**
 * When a read was made, for "as of 10:42": the local time alone on the same day, "24 Nov, 10:42" on another. An
 * answer from main's read mirror carries it (`asOf`, ISO).
 */
export function formatAsOf(iso: string | null | undefined, now = Date.now()): string {
  const time = iso ? Date.parse(iso) : NaN;
  if (!Number.isFinite(time)) return NO_VALUE;
  const date = new Date(time);
  const clock = clockFormat.format(date);
  return date.toDateString() === new Date(now).toDateString() ? clock : `${formatDay(time, now)}, ${clock}`;
}

/**
 * "Revisions possible until 24 Feb" for a completed project whose revision window is open (counted from its order
 * date, the only date the service gives); null otherwise.
 */
export function revisionWindowText(
  project: RevisionWindowFacts | null | undefined,
  now = Date.now(),
): string | null {
  const end = project ? revisionWindowEnd(project) : null;
  return end !== null && end > now ? `Revisions possible until ${formatDay(end, now)}` : null;
}

/** Human label for a service id; unknown ids are spaced and capitalised. */
export function labelOf(id: string | null | undefined): string {
  return id ? serviceLabel(id) : NO_VALUE;
}
