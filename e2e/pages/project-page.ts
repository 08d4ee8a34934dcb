import type { Locator, Page } from 'playwright-core';

/** One project (ProjectView.vue): services, deliverables by service, cancel / approve all / download all. */
export class ProjectPage {
  readonly root: Locator;
  readonly title: Locator;
  readonly status: Locator;
  readonly price: Locator;
  readonly services: Locator;
  readonly deliverables: Locator;
  readonly deliverablesEmpty: Locator;
  readonly approveAll: Locator;
  readonly approveAllError: Locator;
  readonly downloadAll: Locator;
  readonly downloadError: Locator;
  readonly downloadAllDialog: Locator;
  readonly cancel: Locator;
  readonly cancelDialog: Locator;
  readonly cancelError: Locator;
  readonly error: Locator;
  readonly brief: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('project-view');
    this.title = page.getByTestId('project-title');
    this.status = page.getByTestId('project-meta').getByTestId('status-badge').first();
    this.price = page.getByTestId('project-price');
    this.services = page.getByTestId('project-service');
    this.deliverables = page.getByTestId('deliverable-item');
    this.deliverablesEmpty = page.getByTestId('deliverables-empty');
    this.approveAll = page.getByTestId('project-approve-all');
    this.approveAllError = page.getByTestId('project-approve-error');
    this.downloadAll = page.getByTestId('project-download-all');
    this.downloadError = page.getByTestId('project-download-error');
    this.downloadAllDialog = page.getByTestId('download-all-dialog');
    this.cancel = page.getByTestId('project-cancel');
    this.cancelDialog = page.getByTestId('cancel-dialog');
    this.cancelError = page.getByTestId('cancel-error');
    this.error = page.getByTestId('project-error');
    this.brief = page.getByTestId('project-brief');
  }

  /** Opens "Download all", sets the formats and rejected takes when given, and confirms. */
  async downloadAllFiles(choice: { formats?: Array<'wav' | 'mp3' | 'pdf'>; includeRejected?: boolean } = {}) {
    await this.downloadAll.click();
    await this.downloadAllDialog.waitFor();
    if (choice.formats) {
      for (const format of ['wav', 'mp3', 'pdf'] as const) {
        await this.page
          .getByTestId(`download-all-format-${format}`)
          .setChecked(choice.formats.includes(format));
      }
    }
    if (choice.includeRejected !== undefined) {
      await this.page.getByTestId('download-all-rejected').setChecked(choice.includeRejected);
    }
    await this.page.getByTestId('download-all-dialog-confirm').click();
    await this.downloadAllDialog.waitFor({ state: 'hidden' });
  }

  async goto(projectId: string): Promise<void> {
    await this.page.evaluate(`location.hash = ${JSON.stringify(`#/projects/${projectId}`)}`);
    await this.title.waitFor();
  }

  /** The project id from the URL. */
  async id(): Promise<string> {
    return (await this.root.getAttribute('data-project-id')) ?? '';
  }

  group(subCategory: 'scriptwriting' | 'voice_over' | 'post-production'): Locator {
    return this.page.locator(`[data-testid="deliverable-group"][data-group="${subCategory}"]`);
  }

  deliverable(id: string): Locator {
    return this.page.locator(`[data-testid="deliverable-item"][data-deliverable-id="${id}"]`);
  }

  async openReview(index = 0): Promise<void> {
    await this.deliverables.nth(index).getByTestId('deliverable-review-link').click();
  }

  /** Approves all after the confirmation. */
  async approveAllConfirmed(): Promise<void> {
    await this.approveAll.click();
    await this.page.getByTestId('approve-all-dialog-confirm').click();
  }

  /** Cancels with a reason code (main or main.sub) and a note, after the confirmation. */
  async cancelWith(reasonCode: string, note = ''): Promise<void> {
    await this.cancel.click();
    const [main] = reasonCode.split('.');
    await this.page.getByTestId('cancel-reason-main').selectOption(main!);
    if (reasonCode.includes('.')) await this.page.getByTestId('cancel-reason-sub').selectOption(reasonCode);
    if (note) await this.page.getByTestId('cancel-reason-text').fill(note);
    await this.page.getByTestId('cancel-dialog-confirm').click();
  }

  async refresh(): Promise<void> {
    await this.page.reload();
    await this.title.waitFor();
  }
}
