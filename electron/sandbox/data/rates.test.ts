import { describe, expect, it } from 'vitest';
import { convert, priceProject, priceService, roundCents, scriptUnitsForSeconds } from './rates';

describe('rate card', () => {
  it.each([
    [
      '300 English words, speedy',
      'voice_over',
      { subCategory: 'voice_over', units: 300, unitType: 'words' },
      'speedy',
      36,
    ],
    [
      '100 words hits the minimum',
      'voice_over',
      { subCategory: 'voice_over', units: 100, unitType: 'words' },
      'speedy',
      25,
    ],
    [
      '1000 Japanese characters',
      'voice_over',
      { subCategory: 'voice_over', units: 1000, unitType: 'characters' },
      'speedy',
      40,
    ],
    [
      '300 words, contest',
      'voice_over',
      { subCategory: 'voice_over', units: 300, unitType: 'words' },
      'contest',
      54,
    ],
    [
      '60 s ad voice over, booking',
      'audio_ads',
      { subCategory: 'voice_over', units: 60, unitType: 'seconds' },
      'booking',
      60,
    ],
    [
      '60 s post production',
      'audio_ads',
      { subCategory: 'post-production', units: 60, unitType: 'seconds' },
      'speedy',
      30,
    ],
    [
      '45 s script (words), priced per second',
      'audio_ads',
      { subCategory: 'scriptwriting', units: 113, unitType: 'words', seconds: 45 },
      'speedy',
      45,
    ],
  ] as const)('%s', (_name, main, service, fulfillment, price) => {
    const r = priceService(main, service, fulfillment);
    expect(r).toEqual({
      ok: true,
      value: { subCategory: service.subCategory, price, units: service.units, unitType: service.unitType },
    });
  });

  it('prices a 30 s audio ad with script writing, booking: 93.75', () => {
    const r = priceProject({
      mainService: 'audio_ads',
      fulfillmentType: 'booking',
      services: [
        { subCategory: 'scriptwriting', units: 75, unitType: 'words', seconds: 30 },
        { subCategory: 'voice_over', units: 30, unitType: 'seconds' },
        { subCategory: 'post-production', units: 30, unitType: 'seconds' },
      ],
    });
    expect(r.ok && r.value.price).toBe(93.75);
    expect(r.ok && r.value.services.map((s) => s.price)).toEqual([37.5, 31.25, 25]);
  });

  it('rejects unknown services', () => {
    expect(priceService('music', { subCategory: 'x', units: 1, unitType: 'words' })).toMatchObject({
      ok: false,
      code: 'MAINSERVICE_NOT_AUTHORIZED',
    });
    expect(priceService('audio_ads', { subCategory: 'mixing', units: 1, unitType: 'seconds' })).toMatchObject(
      {
        ok: false,
        code: 'SUBCATEGORY_NOT_AUTHORIZED',
      },
    );
  });

  it('converts at the fixed rates, case-insensitively, and refuses unknown currencies', () => {
    expect(convert(100, 'USD')).toEqual({ ok: true, value: { amount: 100, currency: 'USD' } });
    expect(convert(100, 'eur')).toEqual({ ok: true, value: { amount: 92, currency: 'EUR' } });
    expect(convert(10, 'GBP')).toEqual({ ok: true, value: { amount: 7.9, currency: 'GBP' } });
    expect(convert(1, 'CAD').ok && convert(1, 'AUD').ok).toBe(true);
    expect(convert(1, 'JPY')).toMatchObject({ ok: false, code: 'CURRENCY_NOT_SUPPORTED' });
  });

  it('rounds to cents half away from zero', () => {
    expect(roundCents(1.005)).toBe(1.01);
    expect(roundCents(2.675)).toBe(2.68);
    expect(roundCents(-1.005)).toBe(-1.01);
    expect(roundCents(0.1 + 0.2)).toBe(0.3);
  });

  it('estimates script units from seconds', () => {
    expect(scriptUnitsForSeconds(30, false)).toEqual({ units: 75, unitType: 'words' });
    expect(scriptUnitsForSeconds(30, true)).toEqual({ units: 150, unitType: 'characters' });
  });
});
