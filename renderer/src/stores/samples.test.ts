// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { createFakeApi, withApi } from './fake-api.test-util';
import { defaultSampleFilters, searchInput, useSamplesStore } from './samples';

describe('samples store', () => {
  it('leaves unset filters out of the request', () => {
    const filters = { ...defaultSampleFilters(), language: 'eng-us', minimumPrice: 0, units: null };
    expect(searchInput(filters, 2, 20)).toEqual({
      categoryId: 'voice_over',
      currency: 'USD',
      page: 2,
      pageSize: 20,
      language: 'eng-us',
      minimumPrice: 0,
      unitType: 'units',
    });
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
