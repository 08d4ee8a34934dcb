/** A library entry for tests: one voice-over take of project p1, not yet measured; `over` sets what a test needs. */
import type { LibraryItem } from '../../../../shared/ipc';

export function libraryItem(over: Partial<LibraryItem> = {}): LibraryItem {
  return {
    id: 'a1',
    projectId: 'p1',
    projectTitle: 'Project',
    serviceSubCategory: 'voice_over',
    deliverableId: 'd1',
    deliverableName: 'part1',
    version: 1,
    format: 'wav',
    relativePath: 'Project (p1)/voice_over-part1-v1.wav',
    size: 3,
    sha256: 'abc',
    downloadedAt: '2025-01-01T00:00:00.000Z',
    orderedSeconds: null,
    analysis: null,
    hasPeaks: false,
    ...over,
  };
}
