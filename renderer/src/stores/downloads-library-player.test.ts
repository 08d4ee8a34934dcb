// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { DownloadJob } from '../../../shared/ipc';
import { useDownloadsStore, progressOf } from './downloads';
import { createFakeApi, serviceError, withApi } from './fake-api.test-util';
import { libraryItem } from './library-item.test-util';
import { groupByProject, takeStateOf, useLibraryStore } from './library';
import { usePlayerStore } from './player';
import { useProfilesStore } from './profiles';

const job = (over: Partial<DownloadJob> = {}): DownloadJob => ({
  id: 'j1',
  projectId: 'p1',
  projectTitle: 'Spring ad',
  deliverableId: 'd1',
  deliverableName: '1',
  serviceSubCategory: 'voice_over',
  version: 1,
  format: 'wav',
  state: 'downloading',
  bytes: 0,
  total: 1000,
  rate: 0,
  etaSeconds: null,
  error: null,
  relativePath: 'Spring ad/1.wav',
  libraryId: null,
  createdAt: '2026-01-01T10:00:00Z',
  ...over,
});

const item = libraryItem;

describe('downloads and library per profile (issue 15 item 1)', () => {
  const profile = (id: string) => ({
    id,
    name: id,
    baseUrl: '',
    kind: 'service',
    hasToken: true,
    createdAt: '',
  });
  const state = (activeId: string) => ({
    profiles: [profile('sandbox'), profile('p2')],
    activeId,
    secrets: { kind: 'memory', secure: true, warning: null },
  });

  it('shows no job of another profile from events, and lists again on a switch', async () => {
    let active = 'sandbox';
    const f = createFakeApi({
      'profiles.list': () => state(active),
      'downloads.list': () => (active === 'sandbox' ? [job({ profileId: 'sandbox' })] : []),
      'library.list': () => (active === 'sandbox' ? [item({ profileId: 'sandbox' })] : []),
      'qa.targets': () => ({}),
    });
    const { downloads, library, profiles } = withApi(f.api, () => ({
      downloads: useDownloadsStore(),
      library: useLibraryStore(),
      profiles: useProfilesStore(),
    }));
    await profiles.load();
    const offs = [profiles.listen(), downloads.listen(), library.listen()];
    await Promise.all([downloads.load(), library.load()]);
    expect(downloads.jobs.map((j) => j.id)).toEqual(['j1']);

    // A job of the other profile (still running after a switch away from it) is not this profile's.
    f.emit('downloads.changed', job({ id: 'j9', profileId: 'p2', createdAt: '2026-01-03T00:00:00Z' }));
    expect(downloads.jobs.map((j) => j.id)).toEqual(['j1']);

    active = 'p2';
    f.emit('profile.changed', state('p2') as never);
    await new Promise((r) => setTimeout(r, 0));
    await Promise.resolve();
    expect(downloads.jobs).toEqual([]);
    expect(library.items).toEqual([]);
    f.emit('downloads.changed', job({ id: 'j9', profileId: 'p2', createdAt: '2026-01-03T00:00:00Z' }));
    expect(downloads.jobs.map((j) => j.id)).toEqual(['j9']);
    offs.forEach((off) => off());
  });
});

describe('downloads store', () => {
  it('applies throttled progress and job changes from events, and stops listening when disposed', async () => {
    const f = createFakeApi({ 'downloads.list': () => [job()] });
    const downloads = withApi(f.api, () => useDownloadsStore());
    await downloads.load();
    const off = downloads.listen();
    f.emit('downloads.progress', [{ id: 'j1', bytes: 500, total: 1000, rate: 250, etaSeconds: 2 }]);
    expect(downloads.jobs[0]).toMatchObject({ bytes: 500, rate: 250, etaSeconds: 2 });
    expect(progressOf(downloads.jobs[0]!)).toBe(0.5);
    f.emit('downloads.changed', job({ id: 'j2', createdAt: '2026-01-02T00:00:00Z', state: 'queued' }));
    expect(downloads.jobs.map((j) => j.id)).toEqual(['j2', 'j1']);
    off();
    expect(f.listenerCount()).toBe(0);
  });

  it('keeps an action error on its job only', async () => {
    const f = createFakeApi({
      'downloads.list': () => [job(), job({ id: 'j2' })],
      'downloads.pause': () => {
        throw serviceError('DOWNLOAD_NOT_ACTIVE', 'Already finished');
      },
      'downloads.cancel': (input) => job({ id: (input as { id: string }).id, state: 'canceled' }),
    });
    const downloads = withApi(f.api, () => useDownloadsStore());
    await downloads.load();
    await downloads.pause('j1');
    expect(Object.keys(downloads.actionErrors)).toEqual(['j1']);
    await downloads.cancel('j2');
    expect(downloads.jobs.find((j) => j.id === 'j2')?.state).toBe('canceled');
    expect(downloads.finished.map((j) => j.id)).toEqual(['j2']);
    expect(downloads.busy).toEqual({});
  });
});

describe('library store', () => {
  it('groups files by project, newest first, and filters', async () => {
    const items = [
      item(),
      item({ id: 'l2', projectId: 'p2', projectTitle: 'Radio spot', downloadedAt: '2026-02-01T00:00:00Z' }),
      item({ id: 'l3', downloadedAt: '2026-03-01T00:00:00Z', deliverableName: '2' }),
    ];
    expect(groupByProject(items).map((g) => [g.projectId, g.items.map((i) => i.id)])).toEqual([
      ['p1', ['l3', 'l1']],
      ['p2', ['l2']],
    ]);
    const f = createFakeApi({ 'library.list': () => items, 'library.remove': () => items.slice(1) });
    const library = withApi(f.api, () => useLibraryStore());
    await library.load();
    library.query = 'radio';
    expect(library.groups.map((g) => g.projectId)).toEqual(['p2']);
    expect(await library.remove('l1')).toBe(true);
    expect(library.items.map((i) => i.id)).toEqual(['l2', 'l3']);
  });

  it('reloads when main reports a library change', async () => {
    let items = [item()];
    const f = createFakeApi({ 'library.list': () => items });
    const library = withApi(f.api, () => useLibraryStore());
    await library.load();
    const off = library.listen();
    items = [item(), item({ id: 'l9' })];
    f.emit('library.changed', { count: 2 });
    await new Promise((r) => setTimeout(r, 0));
    expect(library.items).toHaveLength(2);
    off();
  });
});

describe('library takes a client folder can be handed from (issue 26 item 8)', () => {
  const items = [
    item({ id: 'a1', deliverableId: 'd1', version: 1, takeStatus: 'approved' }),
    item({ id: 'a2', deliverableId: 'd1', version: 2, takeStatus: 'approved' }),
    item({ id: 'a2-mp3', deliverableId: 'd1', version: 2, format: 'mp3', takeStatus: 'approved' }),
    item({ id: 'r1', deliverableId: 'd2', takeStatus: 'rejected' }),
    item({ id: 'w1', deliverableId: 'd3', takeStatus: 'winner' }),
    item({ id: 'n1', deliverableId: 'd4', takeStatus: 'revisionRequested' }),
    item({ id: 'u1', deliverableId: 'd5' }),
  ];

  it('says of each file its take’s status, or the later version that replaced it', () => {
    const text = (id: string) =>
      takeStateOf(
        items.find((i) => i.id === id)!,
        items,
      );
    expect(text('a1')).toEqual({ state: 'replaced', text: 'Replaced by v2' });
    expect(text('a2')).toEqual({ state: 'approved', text: 'Approved' });
    expect(text('r1')).toEqual({ state: 'rejected', text: 'Rejected' });
    expect(text('w1')).toEqual({ state: 'winner', text: 'Contest winner' });
    expect(text('n1').text).toBe('Revision requested');
    expect(text('u1')).toEqual({ state: 'unknown', text: 'Status not read yet' });
  });

  it('shows approved takes only, without the versions they replaced, when asked', async () => {
    const f = createFakeApi({ 'library.list': () => items });
    const library = withApi(f.api, () => useLibraryStore());
    await library.load();
    expect(library.groups[0]!.items).toHaveLength(items.length);
    library.approvedOnly = true;
    expect(library.groups[0]!.items.map((i) => i.id).sort()).toEqual(['a2', 'a2-mp3', 'w1']);
  });

  it('reads the list again when a take’s status changes (a decision, a delivery)', async () => {
    let listed = [item()];
    const f = createFakeApi({ 'library.list': () => listed });
    const library = withApi(f.api, () => useLibraryStore());
    await library.load();
    const off = library.listen();
    listed = [item({ takeStatus: 'approved' })];
    f.emit('projects.reviewChanged', { profileId: 'sandbox' });
    await new Promise((r) => setTimeout(r, 0));
    expect(library.items[0]!.takeStatus).toBe('approved');
    off();
  });
});

describe('player store', () => {
  it('plays a service URL through the proxy and a library file with its peaks', async () => {
    const f = createFakeApi({
      'media.remoteUrl': (input) => ({
        url: `/m/r?u=${(input as { url: string }).url}`,
        contentType: 'audio/mpeg',
      }),
      'media.libraryUrl': () => ({ url: '/m/l/l1', contentType: 'audio/wav' }),
      'library.peaks': () => ({ duration: 5, peaks: [[0.2]] }),
    });
    const player = withApi(f.api, () => usePlayerStore());
    await player.play({ title: 'Ana', subtitle: 'English', url: 'https://svc/sample.mp3' });
    expect(player.source).toMatchObject({
      url: '/m/r?u=https://svc/sample.mp3',
      peaks: null,
      decode: 'short',
    });
    expect(player.isCurrent('https://svc/sample.mp3')).toBe(true);
    await player.play({ title: 'Spot', libraryId: 'l1' });
    expect(player.source?.url).toBe('/m/l/l1');
    expect(player.source?.peaks?.duration).toBe(5);
    player.stop();
    expect(player.track).toBeNull();
  });

  it('ignores a slow answer for a track that was replaced', async () => {
    let release: () => void = () => undefined;
    const f = createFakeApi({
      'media.remoteUrl': async (input) => {
        const url = (input as { url: string }).url;
        if (url.endsWith('slow.mp3')) await new Promise<void>((r) => (release = r));
        return { url: `/m/${url}`, contentType: 'audio/mpeg' };
      },
    });
    const player = withApi(f.api, () => usePlayerStore());
    const slow = player.play({ title: 'Slow', url: 'slow.mp3' });
    await player.play({ title: 'Fast', url: 'fast.mp3' });
    release();
    await slow;
    expect(player.track?.title).toBe('Fast');
    expect(player.source?.url).toBe('/m/fast.mp3');
  });

  it('shows the media error', async () => {
    const f = createFakeApi({
      'media.remoteUrl': () => {
        throw serviceError('URL_NOT_ALLOWED', 'Not a service URL');
      },
    });
    const player = withApi(f.api, () => usePlayerStore());
    await player.play({ title: 'x', url: 'file:///etc/passwd' });
    expect((player.error as { type: string }).type).toBe('URL_NOT_ALLOWED');
    expect(player.loading).toBe(false);
  });
});
