// @vitest-environment happy-dom
/**
 * Issue 14 in the renderer: unreadable items said in one plain line, unknown statuses shown neutrally under
 * their raw name, live dates read whatever their spelling, and a refused contest winner said plainly.
 */
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import { createFakeApi, serviceError, withApi } from '../stores/fake-api.test-util';
import { useProjectsStore } from '../stores/projects';
import { useReviewStore } from '../stores/review';
import ErrorMessage from './ErrorMessage.vue';
import StatusBadge from './StatusBadge.vue';
import UnreadableNotice from './UnreadableNotice.vue';
import { formatDateTime, parseServiceDate } from '../display-text';

describe('unreadable items', () => {
  it.each([
    [0, null],
    [1, '1 item could not be read.'],
    [3, '3 items could not be read.'],
  ])('%i -> %s', (count, text) => {
    const wrapper = mount(UnreadableNotice, { props: { count } });
    const notice = wrapper.find('[data-testid="unreadable-notice"]');
    if (text === null) expect(notice.exists()).toBe(false);
    else expect(notice.text()).toBe(text);
    wrapper.unmount();
  });

  it('the projects store sums the unreadable projects of its pages; the project page counts services and deliverables', async () => {
    const { api } = createFakeApi({
      'projects.list': (input) =>
        (input as { page: number }).page === 1
          ? { page: 1, total: 2, projects: [{ id: 'p1', title: 'One' }], unreadable: 1 }
          : { page: 2, total: 2, projects: [] },
      'projects.get': () => ({ id: 'p1', title: 'One', status: 'onHold', services: [], unreadable: 1 }),
      'deliverables.list': () => ({
        items: [{ id: 'd1', serviceSubCategory: 'voice_over', name: '1', status: 'unassigned', urls: {} }],
        unreadable: 2,
      }),
    });
    const store = withApi(api, () => useProjectsStore());
    await store.loadList();
    expect(store.listUnreadable).toBe(1);
    await store.loadProject('p1');
    expect(store.deliverables.map((d) => d.status)).toEqual(['unassigned']);
    expect(store.deliverablesUnreadable).toBe(2);
    expect(store.currentUnreadable).toBe(3);
  });
});

it('the review store counts the versions it could not read', async () => {
  const { api } = createFakeApi({
    'deliverables.get': () => ({
      id: 'd1',
      serviceSubCategory: 'voice_over',
      name: '1',
      status: 'assigned',
      urls: {},
    }),
    'revisions.versions': () => ({
      id: 'd1',
      serviceSubCategory: 'voice_over',
      name: '1',
      status: 'assigned',
      versions: [],
      unreadable: 1,
    }),
    'library.list': () => [],
  });
  const review = withApi(api, () => useReviewStore());
  await review.load('d1');
  expect(review.loadError).toBeNull();
  expect(review.isAudio).toBe(false);
  expect(review.versionsUnreadable).toBe(1);
});

describe('StatusBadge', () => {
  it('shows an unknown status neutrally under its raw name', () => {
    const wrapper = mount(StatusBadge, { props: { status: 'inviting_pros' } });
    const badge = wrapper.get('[data-testid="status-badge"]');
    expect(badge.text()).toBe('inviting_pros');
    expect(badge.attributes('data-known')).toBe('false');
    expect(badge.classes()).toContain('badge-unknown');
    expect(badge.classes().filter((c) => /badge-(info|success|warning|danger|accent)/.test(c))).toEqual([]);
  });

  it.each([
    ['reviewable', 'Ready for review', 'badge-accent'],
    ['unassigned', 'Unassigned', null],
    ['assigned', 'Assigned', 'badge-info'],
    ['pendingInternalReview', 'In internal review', 'badge-warning'],
    // Work in progress is not headlined "Paid".
    ['paid', 'In work', 'badge-info'],
  ])('shows the known %s as before', (status, label, tone) => {
    const badge = mount(StatusBadge, { props: { status } }).get('[data-testid="status-badge"]');
    expect(badge.text()).toBe(label);
    expect(badge.attributes('data-known')).toBe('true');
    if (tone) expect(badge.classes()).toContain(tone);
  });
});

describe('live dates', () => {
  it.each([
    ['2026-11-23T09:00:00', '2026-11-23T09:00:00.000Z'],
    ['2026-11-23 09:00:00', '2026-11-23T09:00:00.000Z'],
    ['2026-11-23T09:00:00Z', '2026-11-23T09:00:00.000Z'],
    ['2026-11-23T10:00:00+01:00', '2026-11-23T09:00:00.000Z'],
  ])('%s reads as %s', (value, iso) => {
    expect(parseServiceDate(value)?.toISOString()).toBe(iso);
    expect(formatDateTime(value)).not.toBe('—');
  });
});

describe('a refused contest winner', () => {
  it('is said in one plain message on the review screen', async () => {
    const { api } = createFakeApi({
      'deliverables.selectWinner': () => {
        throw serviceError('WINNER_NOT_OFFERED', 'It may not offer picking winners for this project.', 422);
      },
    });
    const review = withApi(api, () => useReviewStore());
    review.deliverableId = 'd1';
    expect(await review.selectWinner()).toBe(false);
    const wrapper = mount(ErrorMessage, { props: { error: review.actionErrors.winner } });
    expect(wrapper.get('[data-testid="error-message"]').attributes('data-error-type')).toBe(
      'WINNER_NOT_OFFERED',
    );
    expect(wrapper.text()).toContain('The service did not accept a contest winner');
    expect(wrapper.text()).toContain('It may not offer picking winners for this project.');
    expect(wrapper.text()).toContain('Approve the take you prefer instead.');
    expect(wrapper.text()).not.toMatch(/try again|reported an error/i);
  });
});
