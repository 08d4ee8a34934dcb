import { describe, expect, it } from 'vitest';
import { findLanguage } from '../../../shared/catalogue/languages';
import {
  createProCatalogue,
  paginate,
  sampleMedia,
  searchPros,
  type SearchPage,
  type SearchQuery,
} from './pros';

const pros = createProCatalogue();
const search = (q: Partial<SearchQuery>): SearchPage => {
  const r = searchPros({ categoryId: 'voice_over', pageSize: 100, ...q }, pros);
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r.value;
};
const all = (q: Partial<SearchQuery>): SearchPage['samples'] => {
  const first = search({ ...q, page: 1 });
  const rest = Array.from({ length: first.totalPages - 1 }, (_, i) => search({ ...q, page: i + 2 }).samples);
  return [first.samples, ...rest].flat();
};

describe('pro catalogue', () => {
  it('has at least 200 pros, stable and with unique ids', () => {
    expect(pros.length).toBeGreaterThanOrEqual(200);
    expect(createProCatalogue()).toEqual(pros);
    expect(new Set(pros.map((p) => p.publicId)).size).toBe(pros.length);
    for (const p of pros) {
      expect(p.turnAroundTimeDays).toBeGreaterThanOrEqual(1);
      expect(p.turnAroundTimeDays).toBeLessThanOrEqual(5);
      expect(p.languages.every((l) => findLanguage(l)?.active.voice_over)).toBe(true);
    }
  });
});

describe('searchPros filters', () => {
  const everyone = search({}).total;

  it.each<[string, Partial<SearchQuery>, (s: SearchPage['samples'][number]) => boolean]>([
    ['language', { language: 'eng-us' }, (s) => s.language === 'eng-us'],
    ['genderAndAge', { genderAndAge: 'teenageGirl' }, (s) => s.genderAndAge === 'teenageGirl'],
    ['turnAroundTimeDays (maximum)', { turnAroundTimeDays: 2 }, (s) => s.turnAroundTimeDays <= 2],
    ['minimumPrice', { minimumPrice: 15 }, (s) => s.price >= 15],
    ['maximumPrice', { maximumPrice: 12 }, (s) => s.price <= 12],
    ['purpose as a number', { purpose: 6 }, (s) => s.purposes.includes('ivrPhone')],
    ['purpose as a numeric string', { purpose: '7' }, (s) => s.purposes.includes('audiobook')],
  ])('%s narrows the results and every sample matches', (_name, filter, matches) => {
    const found = all(filter);
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThan(everyone);
    expect(found.every(matches)).toBe(true);
    // Nothing matching was left out.
    expect(
      all({}).filter((s) => matches({ ...s, language: filter.language ?? s.language })).length,
    ).toBeGreaterThanOrEqual(found.length);
  });

  it('combines filters like the documented example', () => {
    const found = all({ language: 'eng-us', genderAndAge: 'teenageGirl', units: 30, turnAroundTimeDays: 5 });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((s) => s.language === 'eng-us' && s.genderAndAge === 'teenageGirl')).toBe(true);
  });

  it('quotes list price x units, converted by unitType and currency', () => {
    const usd = all({ units: 200 });
    const s = usd[0]!;
    expect(s.price).toBeCloseTo(s.listPrice * 200, 2);
    const minutes = all({ units: 2, unitType: 'minutes' }).find((x) => x.publicId === s.publicId)!;
    expect(minutes.price).toBeCloseTo(s.listPrice * 300, 2);
    const seconds = all({ units: 60, unitType: 'seconds' }).find((x) => x.publicId === s.publicId)!;
    expect(seconds.price).toBeCloseTo(s.listPrice * 150, 2);
    const eur = all({ units: 200, currency: 'EUR' }).find((x) => x.publicId === s.publicId)!;
    expect(eur.currency).toBe('EUR');
    expect(eur.price).toBeCloseTo(s.price * 0.92, 1);
  });

  it('answers the search error codes', () => {
    expect(searchPros({ categoryId: 'audio_ads' }, pros)).toMatchObject({
      ok: false,
      code: 'SEARCH_NOT_AVAILABLE',
    });
    expect(searchPros({ categoryId: 'voice_over', unitType: 'days' }, pros)).toMatchObject({
      ok: false,
      code: 'UNITTYPE_NOT_ALLOWED',
    });
    expect(searchPros({ categoryId: 'voice_over', currency: 'XYZ' }, pros)).toMatchObject({
      ok: false,
      code: 'CURRENCY_NOT_SUPPORTED',
    });
    expect(searchPros({ categoryId: 'voice_over', maximumPrice: 0.01 }, pros)).toMatchObject({
      ok: false,
      code: 'SEARCH_NOT_RESULTS',
    });
    expect(searchPros({ categoryId: 'voice_over', purpose: 999 }, pros)).toMatchObject({
      ok: false,
      code: 'SEARCH_NOT_RESULTS',
    });
    expect(searchPros({ categoryId: 'voice_over', language: 'wuu-zh' }, pros)).toMatchObject({
      ok: false,
      code: 'SEARCH_NOT_RESULTS',
    });
  });
});

describe('pagination', () => {
  it('defaults to page 1 of 20 and covers every result exactly once', () => {
    const first = searchPros({ categoryId: 'voice_over' }, pros);
    expect(first.ok && [first.value.page, first.value.pageSize, first.value.samples.length]).toEqual([
      1, 20, 20,
    ]);
    const ids = all({ language: 'eng-us' }).map((s) => s.publicId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(search({ language: 'eng-us' }).total);
  });

  it('last page holds the remainder; past the end is empty', () => {
    const total = search({}).total;
    const last = search({ pageSize: 7, page: Math.ceil(total / 7) });
    expect(last.totalPages).toBe(Math.ceil(total / 7));
    expect(last.samples).toHaveLength(total % 7 || 7);
    const beyond = search({ pageSize: 7, page: last.totalPages + 1 });
    expect(beyond.samples).toEqual([]);
    expect(beyond.total).toBe(total);
  });

  it('paginate() edges', () => {
    expect(paginate([1, 2, 3, 4, 5], 2, 2).items).toEqual([3, 4]);
    expect(paginate([1, 2, 3, 4, 5], 3, 2).items).toEqual([5]);
    expect(paginate([1, 2, 3, 4, 5], 4, 2).items).toEqual([]);
    expect(paginate([], 1, 20)).toMatchObject({ total: 0, totalPages: 0, items: [] });
    expect(paginate([1, 2], 0, 0)).toMatchObject({ page: 1, pageSize: 1, items: [1] });
    expect(paginate([1, 2], 1, 10_000).pageSize).toBe(100);
  });

  it('sample media points at a 20 s mp3 per pro and language', () => {
    const s = search({ language: 'fra-fr' }).samples[0]!;
    expect(sampleMedia(s)).toMatchObject({
      kind: 'sample',
      format: 'mp3',
      genderAndAge: s.genderAndAge,
      seconds: 20,
    });
    expect(sampleMedia(s).seed).toContain('fra-fr');
  });
});
