/** A library entry for the stores' tests: take 1 of "Spring ad" (p1), version 1, not measured; `over` sets the rest. */
import type { LibraryItem } from '../../../shared/ipc';

export const libraryItem = (over: Partial<LibraryItem> = {}): LibraryItem => ({
  id: 'l1',
  projectId: 'p1',
  projectTitle: 'Spring ad',
  serviceSubCategory: 'voice_over',
  deliverableId: 'd1',
  deliverableName: '1',
  version: 1,
  format: 'wav',
  relativePath: 'Spring ad/1.wav',
  size: 10,
  sha256: 'x',
  downloadedAt: '2026-01-01T10:00:00Z',
  orderedSeconds: null,
  analysis: null,
  hasPeaks: true,
  ...over,
});
