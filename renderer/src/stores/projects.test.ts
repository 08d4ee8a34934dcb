// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { createFakeApi, withApi } from './fake-api.test-util';
import { PROJECTS_PAGE_SIZE, useProjectsStore } from './projects';
import { useProfilesStore } from './profiles';

const flush = () => new Promise((r) => setTimeout(r, 0));

function projectsOf(total: number) {
  return (input: unknown) => {
    const { page = 1, pageSize = 20, titleQuery = '' } = (input ?? {}) as Record<string, never>;
    const all = Array.from({ length: total }, (_, i) => ({ id: `p${i}`, title: `Project ${i}` })).filter(
      (p) => p.title.includes(titleQuery),
    );
    return { page, total: all.length, projects: all.slice((page - 1) * pageSize, page * pageSize) };
  };
}

describe('projects store', () => {
  it('reads page after page until a short one and counts what arrived (no placeholder rows)', async () => {
    const { api, calls } = createFakeApi({ 'projects.list': projectsOf(450) });
    const store = withApi(api, () => useProjectsStore());
    await store.loadList();
    expect(calls.map((c) => (c.input as { page: number }).page)).toEqual([1, 2, 3]);
    expect(store.total).toBe(450);
    expect(store.listComplete).toBe(true);
    expect(store.rowAt(449)?.id).toBe('p449');
    expect(store.rowAt(450)).toBeNull();
  });

  it('a search counts its matches, not the account’s `total`, and leaves no row that never loads', async () => {
    // As the live service documents it: `total` is every project of the account, whatever the filters.
    const { api } = createFakeApi({
      'projects.list': (input) => ({ ...projectsOf(500)(input), total: 500 }),
    });
    const store = withApi(api, () => useProjectsStore());
    await store.setFilters({ titleQuery: 'Project 49' });
    expect(store.total).toBe(11); // Project 49 and Project 490-499
    expect(store.rows.map((p) => p.title)).toContain('Project 499');
    expect(store.rowAt(11)).toBeNull();
  });

  it('reads all of a list from a service that keeps to a smaller page than asked', async () => {
    const capped = (input: unknown) => {
      const { page = 1, pageSize = 20 } = (input ?? {}) as Record<string, number>;
      return projectsOf(130)({ page, pageSize: Math.min(pageSize, 50) });
    };
    const { api, calls } = createFakeApi({ 'projects.list': capped });
    const store = withApi(api, () => useProjectsStore());
    await store.loadList();
    expect(calls.map((c) => (c.input as { page: number }).page)).toEqual([1, 2, 3]);
    expect(store.total).toBe(130);
    expect(new Set(store.rows.map((p) => p.id)).size).toBe(130);
    expect(store.rowAt(129)?.id).toBe('p129');
  });

  it('refreshes a long list from its first page only: changed rows in place, new projects on top', async () => {
    let made = 1_500;
    const list = (input: unknown) => {
      const { page = 1, pageSize = 20 } = (input ?? {}) as Record<string, number>;
      // Newest first, as the service lists them; p<made-1> is the newest.
      const all = Array.from({ length: made }, (_, i) => ({
        id: `p${made - 1 - i}`,
        title: `Project ${made - 1 - i}`,
      }));
      return { page, total: made, projects: all.slice((page - 1) * pageSize, page * pageSize) };
    };
    const { api, calls } = createFakeApi({ 'projects.list': list });
    const store = withApi(api, () => useProjectsStore());
    await store.loadList();
    expect(store.total).toBe(1_500);
    const before = calls.length;
    made = 1_501; // one project made elsewhere
    await store.refreshList();
    expect(calls.slice(before).map((c) => (c.input as { page: number }).page)).toEqual([1]);
    expect(store.total).toBe(1_501);
    expect(store.rowAt(0)?.id).toBe('p1500');
    expect(store.rowAt(1_500)?.id).toBe('p0');
  });

  it('drops answers for old filters and sends only the filters set', async () => {
    const { api, calls } = createFakeApi({ 'projects.list': projectsOf(500) });
    const store = withApi(api, () => useProjectsStore());
    const first = store.setFilters({ titleQuery: 'Project 1' });
    const second = store.setFilters({ titleQuery: 'Project 499' });
    await Promise.all([first, second]);
    expect(store.total).toBe(1);
    expect(store.rowAt(0)?.title).toBe('Project 499');
    expect(calls.at(-2)?.input).toEqual({ page: 1, pageSize: PROJECTS_PAGE_SIZE, titleQuery: 'Project 499' });
    expect(calls.at(-1)?.input).toEqual({ page: 2, pageSize: PROJECTS_PAGE_SIZE, titleQuery: 'Project 499' });
  });

  it('refreshes the list on deliverable.ready and stops after the disposer runs', async () => {
    const { api, calls, emit } = createFakeApi({ 'projects.list': projectsOf(3) });
    const store = withApi(api, () => useProjectsStore());
    await store.loadList();
    const dispose = store.listenList();
    expect(calls).toHaveLength(2); // the short first page, then the empty one that ends the list
    emit('deliverable.ready', { projectId: 'p1' } as never);
    await flush();
    expect(calls).toHaveLength(4);
    dispose();
    emit('deliverable.ready', { projectId: 'p1' } as never);
    await flush();
    expect(calls).toHaveLength(4);
  });

  it('after approve all shows the service’s answer, project status included, and keeps its error for the caller', async () => {
    let approved = false;
    const { api } = createFakeApi({
      // As the service does (docs/service.md#transitions): once every deliverable is approved the project is
      // completed.
      'projects.get': () => ({ id: 'x', title: 'X', status: approved ? 'completed' : 'paid', services: [] }),
      'deliverables.list': () => ({
        items: [
          {
            id: 'd1',
            serviceSubCategory: 'voice_over',
            name: '1',
            status: approved ? 'approved' : 'reviewable',
            urls: {},
          },
          { id: 'd2', serviceSubCategory: 'voice_over', name: '2', status: 'approved', urls: {} },
        ],
        unreadable: 0,
      }),
      'deliverables.approveAll': () => {
        if (approved)
          throw { type: 'PROJECT_NOT_PENDING_APPROVAL', status: 400, bodyStatus: 404, message: 'none' };
        approved = true;
        return [{ id: 'd1', serviceSubCategory: 'voice_over', name: '1', status: 'approved' }];
      },
    });
    const store = withApi(api, () => useProjectsStore());
    await store.loadProject('x');
    expect(store.current?.status).toBe('paid');
    await store.approveAll('x');
    expect(store.deliverables.map((d) => d.status)).toEqual(['approved', 'approved']);
    expect(store.current?.status).toBe('completed');
    await expect(store.approveAll('x')).rejects.toMatchObject({
      type: 'PROJECT_NOT_PENDING_APPROVAL',
      bodyStatus: 404,
    });
  });
});

describe('projects store, per profile', () => {
  const profilesState = (activeId: string) => ({
    profiles: [
      { id: 'sandbox', name: 'Sandbox', kind: 'sandbox', signedOut: false, reachability: 'reachable' },
      { id: 'studio', name: 'Studio', kind: 'service', signedOut: false, reachability: 'unreachable' },
    ],
    activeId,
    secrets: { kind: 'memory', secure: true, warning: null },
    sandbox: { state: 'running' },
  });
  const unreachable = { type: 'NETWORK_UNREACHABLE', status: 0, message: 'down' };

  it('never shows another profile’s list: a switch brings back the profile’s own, or nothing, marked offline', async () => {
    let active = 'sandbox';
    let down = false;
    const { api } = createFakeApi({
      'profiles.list': () => profilesState(active),
      'profiles.activate': (input) => {
        active = (input as { id: string }).id;
        return profilesState(active);
      },
      'projects.list': (input) => {
        if (down) throw unreachable;
        return active === 'sandbox' ? projectsOf(3)(input) : projectsOf(0)(input);
      },
    });
    const [store, profiles] = withApi(api, () => [useProjectsStore(), useProfilesStore()] as const);
    await profiles.load();
    await store.loadList();
    expect(store.total).toBe(3);

    // The other account's service is down: nothing of it was ever loaded, so nothing is shown.
    down = true;
    await profiles.activate('studio');
    await flush();
    expect(store.total).toBeNull();
    expect(store.rowAt(0)).toBeNull();
    await store.loadList();
    expect(store.total).toBeNull();
    expect(store.listOffline).toBe(true);

    // It comes back: its own (empty) list.
    down = false;
    await store.loadList();
    expect(store.total).toBe(0);
    expect(store.listOffline).toBe(false);

    // Back on the sandbox while everything is down: its own last-known rows, marked offline.
    down = true;
    await profiles.activate('sandbox');
    await flush();
    expect(store.total).toBe(3);
    await store.loadList();
    expect(store.rowAt(0)?.id).toBe('p0');
    expect(store.listOffline).toBe(true);
  });

  it('drops an answer that arrives after a switch, and review snapshots of another profile', async () => {
    let active = 'sandbox';
    let release: () => void = () => {};
    const { api } = createFakeApi({
      'profiles.list': () => profilesState(active),
      'profiles.activate': (input) => {
        active = (input as { id: string }).id;
        return profilesState(active);
      },
      'projects.list': async (input) => {
        await new Promise<void>((r) => (release = r));
        return projectsOf(5)(input);
      },
      'projects.review': () => ({ profileId: 'sandbox', projects: [] }),
    });
    const [store, profiles] = withApi(api, () => [useProjectsStore(), useProfilesStore()] as const);
    await profiles.load();
    const loading = store.loadList();
    await flush();
    await profiles.activate('studio');
    await flush();
    release();
    await loading;
    expect(store.total).toBeNull();
    await store.loadReview();
    expect(store.review).toBeNull();
  });

  it('counts projects per review state from the index and lists those in one state', async () => {
    const { api } = createFakeApi({
      'profiles.list': () => profilesState('sandbox'),
      'projects.review': () => ({
        profileId: 'sandbox',
        projects: [
          {
            project: { id: 'a', title: 'Ad', status: 'paid', created: '2026-01-02' },
            counts: { ready: 2, inRevision: 0, approved: 0, waiting: 0 },
            asOf: '2026-11-24T09:00:00.000Z',
          },
          {
            project: { id: 'b', title: 'Book', status: 'paid', created: '2026-01-03' },
            counts: { ready: 1, inRevision: 1, approved: 0, waiting: 0 },
          },
          {
            project: { id: 'c', title: 'Clip', status: 'paid', created: '2026-01-01' },
            counts: { ready: 0, inRevision: 1, approved: 0, waiting: 0 },
          },
          { project: { id: 'd', title: 'Done', status: 'completed' }, counts: null },
          { project: { id: 'e', title: 'Gone', status: 'canceled' }, counts: null },
        ],
      }),
    });
    const [store, profiles] = withApi(api, () => [useProjectsStore(), useProfilesStore()] as const);
    await profiles.load();
    await store.loadReview();
    expect(store.reviewCountsByState).toMatchObject({
      'needs-review': 2,
      'in-revision': 1,
      waiting: 0,
      approved: 1,
      canceled: 1,
    });
    expect(store.rowsInState('needs-review').map((p) => p.id)).toEqual(['b', 'a']);
    store.filters.titleQuery = 'ad';
    expect(store.rowsInState('needs-review').map((p) => p.id)).toEqual(['a']);
    expect(store.reviewCountsByState['needs-review']).toBe(1); // the counts follow the search too
    // The search of titles, scripts and notes narrows the review counts and rows alike (issue 26 item 9).
    store.filters.titleQuery = '';
    store.search = 'book';
    expect(store.rowsInState('needs-review').map((p) => p.id)).toEqual(['b']);
    expect(store.reviewCountsByState).toMatchObject({ 'needs-review': 1, 'in-revision': 0, canceled: 0 });
    expect(store.shownRows(store.rowsInState('needs-review')).map((p) => p.id)).toEqual(['b']);
    store.search = '';
    store.sort = { key: 'title', direction: 'asc' };
    expect(store.shownRows(store.rowsInState('needs-review')).map((p) => p.id)).toEqual(['a', 'b']);
    store.filters.titleQuery = 'ad';
    // Counts kept from the last session say so; those read since this start do not.
    expect(store.reviewById.get('a')?.asOf).toBe('2026-11-24T09:00:00.000Z');
    expect(store.reviewById.get('b')).not.toHaveProperty('asOf');
  });

  it('lists a review state newest first by instant, whatever zone or spelling the dates carry', async () => {
    const ready = { ready: 1, inRevision: 0, approved: 0, waiting: 0 };
    const { api } = createFakeApi({
      'profiles.list': () => profilesState('sandbox'),
      'projects.review': () => ({
        profileId: 'sandbox',
        projects: [
          {
            project: { id: 'x', title: 'X', status: 'paid', created: '2026-11-23T11:00:00+02:00' },
            counts: ready,
          },
          {
            project: { id: 'y', title: 'Y', status: 'paid', created: '2026-11-23T10:30:00Z' },
            counts: ready,
          },
          { project: { id: 'z', title: 'Z', status: 'paid', created: '2026-11-23 09:30:00' }, counts: ready },
          { project: { id: 'u', title: 'U', status: 'paid' }, counts: ready },
        ],
      }),
    });
    const [store, profiles] = withApi(api, () => [useProjectsStore(), useProfilesStore()] as const);
    await profiles.load();
    await store.loadReview();
    // 10:30Z, then 09:30 (no zone: UTC), then 09:00Z written as 11:00+02:00; the undated one last.
    expect(store.rowsInState('needs-review').map((p) => p.id)).toEqual(['y', 'z', 'x', 'u']);
  });
});
