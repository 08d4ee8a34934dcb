// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { createFakeApi, withApi } from './fake-api.test-util';
import { PROJECTS_PAGE_SIZE, useProjectsStore } from './projects';

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
  it('loads the first page, then the pages a visible range needs, once each', async () => {
    const { api, calls } = createFakeApi({ 'projects.list': projectsOf(10_000) });
    const store = withApi(api, () => useProjectsStore());
    await store.loadList();
    expect(store.total).toBe(10_000);
    expect(store.rowAt(0)?.id).toBe('p0');
    expect(store.rowAt(PROJECTS_PAGE_SIZE)).toBeNull();

    store.ensureRange(5_000, 5_030);
    store.ensureRange(5_000, 5_030);
    await flush();
    expect(store.rowAt(5_010)?.id).toBe('p5010');
    const pagesAsked = calls.map((c) => (c.input as { page: number }).page);
    expect(pagesAsked).toEqual([1, 26]);
  });

  it('drops answers for old filters and sends only the filters set', async () => {
    const { api, calls } = createFakeApi({ 'projects.list': projectsOf(500) });
    const store = withApi(api, () => useProjectsStore());
    const first = store.setFilters({ titleQuery: 'Project 1' });
    const second = store.setFilters({ titleQuery: 'Project 499' });
    await Promise.all([first, second]);
    expect(store.total).toBe(1);
    expect(store.rowAt(0)?.title).toBe('Project 499');
    expect(calls.at(-1)?.input).toEqual({ page: 1, pageSize: PROJECTS_PAGE_SIZE, titleQuery: 'Project 499' });
  });

  it('refreshes the list on deliverable.ready and stops after the disposer runs', async () => {
    const { api, calls, emit } = createFakeApi({ 'projects.list': projectsOf(3) });
    const store = withApi(api, () => useProjectsStore());
    await store.loadList();
    const dispose = store.listenList();
    emit('deliverable.ready', { projectId: 'p1' } as never);
    await flush();
    expect(calls).toHaveLength(2);
    dispose();
    emit('deliverable.ready', { projectId: 'p1' } as never);
    await flush();
    expect(calls).toHaveLength(2);
  });

  it('merges approve-all statuses and keeps the service error for the caller', async () => {
    let approved = false;
    const { api } = createFakeApi({
      'projects.get': () => ({ id: 'x', title: 'X', status: 'paid', services: [] }),
      'deliverables.list': () => ({
        items: [
          { id: 'd1', serviceSubCategory: 'voice_over', name: '1', status: 'reviewable', urls: {} },
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
    await store.approveAll('x');
    expect(store.deliverables.map((d) => d.status)).toEqual(['approved', 'approved']);
    await expect(store.approveAll('x')).rejects.toMatchObject({
      type: 'PROJECT_NOT_PENDING_APPROVAL',
      bodyStatus: 404,
    });
  });
});
