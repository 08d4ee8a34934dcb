// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import type { AccountKind } from '../../../shared/api/account-kind';
import CancelProjectFields from './CancelProjectFields.vue';

function mountFields(
  inReview: boolean,
  projectPrice: number | null = 200,
  accountKind: AccountKind = 'service',
) {
  return mount(CancelProjectFields, {
    props: { inReview, projectPrice, accountKind },
    attachTo: document.body,
  });
}

const values = (wrapper: ReturnType<typeof mountFields>, testid: string) =>
  wrapper.findAll(`[data-testid="${testid}"] option`).map((o) => (o.element as HTMLOptionElement).value);
const selected = (wrapper: ReturnType<typeof mountFields>) =>
  wrapper.get<HTMLSelectElement>('[data-testid="cancel-reason-main"]').element.value;

describe('CancelProjectFields', () => {
  it('shows the 30 % fee with its amount before the cancel is confirmed, while deliverables are in review', async () => {
    const wrapper = mountFields(true);
    await wrapper.get('[data-testid="cancel-reason-main"]').setValue('no_longer_needed');
    expect(wrapper.get('[data-testid="cancel-fee"]').text()).toContain(
      "30 % of the project's cost (about $60.00)",
    );
    await wrapper.get('[data-testid="cancel-reason-main"]').setValue('late_delivery');
    expect(wrapper.find('[data-testid="cancel-fee"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="cancel-no-fee"]').exists()).toBe(false);
    await wrapper.get('[data-testid="cancel-reason-main"]').setValue('other_alternative_selected');
    expect(wrapper.get('[data-testid="cancel-fee"]').text()).toContain('30 %');
    wrapper.unmount();
  });

  it.each([['service' as const], ['sandbox' as const]])(
    'pre-selects no reason, so no fee-bearing one (%s)',
    (kind) => {
      const wrapper = mountFields(true, 200, kind);
      expect(selected(wrapper)).toBe('');
      expect(wrapper.find('[data-testid="cancel-fee"]').exists()).toBe(false);
      wrapper.unmount();
    },
  );

  it('offers a live account only the documented codes: no change_specifications sub-codes', async () => {
    const wrapper = mountFields(true, 200, 'service');
    expect(values(wrapper, 'cancel-reason-main')).toContain('change_specifications');
    await wrapper.get('[data-testid="cancel-reason-main"]').setValue('change_specifications');
    expect(wrapper.find('[data-testid="cancel-reason-sub"]').exists()).toBe(false);
    await wrapper.get('[data-testid="cancel-reason-main"]').setValue('no_longer_needed');
    expect(values(wrapper, 'cancel-reason-sub')).toEqual([
      '',
      'no_longer_needed.duplicated',
      'no_longer_needed.test_project',
      'no_longer_needed.submitted_incorrectly',
    ]);
    wrapper.unmount();
  });

  it('keeps the sandbox sub-codes on the sandbox', async () => {
    const wrapper = mountFields(true, 200, 'sandbox');
    await wrapper.get('[data-testid="cancel-reason-main"]').setValue('change_specifications');
    expect(values(wrapper, 'cancel-reason-sub')).toContain('change_specifications.script_change');
    expect(
      wrapper
        .get('[data-testid="cancel-reason-sub"] option[value="change_specifications.script_change"]')
        .text(),
    ).toBe('I need to change the script (sandbox only)');
    wrapper.unmount();
  });

  it('says there is no fee now when nothing is in review', async () => {
    const wrapper = mountFields(false);
    await wrapper.get('[data-testid="cancel-reason-main"]').setValue('no_longer_needed');
    expect(wrapper.find('[data-testid="cancel-fee"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="cancel-no-fee"]').text()).toContain('No fee now');
    wrapper.unmount();
  });

  it('gives the percentage alone when the cost is not known', async () => {
    const wrapper = mountFields(true, null);
    await wrapper.get('[data-testid="cancel-reason-main"]').setValue('no_longer_needed');
    expect(wrapper.get('[data-testid="cancel-fee"]').text()).not.toContain('about');
    wrapper.unmount();
  });
});
