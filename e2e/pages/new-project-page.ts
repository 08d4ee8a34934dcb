import type { Locator, Page } from 'playwright-core';

/** The new-project form (NewProjectView.vue), both categories. */
export class NewProjectPage {
  readonly root: Locator;
  readonly title: Locator;
  readonly titleError: Locator;
  readonly fulfillment: Locator;
  readonly remarks: Locator;
  readonly test: Locator;
  readonly fake: Locator;
  readonly scriptTotal: Locator;
  readonly scriptError: Locator;
  readonly quotePrice: Locator;
  readonly quoteIncomplete: Locator;
  readonly quoteError: Locator;
  readonly submit: Locator;
  readonly submitError: Locator;
  readonly hasErrors: Locator;
  readonly lost: Locator;
  readonly lostCreated: Locator;
  readonly lostResend: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('new-project-view');
    this.title = page.getByTestId('np-title');
    this.titleError = page.getByTestId('np-title-error');
    this.fulfillment = page.getByTestId('np-fulfillment');
    this.remarks = page.getByTestId('np-remarks');
    this.test = page.getByTestId('np-test');
    this.fake = page.getByTestId('np-fake');
    this.scriptTotal = page.getByTestId('script-total');
    this.scriptError = page.getByTestId('script-error');
    this.quotePrice = page.getByTestId('np-quote-price');
    this.quoteIncomplete = page.getByTestId('np-quote-incomplete');
    this.quoteError = page.getByTestId('np-quote-error');
    this.submit = page.getByTestId('np-submit');
    this.submitError = page.getByTestId('np-submit-error');
    this.hasErrors = page.getByTestId('np-has-errors');
    this.lost = page.getByTestId('np-lost');
    this.lostCreated = page.getByTestId('np-lost-created');
    this.lostResend = page.getByTestId('np-lost-resend');
  }

  async goto(): Promise<void> {
    await this.page.getByTestId('nav-new-project').click();
    await this.root.waitFor();
  }

  async category(id: 'voice_over' | 'audio_ads'): Promise<void> {
    // The radio is visually hidden inside its segment label, which takes the click.
    const radio = this.page.getByTestId(`np-category-${id}`);
    await this.page.locator('label.segment', { has: radio }).click();
    await radio.isChecked();
  }

  /** A select fed by attribute values, or its free-text fallback: picks by value or types it. */
  async setAttribute(testid: string, value: string): Promise<void> {
    const field = this.page.getByTestId(testid);
    await field.waitFor();
    await this.page.locator(`[data-testid="${testid}"]:not([disabled])`).waitFor();
    const tag = await field.evaluate((el) => el.tagName);
    if (tag === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }

  /** Picks the first real option of an attribute select and returns its value. */
  async pickFirst(testid: string): Promise<string> {
    const field = this.page.getByTestId(testid);
    const option = field.locator('option').nth(1);
    await option.waitFor({ state: 'attached' });
    const value = (await option.getAttribute('value')) ?? '';
    await field.selectOption(value);
    return value;
  }

  scriptPart(index: number): Locator {
    return this.page.getByTestId(`script-part-text-${index}`);
  }

  async addScriptPart(): Promise<void> {
    await this.page.getByTestId('script-part-add').click();
  }

  /** A voice over project with the first language/gender-and-age offered. */
  async fillVoiceOver(opts: { title: string; script: string[]; language?: string; genderAndAge?: string }) {
    await this.category('voice_over');
    await this.title.fill(opts.title);
    if (opts.language) await this.setAttribute('np-vo-language', opts.language);
    else await this.pickFirst('np-vo-language');
    if (opts.genderAndAge) await this.setAttribute('np-vo-gender', opts.genderAndAge);
    else await this.pickFirst('np-vo-gender');
    for (const [i, text] of opts.script.entries()) {
      if (i > 0) await this.addScriptPart();
      await this.scriptPart(i).fill(text);
    }
  }

  /** An audio ad with script writing, voice over and post production. */
  async fillAudioAd(opts: { title: string; seconds?: number; music?: 'pro' | 'library' | 'own' }) {
    await this.category('audio_ads');
    await this.title.fill(opts.title);
    const seconds = String(opts.seconds ?? 30);
    await this.page.getByTestId('np-sw-seconds').fill(seconds);
    await this.pickFirst('np-sw-language');
    await this.page.getByTestId('np-sw-topic').fill('Running shoes');
    await this.page.getByTestId('np-sw-purpose').fill('Drive visits to the spring sale');
    await this.page.getByTestId('np-sw-audience').fill('Weekend runners');
    await this.pickFirst('np-avo-language');
    await this.pickFirst('np-avo-gender');
    await this.page.getByTestId('np-pp-seconds').fill(seconds);
    await this.music(opts.music ?? 'pro');
  }

  async music(mode: 'pro' | 'library' | 'own'): Promise<void> {
    await this.page.getByTestId(`music-mode-${mode}`).check();
  }

  tracks(): Locator {
    return this.page.getByTestId('music-track');
  }

  trackPlayButtons(): Locator {
    return this.page.getByTestId('music-track-play');
  }

  async tone(key: string, value: number): Promise<void> {
    await this.page.getByTestId(`tone-${key}`).fill(String(value));
  }

  async addAttachment(
    section: 'np-sw-assets' | 'np-avo-assets' | 'np-pp-assets',
    url: string,
  ): Promise<void> {
    await this.page.getByTestId(`${section}-input`).fill(url);
    await this.page.getByTestId(`${section}-add`).click();
  }

  /** The message shown under a field, found through the field's aria-describedby or its wrapper. */
  fieldError(testid: string): Locator {
    return this.page.locator('.field', { has: this.page.getByTestId(testid) }).locator('.field-error');
  }

  /** Waits for a fresh quote and returns the text shown (e.g. "$31.00"). */
  async quotedPrice(): Promise<string> {
    await this.page.locator('[data-testid="np-quote-price"][data-state="ready"]').waitFor();
    return (await this.quotePrice.textContent())?.trim() ?? '';
  }

  /** The confirmation a valid order asks for, with the amount of its quote. */
  get orderDialog(): Locator {
    return this.page.getByTestId('np-confirm');
  }

  /** Submits the form; a valid order's confirmation (its amount) is accepted, a form with errors asks none. */
  async create(): Promise<void> {
    await this.submit.click();
    const confirm = this.page.getByTestId('np-confirm-confirm');
    await confirm
      .or(this.page.locator('.new-project [aria-invalid="true"]'))
      .first()
      .waitFor({ timeout: 5_000 })
      .catch(() => undefined);
    if (await confirm.isVisible()) await confirm.click();
  }
}
