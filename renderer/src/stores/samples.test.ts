// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { createFakeApi, withApi } from './fake-api.test-util';
import { defaultSampleFilters, searchInput, useSamplesStore } from './samples';

describe('samples store', () => {
  it('leaves unset filters out of the request', () => {
    const filters = { ...defaultSampleFilters(), language: 'eng-us', minimumPrice: 0, units: null };
    expect(searchInput(filters, 2, 20, 'sandbox')).toEqual({
      categoryId: 'voice_over',
      currency: 'USD',
      page: 2,
      pageSize: 20,
      language: 'eng-us',
      minimumPrice: 0,
      unitType: 'units',
    });
  });

  it('sends a live account only the documented currency, USD; the sandbox keeps its others', () => {
    const filters = { ...defaultSampleFilters(), currency: 'EUR' };
    expect(searchInput(filters, 1, 20, 'service').currency).toBe('USD');
    expect(searchInput(filters, 1, 20, undefined).currency).toBe('USD');
    expect(searchInput(filters, 1, 20, 'sandbox').currency).toBe('EUR');
  });

  it('sends the purpose as a number, as the docs type it, and leaves out a live purpose that has none', () => {
    const input = (purpose: string, kind: 'sandbox' | 'service') =>
      searchInput({ ...defaultSampleFilters(), purpose }, 1, 20, kind).purpose;
    expect(input('7', 'service')).toBe(7);
    expect(input('elearning', 'sandbox')).toBe(4);
    expect(input('elearning', 'service')).toBeUndefined();
    expect(input('', 'sandbox')).toBeUndefined();
  });

  it('treats SEARCH_NOT_RESULTS as an empty list and other codes as errors', async () => {
    let code = 'SEARCH_NOT_RESULTS';
    const { api } = createFakeApi({
      'samples.search': () => {
        throw { type: code, status: 422, message: 'x' };
      },
    });
    const store = withApi(api, () => useSamplesStore());
    await store.search();
    expect(store.noResults).toBe(true);
    expect(store.error).toBeNull();
    code = 'UNITTYPE_NOT_ALLOWED';
    await store.search();
    expect(store.error).toMatchObject({ type: 'UNITTYPE_NOT_ALLOWED' });
  });
});
