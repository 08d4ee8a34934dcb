// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import CancelProjectFields from './CancelProjectFields.vue';

function mountFields(inReview: boolean, projectPrice: number | null = 200) {
  return mount(CancelProjectFields, { props: { inReview, projectPrice }, attachTo: document.body });
}

describe('CancelProjectFields', () => {
  it('shows the 30 % fee with its amount before the cancel is confirmed, while deliverables are in review', async () => {
    const wrapper = mountFields(true);
    // The default reason (no_longer_needed) carries the fee.
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

  it('says there is no fee now when nothing is in review', () => {
    const wrapper = mountFields(false);
    expect(wrapper.find('[data-testid="cancel-fee"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="cancel-no-fee"]').text()).toContain('No fee now');
    wrapper.unmount();
  });

  it('gives the percentage alone when the cost is not known', () => {
    const wrapper = mountFields(true, null);
    expect(wrapper.get('[data-testid="cancel-fee"]').text()).not.toContain('about');
    wrapper.unmount();
  });
});
