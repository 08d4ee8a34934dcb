import { expect, type Locator, type Page } from '@playwright/test';

/** The library screen (`#/library`): files on disk grouped by project, playable offline. */
export class LibraryPage {
  readonly root: Locator;
  readonly items: Locator;
  readonly empty: Locator;
  readonly filter: Locator;
  readonly loadError: Locator;
  readonly removeDialog: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('library-view');
    this.items = page.locator('li[data-testid^="library-item-"]');
    this.empty = page.getByTestId('library-empty');
    this.filter = page.getByTestId('library-filter');
    this.loadError = page.getByTestId('library-load-error');
    this.removeDialog = page.getByTestId('library-remove-dialog');
  }

  /** Through the sidebar, keeping the app's state (goto loads the page anew). */
  async open(): Promise<void> {
    await this.page.getByTestId('nav-library').click();
    await expect(this.root).toBeVisible();
  }

  async goto(baseUrl: string): Promise<void> {
    await this.page.goto(`${baseUrl}#/library`);
    await expect(this.root).toBeVisible();
  }

  group(projectId: string): Locator {
    return this.page.getByTestId(`library-group-${projectId}`);
  }

  item(libraryId: string): Locator {
    return this.page.getByTestId(`library-item-${libraryId}`);
  }

  /** Rows of one format within a project group. */
  itemsOf(projectId: string, format?: string): Locator {
    const rows = this.group(projectId).locator('li[data-testid^="library-item-"]');
    return format ? rows.and(this.page.locator(`[data-format="${format}"]`)) : rows;
  }

  async play(row: Locator): Promise<void> {
    await row.getByTestId('library-play').click();
  }

  async reveal(row: Locator): Promise<void> {
    await row.getByTestId('library-reveal').click();
  }

  /** Removes a file, confirming (or cancelling) the dialog. */
  async remove(row: Locator, confirm = true): Promise<void> {
    await row.getByTestId('library-remove').click();
    await expect(this.removeDialog).toBeVisible();
    await this.page
      .getByTestId(confirm ? 'library-remove-dialog-confirm' : 'library-remove-dialog-cancel')
      .click();
  }

  qaBadge(row: Locator): Locator {
    return row.getByTestId('library-qa');
  }

  error(row: Locator): Locator {
    return row.getByTestId('library-item-error');
  }
}
