import { fail, ok, type DataResult } from '../../../shared/catalogue/result';

/**
 * The sandbox rate card, all a sandbox choice (the live service publishes no per-unit rates,
 * docs/service.md#allowed-values; only that billing follows the word count and prices are plain numbers).
 * Amounts are USD; other currencies by the fixed rates below; every price is rounded to cents.
 *
 * | service                          | rate                         | minimum |
 * |----------------------------------|------------------------------|---------|
 * | voice_over / voice_over          | 0.12 per word, 0.04 per char | 25.00   |
 * | audio_ads / scriptwriting        | 1.00 per second of audio     | 30.00   |
 * | audio_ads / voice_over           | 0.80 per second              | 25.00   |
 * | audio_ads / post-production      | 0.50 per second              | 20.00   |
 *
 * Fulfillment multipliers: speedy 1, booking 1.25, contest 1.5 (several talents record).
 * Example: 300 English words, speedy = 36.00; 100 words = 25.00 (minimum); 30 s audio ad with
 * script writing, booking = (30 + 25 + 20) x 1.25 = 93.75.
 */
export const RATE_CARD = {
  voice_over: {
    voice_over: { perWord: 0.12, perCharacter: 0.04, minimum: 25 },
  },
  audio_ads: {
    scriptwriting: { perSecond: 1, minimum: 30 },
    voice_over: { perSecond: 0.8, minimum: 25 },
    'post-production': { perSecond: 0.5, minimum: 20 },
  },
} as const;

/** Price factor per fulfillment type. */
export const FULFILLMENT_MULTIPLIERS: Readonly<Record<string, number>> = {
  speedy: 1,
  booking: 1.25,
  contest: 1.5,
};

/** Units of currency per US dollar (fixed sandbox rates, not market rates). */
export const CURRENCY_RATES = { USD: 1, EUR: 0.92, GBP: 0.79, CAD: 1.37, AUD: 1.52 } as const;
/** A supported currency code. */
export type Currency = keyof typeof CURRENCY_RATES;

/** Rounds to cents, half away from zero, immune to binary fractions like 1.005. */
export function roundCents(amount: number): number {
  const sign = amount < 0 ? -1 : 1;
  return (sign * Math.round(Math.abs(amount) * 100 + 1e-7)) / 100;
}

/** The supported currency for a code (case-insensitive: the legacy API sent 'usd'), or undefined. */
export function parseCurrency(code: string | undefined): Currency | undefined {
  const upper = (code ?? 'USD').trim().toUpperCase();
  return Object.hasOwn(CURRENCY_RATES, upper) ? (upper as Currency) : undefined;
}

/** A USD amount in another currency, rounded to cents; unknown codes are CURRENCY_NOT_SUPPORTED. */
export function convert(
  amountUsd: number,
  currency: string,
): DataResult<{ amount: number; currency: Currency }, 'CURRENCY_NOT_SUPPORTED'> {
  const code = parseCurrency(currency);
  if (!code) {
    return fail(
      'CURRENCY_NOT_SUPPORTED',
      `Currency ${currency} is not supported; use ${Object.keys(CURRENCY_RATES).join(', ')}`,
    );
  }
  return ok({ amount: roundCents(amountUsd * CURRENCY_RATES[code]), currency: code });
}

/** One service to price: its units as the service reports them. */
export interface ServiceUnits {
  subCategory: string;
  /** Words or characters (voice over, script writing) or seconds (audio-ads voice over, post production). */
  units: number;
  unitType: 'words' | 'characters' | 'seconds';
  /** Length of the audio in seconds, for services priced per second whose units are words (script writing). */
  seconds?: number | undefined;
}

/** Price of one service. */
export interface ServicePrice {
  subCategory: string;
  price: number;
  units: number;
  unitType: 'words' | 'characters' | 'seconds';
}

type PriceError = 'MAINSERVICE_NOT_AUTHORIZED' | 'SUBCATEGORY_NOT_AUTHORIZED';

/** USD price of one service of a main service under a fulfillment type (default speedy). */
export function priceService(
  mainService: string,
  service: ServiceUnits,
  fulfillmentType = 'speedy',
): DataResult<ServicePrice, PriceError> {
  const factor = Object.hasOwn(FULFILLMENT_MULTIPLIERS, fulfillmentType)
    ? FULFILLMENT_MULTIPLIERS[fulfillmentType]!
    : 1;
  const units = Math.max(0, service.units);
  const done = (base: number, minimum: number): DataResult<ServicePrice, PriceError> =>
    ok({
      subCategory: service.subCategory,
      price: roundCents(Math.max(base, minimum) * factor),
      units,
      unitType: service.unitType,
    });
  if (mainService === 'voice_over') {
    if (service.subCategory !== 'voice_over') {
      return fail(
        'SUBCATEGORY_NOT_AUTHORIZED',
        `Subcategory ${service.subCategory} is not part of voice_over`,
      );
    }
    const r = RATE_CARD.voice_over.voice_over;
    return done(units * (service.unitType === 'characters' ? r.perCharacter : r.perWord), r.minimum);
  }
  if (mainService === 'audio_ads') {
    const card = RATE_CARD.audio_ads;
    if (!Object.hasOwn(card, service.subCategory)) {
      return fail(
        'SUBCATEGORY_NOT_AUTHORIZED',
        `Subcategory ${service.subCategory} is not part of audio_ads`,
      );
    }
    const r = card[service.subCategory as keyof typeof card];
    const seconds = service.seconds ?? (service.unitType === 'seconds' ? units : 0);
    return done(seconds * r.perSecond, r.minimum);
  }
  return fail('MAINSERVICE_NOT_AUTHORIZED', `Category ${mainService} is not enabled for API projects`);
}

/** Price of a whole project: each service and the total (sum of the rounded service prices). */
export function priceProject(input: {
  mainService: string;
  fulfillmentType?: string | undefined;
  services: readonly ServiceUnits[];
}): DataResult<{ price: number; services: ServicePrice[] }, PriceError> {
  const services: ServicePrice[] = [];
  for (const s of input.services) {
    const priced = priceService(input.mainService, s, input.fulfillmentType ?? 'speedy');
    if (!priced.ok) return priced;
    services.push(priced.value);
  }
  return ok({ price: roundCents(services.reduce((sum, s) => sum + s.price, 0)), services });
}

/** Words (or characters) a script of `seconds` will have at 150 wpm (about 5 characters a second). */
export function scriptUnitsForSeconds(
  seconds: number,
  characterBilled: boolean,
): { units: number; unitType: 'words' | 'characters' } {
  return characterBilled
    ? { units: Math.round(seconds * 5), unitType: 'characters' }
    : { units: Math.round((seconds * 150) / 60), unitType: 'words' };
}
