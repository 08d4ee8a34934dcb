// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import type { LibraryItem } from '../../../shared/ipc';
import { formatAsOf } from '../display-text';
import { createFakeApi, serviceError, withApi } from './fake-api.test-util';
import { useProfilesStore } from './profiles';
import { useProjectsStore } from './projects';
import { useReviewStore } from './review';

/**
 * Issue 23 item 6: main answers a read it had loaded before from its read mirror, marked `asOf`, when the service
 * cannot be reached. The screens show it as what it is: offline, as of that time.
 */
const AS_OF = '2026-11-26T10:42:00.000Z';
const row = { id: 'p1', title: 'Spring ad', created: '2026-11-20T09:00:00', status: 'paid' };
const project = { ...row, mainService: 'voice_over', services: [] };
const take = {
  id: 'd1',
  serviceSubCategory: 'voice_over',
  name: '1',
  status: 'reviewable',
  urls: { wav: 'https://svc/d1.wav', mp3: 'https://svc/d1.mp3' },
};
const local: LibraryItem = {
  id: 'lib-1',
  projectId: 'p1',
  projectTitle: 'Spring ad',
  serviceSubCategory: 'voice_over',
  deliverableId: 'd1',
  deliverableName: '1',
  version: 1,
  format: 'wav',
  relativePath: 'Spring ad/1.wav',
  size: 1000,
  sha256: 'x',
  downloadedAt: '2026-11-26T10:00:00Z',
  orderedSeconds: 30,
  analysis: null,
  hasPeaks: false,
};

describe('reads answered from main’s read mirror', () => {
  it('marks the projects list offline, as of its read, and fresh again when the service answers', async () => {
    let mirrored = true;
    const { api } = createFakeApi({
      'projects.list': () => ({ page: 1, total: 1, projects: [row], ...(mirrored ? { asOf: AS_OF } : {}) }),
    });
    const store = withApi(api, () => useProjectsStore());
    await store.loadList();
    expect(store.rows.map((p) => p.id)).toEqual(['p1']);
    expect(store.listOffline).toBe(true);
    expect(store.listAsOf).toBe(AS_OF);
    mirrored = false;
    await store.loadList();
    expect(store.listOffline).toBe(false);
    expect(store.listAsOf).toBeNull();
  });

  it('marks the open project offline with the oldest read of its answers', async () => {
    const older = '2026-11-26T09:15:00.000Z';
    const { api } = createFakeApi({
      'projects.get': () => ({ ...project, asOf: AS_OF }),
      'deliverables.list': () => ({ items: [take], unreadable: 0, asOf: older }),
    });
    const store = withApi(api, () => useProjectsStore());
    await store.loadProject('p1');
    expect(store.current?.title).toBe('Spring ad');
    expect(store.deliverables.map((d) => d.id)).toEqual(['d1']);
    expect(store.currentOffline).toBe(true);
    expect(store.currentAsOf).toBe(older);
  });

  it('reads the list and the open project again once the service answers again', async () => {
    let away = true;
    const state = (reachability: string) => ({
      profiles: [{ id: 'sandbox', name: 'Sandbox', kind: 'sandbox', signedOut: false, reachability }],
      activeId: 'sandbox',
      secrets: { kind: 'memory', secure: true, warning: null },
      sandbox: { state: 'running' },
    });
    const mark = () => (away ? { asOf: AS_OF } : {});
    const f = createFakeApi({
      'profiles.list': () => state('unreachable'),
      'projects.list': () => ({ page: 1, total: 1, projects: [row], ...mark() }),
      'projects.get': () => ({ ...project, ...mark() }),
      'deliverables.list': () => ({ items: [take], unreadable: 0, ...mark() }),
    });
    const [store, profiles] = withApi(f.api, () => [useProjectsStore(), useProfilesStore()] as const);
    await profiles.load();
    const stop = profiles.listen();
    await store.loadList();
    await store.loadProject('p1');
    expect(store.listOffline).toBe(true);
    expect(store.currentOffline).toBe(true);

    away = false;
    f.emit('profile.changed', state('reachable') as never);
    await vi.waitFor(() => {
      expect(store.listOffline).toBe(false);
      expect(store.currentOffline).toBe(false);
    });
    stop();
  });

  it('reviews a mirrored take offline and plays its library file, not the service’s', async () => {
    const f = createFakeApi({
      'deliverables.get': () => ({ ...take, asOf: AS_OF }),
      'revisions.versions': () => ({
        ...take,
        versions: [{ created: '2026-11-25T10:00:00', instructions: null, urls: take.urls }],
        asOf: AS_OF,
      }),
      'library.list': () => [local],
      'projects.get': () => ({ ...project, asOf: AS_OF }),
      'deliverables.list': () => ({ items: [take], unreadable: 0, asOf: AS_OF }),
      'qa.targets': () => ({}),
      'media.libraryUrl': (input) => ({
        url: `/media/library/${(input as { id: string }).id}`,
        contentType: 'audio/wav',
      }),
      'media.remoteUrl': () => {
        throw serviceError('NETWORK_UNREACHABLE', 'down', 0);
      },
      'audio.qa': () => ({ target: 'ebu-r128', pass: true, checks: [] }),
    });
    const review = withApi(f.api, () => useReviewStore());
    await review.load('d1', 'p1');
    expect(review.loadError).toBeNull();
    expect(review.offline).toBe(true);
    expect(review.asOf).toBe(AS_OF);
    expect(review.source?.url).toBe('/media/library/lib-1');
    expect(f.calls.some((c) => c.channel === 'media.remoteUrl')).toBe(false);
  });

  it('falls back on what the project page showed when main had not loaded the take either', async () => {
    const f = createFakeApi({
      'deliverables.get': () => {
        throw serviceError('NOT_LOADED_OFFLINE', 'This take was not loaded on this computer yet', 0);
      },
      'revisions.versions': () => {
        throw serviceError('NOT_LOADED_OFFLINE', 'not loaded', 0);
      },
      'library.list': () => [local],
      'qa.targets': () => ({}),
      'projects.get': () => ({ ...project, asOf: AS_OF }),
      'deliverables.list': () => ({ items: [take], unreadable: 0, asOf: AS_OF }),
      'media.libraryUrl': () => ({ url: '/media/library/lib-1', contentType: 'audio/wav' }),
      'audio.qa': () => ({ target: 'ebu-r128', pass: true, checks: [] }),
    });
    const review = withApi(f.api, () => useReviewStore());
    await review.load('d1', 'p1', { deliverable: take });
    expect(review.loadError).toBeNull();
    expect(review.offline).toBe(true);
    expect(review.source?.url).toBe('/media/library/lib-1');
  });

  it('says "as of" with the clock on the same day and the day before it otherwise', () => {
    const now = Date.parse('2026-11-26T12:00:00');
    expect(formatAsOf(new Date('2026-11-26T10:42:00').toISOString(), now)).toBe('10:42');
    expect(formatAsOf(new Date('2026-11-24T08:05:00').toISOString(), now)).toBe('24 Nov, 08:05');
    expect(formatAsOf(null, now)).toBe('—');
  });
});
