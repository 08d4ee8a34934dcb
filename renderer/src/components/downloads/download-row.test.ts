// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import type { DownloadJob } from '../../../../shared/ipc';
import DownloadRow from './DownloadRow.vue';

const job = (over: Partial<DownloadJob>): DownloadJob => ({
  id: 'j1',
  projectId: 'p1',
  projectTitle: 'Spring promo',
  deliverableId: 'd1',
  deliverableName: 'part001',
  serviceSubCategory: 'voice_over',
  version: 1,
  format: 'wav',
  state: 'downloading',
  bytes: 50,
  total: 100,
  rate: 10,
  etaSeconds: 5,
  error: null,
  relativePath: 'Spring promo (p1)/voice_over-part001-v1.wav',
  libraryId: null,
  createdAt: '2026-11-22T00:00:00.000Z',
  ...over,
});

const stateText = (j: DownloadJob) =>
  mount(DownloadRow, { props: { job: j, busy: undefined, actionError: null } })
    .get('[data-testid="download-state"]')
    .text();

describe('DownloadRow', () => {
  it('says audio is being measured while it verifies, and plain states otherwise', () => {
    expect(stateText(job({ state: 'verifying', format: 'wav' }))).toBe('Verifying · measuring loudness');
    expect(stateText(job({ state: 'verifying', format: 'mp3' }))).toBe('Verifying · measuring loudness');
    expect(stateText(job({ state: 'verifying', format: 'pdf' }))).toBe('Verifying');
    // Each step of verifying names itself, so a slow one is told apart.
    expect(stateText(job({ state: 'verifying', format: 'wav', verifying: 'saving' }))).toBe(
      'Verifying · saving to the library',
    );
    expect(stateText(job({ state: 'verifying', format: 'wav', verifying: 'analysing' }))).toBe(
      'Verifying · measuring the saved file',
    );
    expect(stateText(job({ state: 'verifying', format: 'pdf', verifying: 'checking' }))).toBe(
      'Verifying · checking the size',
    );
    expect(stateText(job({ state: 'downloading' }))).toBe('Downloading');
    expect(stateText(job({ state: 'done' }))).toBe('Done');
  });

  it('offers to remove the partial file of a download that failed on a full disk (issue 13, item 9)', async () => {
    const failed = job({
      state: 'failed',
      bytes: 40,
      error: { type: 'DISK_FULL', message: 'The disk is full (ENOSPC). The partial file is kept.' },
    });
    const row = mount(DownloadRow, { props: { job: failed, busy: undefined, actionError: null } });
    const discard = row.get('[data-testid="download-discard"]');
    expect(discard.text()).toBe('Remove partial file');
    expect(row.find('[data-testid="download-resume"]').text()).toBe('Retry');
    // One way to drop the part: the plain Cancel is not offered beside it.
    expect(row.find('[data-testid="download-cancel"]').exists()).toBe(false);
    await discard.trigger('click');
    expect(row.emitted('cancel')).toHaveLength(1);
    expect(row.get('[data-testid="download-error"]').text()).toMatch(/partial file is kept/);

    // Other failures keep their plain Cancel.
    const other = mount(DownloadRow, {
      props: {
        job: job({ state: 'failed', error: { type: 'NETWORK', message: 'x' } }),
        busy: undefined,
        actionError: null,
      },
    });
    expect(other.find('[data-testid="download-discard"]').exists()).toBe(false);
    expect(other.find('[data-testid="download-cancel"]').exists()).toBe(true);
  });
});
