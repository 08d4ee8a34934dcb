/** Display formatting shared by the player, review, downloads and library screens (pure, table-tested). */

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
  if (seconds == null || !Number.isFinite(seconds) || seconds < 0) return '–';
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
  if (bytes == null || !Number.isFinite(bytes) || bytes < 0) return '–';
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
  if (!Number.isFinite(bytesPerSecond) || bytesPerSecond <= 0) return '–';
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

/** Inserts `insert` into `text` at the caret (replacing a selection); returns the new text and caret. */
export function insertAtCaret(
  text: string,
  insert: string,
  selectionStart: number | null,
  selectionEnd: number | null = selectionStart,
): { text: string; caret: number } {
  const start = Math.min(Math.max(selectionStart ?? text.length, 0), text.length);
  const end = Math.min(Math.max(selectionEnd ?? start, start), text.length);
  // Keep words apart: a marker glued to the previous word reads as part of it.
  const before = text.slice(0, start);
  const pad = before.length > 0 && !/\s$/.test(before) ? ' ' : '';
  const after = text.slice(end);
  const trail = after.length > 0 && !/^\s/.test(after) ? ' ' : '';
  const piece = `${pad}${insert}${trail}`;
  return { text: before + piece + after, caret: start + pad.length + insert.length + trail.length };
}
