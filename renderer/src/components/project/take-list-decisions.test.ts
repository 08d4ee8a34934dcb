// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { describe, expect, it } from 'vitest';
import type { Deliverable, Project } from '../../../../shared/api';
import { API_KEY } from '../../bridge';
import { createFakeApi, serviceError } from '../../stores/fake-api.test-util';
import TakeListDecisions from './TakeListDecisions.vue';

// happy-dom has no modal dialogs: opening one is enough here.
HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
  this.setAttribute('open', '');
};

const project = {
  id: 'p1',
  title: 'Spring promo',
  mainService: 'voice_over',
  services: [{ subCategory: 'voice_over', price: 30 }],
} as unknown as Project;
const take = {
  id: 'd1',
  name: '1',
  serviceSubCategory: 'voice_over',
  status: 'reviewable',
  urls: {},
} as Deliverable;
const twoVersions = {
  ...take,
  versions: [{ created: '2026-11-01T10:00:00Z' }, { created: '2026-11-02T10:00:00Z' }],
};

function mountRow(handlers: Parameters<typeof createFakeApi>[0], queued = false) {
  const fake = createFakeApi(handlers);
  const wrapper = mount(TakeListDecisions, {
    props: {
      project,
      take,
      canReject: true,
      canRevise: true,
      disabled: false,
      queued,
      accountKind: 'sandbox',
    },
    global: { plugins: [createPinia()], provide: { [API_KEY as symbol]: fake.api } },
    attachTo: document.body,
  });
  return { wrapper, calls: fake.calls };
}

describe('a rejection or revision from the project page list', () => {
  it('names the newest version loaded and sends it as the one heard; a revision keeps its line breaks', async () => {
    const { wrapper, calls } = mountRow({
      'revisions.versions': () => twoVersions,
      'revisions.create': () => ({
        ...take,
        status: 'revisionRequested',
        instructions: '',
        checkTalent: false,
      }),
    });
    await wrapper.get('[data-testid="deliverable-revise"]').trigger('click');
    await flushPromises();
    expect(wrapper.get('[data-testid="revision-subject"]').text()).toContain(
      'Version 2 of Voice over · part 1',
    );
    await wrapper.get('[data-testid="revision-instructions"]').setValue('Slower here.\nWarmer there.');
    await wrapper.get('[data-testid="revision-form"]').trigger('submit');
    await flushPromises();
    expect(calls.at(-1)).toEqual({
      channel: 'revisions.create',
      input: {
        deliverableId: 'd1',
        heard: { version: 2, status: 'reviewable', projectId: 'p1' },
        instructions: 'Slower here.\nWarmer there.',
        checkTalent: false,
        revisionCode: 'quality_issues',
      },
    });
    expect(wrapper.emitted('decided')).toEqual([['revision', null]]);
    expect(wrapper.find('[data-testid="list-revision-dialog"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('offline: the rejection is kept in the outbox and said so by the page; its buttons go while it waits', async () => {
    const { wrapper } = mountRow({
      'revisions.versions': () => {
        throw serviceError('NOT_LOADED_OFFLINE');
      },
      'deliverables.reject': () => {
        throw serviceError('QUEUED_OFFLINE', 'Saved in the outbox', 0);
      },
    });
    await wrapper.get('[data-testid="deliverable-reject"]').trigger('click');
    await flushPromises();
    // Nothing loaded beyond the take itself: it is version 1.
    expect(document.querySelector('[data-testid="reject-subject"]')?.textContent).toContain('Version 1 of');
    const code = document.querySelector<HTMLSelectElement>('[data-testid="reject-code"]')!;
    code.value = 'wrong_tone';
    code.dispatchEvent(new Event('change'));
    await flushPromises();
    document
      .querySelector<HTMLFormElement>('[data-testid="reject-dialog"] form')!
      .dispatchEvent(new Event('submit', { cancelable: true }));
    await flushPromises();
    const decided = wrapper.emitted('decided') as [string, { type: string }][];
    expect(decided).toHaveLength(1);
    expect(decided[0]![0]).toBe('reject');
    expect(decided[0]![1].type).toBe('QUEUED_OFFLINE');
    await wrapper.setProps({ queued: true });
    expect(wrapper.find('[data-testid="deliverable-reject"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="deliverable-revise"]').exists()).toBe(false);
    wrapper.unmount();
  });
});
