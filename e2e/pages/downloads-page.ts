import { expect, type Locator, type Page } from '@playwright/test';

/** Download job states as DownloadRow.vue reports them in `data-state`. */
export type DownloadState =
  'queued' | 'downloading' | 'paused' | 'verifying' | 'done' | 'failed' | 'canceled';

/** The downloads screen (`#/downloads`). */
export class DownloadsPage {
  readonly root: Locator;
  readonly jobs: Locator;
  readonly empty: Locator;
  readonly loadError: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('downloads-view');
    this.jobs = page.locator('li[data-testid^="download-"][data-state]');
    this.empty = page.getByTestId('downloads-empty');
    this.loadError = page.getByTestId('downloads-load-error');
  }

  /** Through the sidebar, keeping the app's state (goto loads the page anew). */
  async open(): Promise<void> {
    await this.page.getByTestId('nav-downloads').click();
    await expect(this.root).toBeVisible();
  }

  async goto(baseUrl: string): Promise<void> {
    await this.page.goto(`${baseUrl}#/downloads`);
    await expect(this.root).toBeVisible();
  }

  job(jobId: string): Locator {
    return this.page.getByTestId(`download-${jobId}`);
  }

  /** Rows of one format (wav, mp3, pdf, txt). */
  jobsOfFormat(format: string): Locator {
    return this.page.locator(`li[data-testid^="download-"][data-state][data-format="${format}"]`);
  }

  async expectState(row: Locator, state: DownloadState, timeout = 60_000): Promise<void> {
    await expect(row).toHaveAttribute('data-state', state, { timeout });
  }

  /** Percent done from the row's progressbar, or null when the size is unknown. */
  async percent(row: Locator): Promise<number | null> {
    const value = await row.getByTestId('download-progress').getAttribute('aria-valuenow');
    return value === null ? null : Number(value);
  }

  async pause(row: Locator): Promise<void> {
    await row.getByTestId('download-pause').click();
  }
  async resume(row: Locator): Promise<void> {
    await row.getByTestId('download-resume').click();
  }
  async cancel(row: Locator): Promise<void> {
    await row.getByTestId('download-cancel').click();
  }

  /** The job's own error (e.g. DISK_FULL) with its catalog code. */
  error(row: Locator): Locator {
    return row.getByTestId('download-error');
  }
}
