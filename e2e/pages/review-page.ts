import { expect, type Locator, type Page } from '@playwright/test';

/** Names of the QA figures shown by QaPanel.vue (`qa-figure-<key>`). */
export type QaFigure =
  'integrated' | 'lra' | 'momentary' | 'shortTerm' | 'truePeak' | 'samplePeak' | 'duration' | 'format';

/** The review screen (`#/review/:deliverableId?projectId=`): player, versions, QA and the decision actions. */
export class ReviewPage {
  readonly root: Locator;
  readonly title: Locator;
  readonly status: Locator;
  readonly loadError: Locator;
  readonly waveform: Locator;
  readonly waveformCanvas: Locator;
  readonly playButton: Locator;
  readonly time: Locator;
  readonly loopButton: Locator;
  readonly zoom: Locator;
  readonly placeholder: Locator;
  readonly approveButton: Locator;
  readonly approveError: Locator;
  readonly rejectButton: Locator;
  readonly rejectDialog: Locator;
  readonly rejectError: Locator;
  readonly revisionButton: Locator;
  readonly revisionForm: Locator;
  readonly revisionInstructions: Locator;
  readonly revisionError: Locator;
  readonly winnerButton: Locator;
  readonly winnerDialog: Locator;
  readonly winnerError: Locator;
  readonly versionList: Locator;
  readonly qaPanel: Locator;
  readonly qaTarget: Locator;
  readonly qaVerdict: Locator;
  readonly qaDownload: Locator;
  readonly script: Locator;
  readonly scriptContent: Locator;
  readonly openPdf: Locator;
  readonly downloadPdf: Locator;
  readonly playerPanel: Locator;
  readonly readAlong: Locator;
  readonly history: Locator;
  readonly historyEvents: Locator;
  readonly decisionScope: Locator;
  readonly markers: Locator;

  constructor(readonly page: Page) {
    const id = (testid: string) => page.getByTestId(testid);
    this.root = id('review-view');
    this.title = id('review-title');
    this.status = this.root.getByTestId('review-status');
    this.loadError = id('review-load-error');
    this.waveform = id('review-waveform');
    this.waveformCanvas = id('review-waveform-canvas');
    this.playButton = id('review-waveform-play');
    this.time = id('review-waveform-time');
    this.loopButton = id('review-waveform-loop');
    this.zoom = id('review-waveform-zoom');
    this.placeholder = id('review-waveform-placeholder');
    this.approveButton = id('review-approve');
    this.approveError = id('review-approve-error');
    this.rejectButton = id('review-reject');
    this.rejectDialog = id('reject-dialog');
    this.rejectError = id('reject-error');
    this.revisionButton = id('review-request-revision');
    this.revisionForm = id('revision-form');
    this.revisionInstructions = id('revision-instructions');
    this.revisionError = id('revision-error');
    this.winnerButton = id('review-select-winner');
    this.winnerDialog = id('winner-dialog');
    this.winnerError = id('winner-dialog-error');
    this.versionList = id('version-list');
    this.qaPanel = id('qa-panel');
    this.qaTarget = id('qa-target');
    this.qaVerdict = id('qa-verdict');
    this.qaDownload = id('qa-download');
    this.script = id('script-view');
    this.scriptContent = id('script-content');
    this.openPdf = id('script-open-pdf');
    this.downloadPdf = id('script-download-pdf');
    this.playerPanel = page.locator('.player-panel');
    this.readAlong = id('read-along');
    this.history = id('deliverable-history');
    this.historyEvents = id('history-event');
    this.decisionScope = id('review-decision-scope');
    // Marker flags live in wavesurfer's open shadow root; test ids pierce it.
    this.markers = this.waveform.getByTestId('waveform-marker');
  }

  /** Opens the screen directly; pass the project id so contest and audio-ads actions appear. */
  async goto(baseUrl: string, deliverableId: string, projectId?: string): Promise<void> {
    const query = projectId ? `?projectId=${encodeURIComponent(projectId)}` : '';
    await this.page.goto(`${baseUrl}#/review/${encodeURIComponent(deliverableId)}${query}`);
    await this.expectLoaded();
  }

  async expectLoaded(): Promise<void> {
    await expect(this.root).toBeVisible();
    await expect(this.status).toBeVisible();
  }

  async expectStatus(status: string): Promise<void> {
    await expect(this.status).toHaveAttribute('data-status', status);
  }

  /** Waits for the waveform to be drawn and returns its first-paint time in ms (peaks arrival to first draw). */
  async waitForWaveform(): Promise<number | null> {
    await expect(this.waveform).not.toHaveAttribute('data-state', 'loading');
    const measured = await this.page.evaluate(() => {
      const entries = performance.getEntriesByName('waveform-first-paint', 'measure');
      return entries.at(-1)?.duration ?? null;
    });
    return measured;
  }

  async currentTime(): Promise<number> {
    return Number(await this.waveform.getAttribute('data-current-time'));
  }

  async play(): Promise<void> {
    if ((await this.waveform.getAttribute('data-state')) !== 'playing') await this.playButton.click();
    await expect(this.waveform).toHaveAttribute('data-state', 'playing');
  }

  async pause(): Promise<void> {
    if ((await this.waveform.getAttribute('data-state')) === 'playing') await this.playButton.click();
    await expect(this.waveform).not.toHaveAttribute('data-state', 'playing');
  }

  /** Presses a transport key with the player focused (Space, j, k, l, ArrowLeft, Shift+ArrowRight, Home, End). */
  async pressKey(key: string): Promise<void> {
    await this.waveform.focus();
    await this.page.keyboard.press(key);
  }

  /** Clicks the waveform at a fraction (0..1) of its width. */
  async clickWaveformAt(fraction: number): Promise<void> {
    const box = await this.waveformCanvas.boundingBox();
    if (!box) throw new Error('waveform not visible');
    await this.page.mouse.click(box.x + box.width * fraction, box.y + Math.min(40, box.height / 2));
  }

  /** A history line by kind (`delivered`, `revisionRequested`, `revised`, `approved`, `rejected`, `replacedBy`...). */
  historyEvent(kind: string): Locator {
    return this.historyEvents.and(this.page.locator(`[data-kind="${kind}"]`));
  }

  version(n: number): Locator {
    return this.page.getByTestId(`version-${n}`);
  }

  /** A/B: switches version and returns the playhead before and after, for "keeps the position" checks. */
  async switchVersion(n: number): Promise<{ before: number; after: number }> {
    const before = await this.currentTime();
    const settled = async () => Number(await this.waveform.getAttribute('data-settled'));
    const loads = await settled();
    await this.version(n).click();
    await expect(this.version(n)).toHaveAttribute('aria-pressed', 'true');
    // The switch has landed (new media drawn, position kept) only when the player says so.
    await expect.poll(settled).toBeGreaterThan(loads);
    await expect(this.waveform).not.toHaveAttribute('data-state', 'loading');
    return { before, after: await this.currentTime() };
  }

  async approve(): Promise<void> {
    await this.approveButton.click();
  }

  async reject(options: {
    reasonCode: string;
    reason?: string;
    newGenderAndAge?: string;
    cancel?: boolean;
  }): Promise<void> {
    await this.rejectButton.click();
    await expect(this.rejectDialog).toBeVisible();
    await this.page.getByTestId('reject-code').selectOption(options.reasonCode);
    if (options.newGenderAndAge) {
      const select = this.page.getByTestId('reject-gender-age');
      await expect(select).toBeEnabled();
      await select.selectOption(options.newGenderAndAge);
    }
    if (options.reason) await this.page.getByTestId('reject-reason').fill(options.reason);
    await this.page.getByTestId(options.cancel ? 'reject-dialog-cancel' : 'reject-dialog-confirm').click();
  }

  async openRevisionForm(): Promise<void> {
    if (!(await this.revisionForm.isVisible())) await this.revisionButton.click();
    await expect(this.revisionForm).toBeVisible();
  }

  async requestRevision(options: {
    instructions?: string;
    revisionCode?: string;
    reason?: 'script' | 'audio' | 'both';
    checkTalent?: boolean;
  }): Promise<void> {
    await this.openRevisionForm();
    if (options.instructions !== undefined) await this.revisionInstructions.fill(options.instructions);
    if (options.revisionCode) await this.page.getByTestId('revision-code').selectOption(options.revisionCode);
    if (options.reason) await this.page.getByTestId('revision-reason').selectOption(options.reason);
    if (options.checkTalent !== undefined)
      await this.page.getByTestId('revision-check-talent').setChecked(options.checkTalent);
    await this.page.getByTestId('revision-submit').click();
  }

  async selectWinner(): Promise<void> {
    await this.winnerButton.click();
    await this.page.getByTestId('winner-dialog-confirm').click();
  }

  async setQaTarget(target: 'ebu-r128' | 'atsc-a85' | 'podcast' | 'streaming'): Promise<void> {
    await this.qaTarget.selectOption(target);
  }

  qaFigure(name: QaFigure): Locator {
    return this.page.getByTestId(`qa-figure-${name}`);
  }

  qaCheck(id: 'integrated' | 'truePeak' | 'duration'): Locator {
    return this.page.getByTestId(`qa-check-${id}`);
  }

  /** The `data-error-type` of an ErrorMessage (e.g. 'TALENT_ON_VACATION'). */
  async errorType(error: Locator): Promise<string | null> {
    await expect(error).toBeVisible();
    return error.getAttribute('data-error-type');
  }
}
