/** Display formatting shared by the screens; pure so tests can pin it. */
import { serviceTime } from '../../../shared/api/schemas';

const money = new Map<string, Intl.NumberFormat>();

/** `31` -> "$31.00"; an unknown currency code falls back to "31.00 XYZ". */
export function formatPrice(value: number | null | undefined, currency = 'USD'): string {
  if (value == null || !Number.isFinite(value)) return '—';
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
  return date ? dateFormat.format(date) : '—';
}

export function formatDate(value: string | null | undefined): string {
  const date = parseServiceDate(value);
  return date ? dayFormat.format(date) : '—';
}

const LABELS: Record<string, string> = {
  voice_over: 'Voice over',
  audio_ads: 'Audio ads',
  scriptwriting: 'Script writing',
  'post-production': 'Post production',
  speedy: 'Speedy',
  booking: 'Booking',
  contest: 'Contest',
};

/** Human label for a service id; unknown ids are spaced and capitalised. */
export function labelOf(id: string | null | undefined): string {
  if (!id) return '—';
  const known = LABELS[id];
  if (known) return known;
  const spaced = id.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1).toLowerCase();
}
