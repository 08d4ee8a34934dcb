// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import RevisionForm from './RevisionForm.vue';

function mountForm(isAudioAds = false) {
  return mount(RevisionForm, { props: { busy: false, error: null, isAudioAds }, attachTo: document.body });
}

describe('RevisionForm', () => {
  it('inserts a waveform timestamp at the caret and keeps typing after it', async () => {
    const wrapper = mountForm();
    const textarea = wrapper.get<HTMLTextAreaElement>('[data-testid="revision-instructions"]');
    await textarea.setValue('Breath here please');
    textarea.element.setSelectionRange(11, 11);
    await textarea.trigger('click');
    await (wrapper.vm as unknown as { insertTimestamp: (s: number) => Promise<void> }).insertTimestamp(12.4);
    expect(textarea.element.value).toBe('Breath here [0:12.4] please');
    await (wrapper.vm as unknown as { insertTimestamp: (s: number) => Promise<void> }).insertTimestamp(65);
    expect(textarea.element.value).toBe('Breath here [0:12.4] [1:05.0] please');
    wrapper.unmount();
  });

  it('refuses empty instructions with a field error and sends a complete request otherwise', async () => {
    const wrapper = mountForm(true);
    await wrapper.get('form').trigger('submit');
    expect(wrapper.get('[data-testid="revision-instructions-error"]').text()).toContain('Tell the pro');
    expect(wrapper.emitted('submit')).toBeUndefined();
    await wrapper.get('[data-testid="revision-instructions"]').setValue('  Slower at [0:03.0]  ');
    await wrapper.get('[data-testid="revision-code"]').setValue('pacing');
    await wrapper.get('[data-testid="revision-reason"]').setValue('audio');
    await wrapper.get('[data-testid="revision-check-talent"]').setValue(true);
    await wrapper.get('form').trigger('submit');
    expect(wrapper.emitted('submit')?.[0]?.[0]).toEqual({
      instructions: 'Slower at [0:03.0]',
      checkTalent: true,
      revisionCode: 'pacing',
      reason: 'audio',
    });
    wrapper.unmount();
  });

  it('asks what should change only for audio ads', () => {
    const voiceOver = mountForm(false);
    expect(voiceOver.find('[data-testid="revision-reason"]').exists()).toBe(false);
    voiceOver.unmount();
  });
});
