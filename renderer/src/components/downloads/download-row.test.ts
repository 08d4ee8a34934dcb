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
    expect(stateText(job({ state: 'downloading' }))).toBe('Downloading');
    expect(stateText(job({ state: 'done' }))).toBe('Done');
  });
});
