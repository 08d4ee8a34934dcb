// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { formatAsOf } from '../display-text';
import { createFakeApi, serviceError, withApi } from './fake-api.test-util';
import { libraryItem } from './library-item.test-util';
import { useProfilesStore } from './profiles';
import { PROJECTS_PAGE_SIZE, useProjectsStore } from './projects';
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
const local = libraryItem({
  id: 'lib-1',
  size: 1000,
  downloadedAt: '2026-11-26T10:00:00Z',
  orderedSeconds: 30,
  hasPeaks: false,
});

const state = (reachability: string) => ({
  profiles: [{ id: 'sandbox', name: 'Sandbox', kind: 'sandbox', signedOut: false, reachability }],
  activeId: 'sandbox',
  secrets: { kind: 'memory', secure: true, warning: null },
  sandbox: { state: 'running' },
});

describe('reads answered from main’s read mirror', () => {
  it('marks the projects list offline, as of its read, and fresh again when the service answers', async () => {
    let mirrored = true;
    const { api } = createFakeApi({
      'profiles.list': () => state('unreachable'),
      'projects.list': () => ({ page: 1, total: 1, projects: [row], ...(mirrored ? { asOf: AS_OF } : {}) }),
    });
    const [store, profiles] = withApi(api, () => [useProjectsStore(), useProfilesStore()] as const);
    await profiles.load();
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
      'profiles.list': () => state('unreachable'),
      'projects.get': () => ({ ...project, asOf: AS_OF }),
      'deliverables.list': () => ({ items: [take], unreadable: 0, asOf: older }),
    });
    const [store, profiles] = withApi(api, () => [useProjectsStore(), useProfilesStore()] as const);
    await profiles.load();
    await store.loadProject('p1');
    expect(store.current?.title).toBe('Spring ad');
    expect(store.deliverables.map((d) => d.id)).toEqual(['d1']);
    expect(store.currentOffline).toBe(true);
    expect(store.currentAsOf).toBe(older);
  });

  it('reads the list and the open project again once the service answers again', async () => {
    let away = true;
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
      'profiles.list': () => state('unreachable'),
    });
    const [review, profiles] = withApi(f.api, () => [useReviewStore(), useProfilesStore()] as const);
    await profiles.load();
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

  it('shows a loaded answer at once, not as offline while the service answers, and puts the service’s answer in its place', async () => {
    const f = createFakeApi({
      'profiles.list': () => state('reachable'),
      // The list read to its end: page 1, then an empty page 2, both from what was loaded.
      'projects.list': (input) => {
        const page = (input as { page: number }).page;
        return { page, total: 1, projects: page === 1 ? [row] : [], asOf: AS_OF };
      },
      'projects.get': () => ({ ...project, asOf: AS_OF }),
      'deliverables.list': () => ({ items: [take], unreadable: 0, asOf: AS_OF }),
    });
    const [store, profiles] = withApi(f.api, () => [useProjectsStore(), useProfilesStore()] as const);
    await profiles.load();
    const stopList = store.listenList();
    await store.loadList();
    expect(store.rows.map((p) => p.title)).toEqual(['Spring ad']);
    expect(store.listAsOf).toBe(AS_OF);
    expect(store.listOffline).toBe(false);

    // The service tells the same: the rows shown stay as they are (nothing renders again).
    const shown = store.rows;
    f.emit('read.refreshed', {
      profileId: 'sandbox',
      channel: 'projects.list',
      input: { page: 1, pageSize: PROJECTS_PAGE_SIZE },
      value: { page: 1, total: 1, projects: [{ ...row }] },
    });
    expect(store.rows).toBe(shown);
    // Another profile's answer, or another search's, is not this list's.
    const fresh = {
      page: 1,
      total: 2,
      projects: [
        { ...row, id: 'p2', title: 'New' },
        { ...row, title: 'Renamed' },
      ],
    };
    f.emit('read.refreshed', {
      profileId: 'other',
      channel: 'projects.list',
      input: { page: 1, pageSize: PROJECTS_PAGE_SIZE },
      value: fresh,
    });
    f.emit('read.refreshed', {
      profileId: 'sandbox',
      channel: 'projects.list',
      input: { page: 1, pageSize: PROJECTS_PAGE_SIZE, titleQuery: 'x' },
      value: fresh,
    });
    expect(store.rows.map((p) => p.title)).toEqual(['Spring ad']);
    f.emit('read.refreshed', {
      profileId: 'sandbox',
      channel: 'projects.list',
      input: { page: 1, pageSize: PROJECTS_PAGE_SIZE },
      value: fresh,
    });
    // In place at once (no reorder, no shrinking list); the whole list once every page read is the service's.
    expect(store.rows.map((p) => p.title)).toEqual(['Renamed']);
    expect(store.listAsOf).toBe(AS_OF);
    f.emit('read.refreshed', {
      profileId: 'sandbox',
      channel: 'projects.list',
      input: { page: 2, pageSize: PROJECTS_PAGE_SIZE },
      value: { page: 2, total: 2, projects: [] },
    });
    expect(store.rows.map((p) => p.title)).toEqual(['New', 'Renamed']);
    expect(store.total).toBe(2);
    expect(store.listAsOf).toBeNull();
    stopList();

    const stopProject = store.listenProject('p1');
    await store.loadProject('p1');
    expect(store.current?.status).toBe('paid');
    expect(store.currentOffline).toBe(false);
    expect(store.currentAsOf).toBe(AS_OF);
    f.emit('read.refreshed', {
      profileId: 'sandbox',
      channel: 'projects.get',
      input: { id: 'p1' },
      value: { ...project, status: 'completed' },
    } as never);
    expect(store.current?.status).toBe('completed');
    expect(store.currentAsOf).toBe(AS_OF); // its takes are still as loaded
    f.emit('read.refreshed', {
      profileId: 'sandbox',
      channel: 'deliverables.list',
      input: { projectId: 'p1' },
      value: { items: [{ ...take, status: 'approved' }], unreadable: 0 },
    } as never);
    expect(store.deliverables.map((d) => d.status)).toEqual(['approved']);
    expect(store.currentAsOf).toBeNull();
    stopProject();

    // After the producer's own decision the project is read from the service, not from what was loaded.
    await store.decided('p1');
    expect(f.calls.at(-1)).toEqual({ channel: 'deliverables.list', input: { projectId: 'p1', fresh: true } });
    expect(f.calls.at(-2)).toEqual({ channel: 'projects.get', input: { id: 'p1', fresh: true } });
  });

  it('puts the service’s answers to an open take in place of the loaded ones, keeping the version chosen', async () => {
    const versions = [{ created: '2026-11-25T10:00:00', instructions: null, urls: take.urls }];
    const f = createFakeApi({
      'profiles.list': () => state('reachable'),
      'deliverables.get': () => ({ ...take, asOf: AS_OF }),
      'revisions.versions': () => ({ ...take, versions, asOf: AS_OF }),
      'library.list': () => [],
      'qa.targets': () => ({}),
      'projects.get': () => ({ ...project, asOf: AS_OF }),
      'deliverables.list': () => ({ items: [take], unreadable: 0, asOf: AS_OF }),
      'media.remoteUrl': () => ({ url: '/media/remote/x', contentType: 'audio/wav' }),
    });
    const [review, profiles] = withApi(f.api, () => [useReviewStore(), useProfilesStore()] as const);
    await profiles.load();
    await review.load('d1', 'p1');
    const stop = review.listen();
    expect(review.offline).toBe(false);
    expect(review.asOf).toBe(AS_OF);
    // The producer picks the version they listen to: what arrives later does not move the player.
    await review.selectVersion(1);
    f.emit('read.refreshed', {
      profileId: 'sandbox',
      channel: 'deliverables.get',
      input: { id: 'd1' },
      value: { ...take, status: 'approved' },
    } as never);
    expect(review.deliverable?.status).toBe('approved');
    expect(review.asOf).toBe(AS_OF);
    const revised = [
      ...versions,
      { created: '2026-11-26T10:00:00', instructions: 'Warmer', urls: take.urls },
    ];
    f.emit('read.refreshed', {
      profileId: 'sandbox',
      channel: 'revisions.versions',
      input: { deliverableId: 'd1' },
      value: { ...take, versions: revised },
    } as never);
    expect(review.versions).toHaveLength(2);
    expect(review.selectedVersion).toBe(1);
    expect(review.asOf).toBeNull();
    expect(review.offline).toBe(false);
    stop();
  });

  it('asks for the service’s answer itself when the event would come before the screen listens', async () => {
    // main answers what was loaded at once (asOf) and the service's own answer to a `fresh` read; the event that
    // carries the service's answer behind a loaded one is never delivered here (it came before anyone listened).
    const fresh = (input: unknown) => (input as { fresh?: boolean }).fresh === true;
    const revised = [
      { created: '2026-11-25T10:00:00', instructions: null, urls: take.urls },
      { created: '2026-11-26T10:00:00', instructions: 'Warmer', urls: take.urls },
    ];
    const f = createFakeApi({
      'profiles.list': () => state('reachable'),
      'projects.list': (input) => {
        const page = (input as { page: number }).page;
        if (!fresh(input)) return { page, total: 1, projects: page === 1 ? [row] : [], asOf: AS_OF };
        return { page, total: 2, projects: page === 1 ? [{ ...row, id: 'p2', title: 'New' }, row] : [] };
      },
      'projects.get': (input) =>
        fresh(input) ? { ...project, status: 'completed' } : { ...project, asOf: AS_OF },
      'deliverables.list': (input) =>
        fresh(input)
          ? { items: [{ ...take, status: 'approved' }], unreadable: 0 }
          : { items: [take], unreadable: 0, asOf: AS_OF },
      'deliverables.get': (input) =>
        fresh(input) ? { ...take, status: 'revisionRequested' } : { ...take, asOf: AS_OF },
      'revisions.versions': (input) =>
        fresh(input)
          ? { ...take, versions: revised }
          : { ...take, versions: revised.slice(0, 1), asOf: AS_OF },
      'library.list': () => [],
      'qa.targets': () => ({}),
      'media.remoteUrl': () => ({ url: '/media/remote/x', contentType: 'audio/wav' }),
    });
    const [store, review, profiles] = withApi(
      f.api,
      () => [useProjectsStore(), useReviewStore(), useProfilesStore()] as const,
    );
    await profiles.load();
    await store.loadList();
    await vi.waitFor(() => expect(store.rows.map((p) => p.title)).toEqual(['New', 'Spring ad']));
    expect(store.listAsOf).toBeNull();

    await store.loadProject('p1');
    await vi.waitFor(() => expect(store.currentAsOf).toBeNull());
    expect(store.current?.status).toBe('completed');
    expect(store.deliverables.map((d) => d.status)).toEqual(['approved']);

    // An open take: its status and its versions as the service has them, the newest shown (nothing was picked).
    await review.load('d1', 'p1');
    await vi.waitFor(() => expect(review.asOf).toBeNull());
    expect(review.deliverable?.status).toBe('revisionRequested');
    expect(review.versions).toHaveLength(2);
    expect(review.selectedVersion).toBe(2);
  });

  it('says "as of" with the clock on the same day and the day before it otherwise', () => {
    const now = Date.parse('2026-11-26T12:00:00');
    expect(formatAsOf(new Date('2026-11-26T10:42:00').toISOString(), now)).toBe('10:42');
    expect(formatAsOf(new Date('2026-11-24T08:05:00').toISOString(), now)).toBe('24 Nov, 08:05');
    expect(formatAsOf(null, now)).toBe('—');
  });
});
