import { describe, expect, it } from 'vitest';
import { createReviewIndex } from './review-index';

const row = (id: string, status = 'paid') => ({ id, title: `Project ${id}`, status }) as const;
const take = (id: string, status: string, name = id) => ({
  id,
  status,
  name,
  serviceSubCategory: 'voice_over',
});

function setup() {
  const changes: string[] = [];
  const index = createReviewIndex({ emit: (_event, payload) => void changes.push(payload.profileId) });
  return { index, changes };
}

describe('review index', () => {
  it('keeps each profile to itself: one account never sees another one’s projects', () => {
    const { index } = setup();
    index.projects('a', [row('p1')]);
    index.deliverables('a', 'p1', [take('d1', 'reviewable')]);
    index.projects('b', [row('p2')]);
    expect(index.snapshot('a').projects.map((p) => p.project.id)).toEqual(['p1']);
    expect(index.snapshot('b').projects).toEqual([{ project: row('p2'), counts: null }]);
    expect(index.snapshot('c').projects).toEqual([]);
    expect(index.projectOf('a', 'd1')).toBe('p1');
    expect(index.projectOf('b', 'd1')).toBeUndefined();
  });

  it('follows decisions and cancels from their answers, announcing a change only when something changed', () => {
    const { index, changes } = setup();
    index.projects('a', [row('p1')]);
    index.deliverables('a', 'p1', [take('d1', 'reviewable'), take('d2', 'reviewable')]);
    expect(index.snapshot('a').projects[0]!.counts).toMatchObject({ ready: 2, approved: 0 });
    changes.length = 0;

    index.deliverables('a', 'p1', [take('d1', 'reviewable'), take('d2', 'reviewable')]);
    expect(changes).toEqual([]); // the same answer again: nothing to redraw

    index.decided('a', [{ id: 'd1', status: 'approved' }]);
    expect(index.snapshot('a').projects[0]!.counts).toMatchObject({ ready: 1, approved: 1 });
    index.decided('b', [{ id: 'd2', status: 'approved' }]); // another profile's answer never lands here
    expect(index.snapshot('a').projects[0]!.counts).toMatchObject({ ready: 1, approved: 1 });

    index.status('a', 'p1', 'canceled');
    expect(index.snapshot('a').projects[0]!.project.status).toBe('canceled');
    expect(changes).toEqual(['a', 'a']);
  });

  it('keeps a list row small: a project read brings its news, not its services', () => {
    const { index } = setup();
    index.projects('a', [{ ...row('p1'), services: [], remarks: 'long brief' } as never]);
    expect(index.snapshot('a').projects[0]!.project).toEqual(row('p1'));
    index.projects('a', [row('p1', 'completed')]);
    expect(index.snapshot('a').projects[0]!.project.status).toBe('completed');
  });
});
