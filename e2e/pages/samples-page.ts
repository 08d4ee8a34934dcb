import type { Locator, Page } from 'playwright-core';

/** Sample search (SamplesView.vue): filters, paged cards, audition into the shared player bar. */
export class SamplesPage {
  readonly root: Locator;
  readonly category: Locator;
  readonly language: Locator;
  readonly genderAndAge: Locator;
  readonly purpose: Locator;
  readonly minPrice: Locator;
  readonly maxPrice: Locator;
  readonly currency: Locator;
  readonly turnaround: Locator;
  readonly units: Locator;
  readonly unitType: Locator;
  readonly search: Locator;
  readonly reset: Locator;
  readonly cards: Locator;
  readonly total: Locator;
  readonly pageLabel: Locator;
  readonly next: Locator;
  readonly prev: Locator;
  readonly empty: Locator;
  readonly error: Locator;
  readonly unitTypeError: Locator;
  readonly categoryError: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('samples-view');
    this.category = page.getByTestId('samples-category');
    this.language = page.getByTestId('samples-language');
    this.genderAndAge = page.getByTestId('samples-gender');
    this.purpose = page.getByTestId('samples-purpose');
    this.minPrice = page.getByTestId('samples-min-price');
    this.maxPrice = page.getByTestId('samples-max-price');
    this.currency = page.getByTestId('samples-currency');
    this.turnaround = page.getByTestId('samples-turnaround');
    this.units = page.getByTestId('samples-units');
    this.unitType = page.getByTestId('samples-unit-type');
    this.search = page.getByTestId('samples-search');
    this.reset = page.getByTestId('samples-reset');
    this.cards = page.getByTestId('sample-card');
    this.total = page.getByTestId('samples-total');
    this.pageLabel = page.getByTestId('samples-page');
    this.next = page.getByTestId('samples-next');
    this.prev = page.getByTestId('samples-prev');
    this.empty = page.getByTestId('samples-empty');
    this.error = page.getByTestId('samples-error');
    this.unitTypeError = page.getByTestId('samples-unit-type-error');
    this.categoryError = page.getByTestId('samples-category-error');
  }

  async goto(): Promise<void> {
    await this.page.getByTestId('nav-samples').click();
    await this.root.waitFor();
  }

  /** Sets any filters given, then searches. */
  async searchWith(filters: {
    categoryId?: string;
    currency?: 'USD' | 'EUR' | 'GBP' | 'CAD' | 'AUD';
    minimumPrice?: number;
    maximumPrice?: number;
    turnAroundTimeDays?: number;
    units?: number;
    unitType?: string;
  }): Promise<void> {
    if (filters.categoryId) await this.category.selectOption(filters.categoryId);
    if (filters.currency) await this.currency.selectOption(filters.currency);
    if (filters.minimumPrice !== undefined) await this.minPrice.fill(String(filters.minimumPrice));
    if (filters.maximumPrice !== undefined) await this.maxPrice.fill(String(filters.maximumPrice));
    if (filters.turnAroundTimeDays !== undefined)
      await this.turnaround.fill(String(filters.turnAroundTimeDays));
    if (filters.units !== undefined) await this.units.fill(String(filters.units));
    if (filters.unitType) await this.unitType.selectOption(filters.unitType);
    await this.search.click();
  }

  /** Plays the sample of card `index` in the shared player bar. */
  async audition(index: number): Promise<void> {
    await this.cards.nth(index).getByTestId('sample-play').click();
  }

  cardName(index: number): Locator {
    return this.cards.nth(index).locator('.name');
  }
}
