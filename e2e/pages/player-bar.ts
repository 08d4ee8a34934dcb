import { expect, type Locator, type Page } from '@playwright/test';

/** The shared audition bar at the bottom of the app (PlayerBar.vue). */
export class PlayerBar {
  readonly root: Locator;
  readonly title: Locator;
  readonly subtitle: Locator;
  readonly waveform: Locator;
  readonly playButton: Locator;
  readonly time: Locator;
  readonly close: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('player-bar');
    this.title = page.getByTestId('player-bar-title');
    this.subtitle = page.getByTestId('player-bar-subtitle');
    this.waveform = page.getByTestId('player-bar-waveform');
    this.playButton = page.getByTestId('player-bar-waveform-play');
    this.time = page.getByTestId('player-bar-waveform-time');
    this.close = page.getByTestId('player-bar-close');
    this.error = page.getByTestId('player-bar-error');
  }

  /** Waits until the bar shows `title` and its audio is actually advancing. */
  async expectPlaying(title: string | RegExp): Promise<void> {
    await expect(this.title).toHaveText(title);
    await expect(this.waveform).toHaveAttribute('data-state', 'playing');
    await expect
      .poll(async () => Number(await this.waveform.getAttribute('data-current-time')))
      .toBeGreaterThan(0);
  }

  async togglePlay(): Promise<void> {
    await this.playButton.click();
  }

  async stop(): Promise<void> {
    await this.close.click();
    await expect(this.root).toBeHidden();
  }
}
