// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import RevisionForm from './RevisionForm.vue';

function mountForm(
  isAudioAds = false,
  serviceSubCategory = 'voice_over',
  serviceCost: number | null = 30,
  accountKind: 'sandbox' | 'service' = 'sandbox',
) {
  return mount(RevisionForm, {
    props: { busy: false, error: null, isAudioAds, serviceSubCategory, serviceCost, accountKind },
    attachTo: document.body,
  });
}

const options = (wrapper: ReturnType<typeof mountForm>) =>
  wrapper.findAll('[data-testid="revision-code"] option').map((o) => (o.element as HTMLOptionElement).value);

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
    await wrapper.get('[data-testid="revision-code"]').setValue('incorrect_pro');
    await wrapper.get('[data-testid="revision-reason"]').setValue('audio');
    await wrapper.get('[data-testid="revision-check-talent"]').setValue(true);
    await wrapper.get('form').trigger('submit');
    expect(wrapper.emitted('submit')?.[0]?.[0]).toEqual({
      instructions: 'Slower at [0:03.0]',
      checkTalent: true,
      revisionCode: 'incorrect_pro',
      reason: 'audio',
    });
    wrapper.unmount();
  });

  it('offers a live account only the documented reason, both; the sandbox keeps script and audio', () => {
    const reasons = (wrapper: ReturnType<typeof mountForm>) =>
      wrapper
        .findAll('[data-testid="revision-reason"] option')
        .map((o) => (o.element as HTMLOptionElement).value);
    const live = mountForm(true, 'voice_over', 30, 'service');
    expect(reasons(live)).toEqual(['', 'both']);
    live.unmount();
    const sandbox = mountForm(true, 'voice_over', 30, 'sandbox');
    expect(reasons(sandbox)).toEqual(['', 'script', 'audio', 'both']);
    sandbox.unmount();
  });

  it('asks what should change only for audio ads', () => {
    const voiceOver = mountForm(false);
    expect(voiceOver.find('[data-testid="revision-reason"]').exists()).toBe(false);
    voiceOver.unmount();
  });

  it("offers exactly the live codes of the deliverable's service (docs/service.md#revision-codes)", () => {
    const voice = mountForm(false, 'voice_over');
    expect(options(voice)).toEqual([
      'quality_issues',
      'pro_didnt_follow_instructions',
      'change_specifications',
      'incorrect_pro',
      '',
    ]);
    voice.unmount();
    const script = mountForm(true, 'scriptwriting');
    expect(options(script)).toContain('spelling_or_grammar');
    expect(options(script)).not.toContain('incorrect_pro');
    script.unmount();
  });

  it('defaults to a free code and shows the 15 % fee, with its amount, for the paid code or no code', async () => {
    const wrapper = mountForm(false, 'voice_over', 30);
    const select = wrapper.get('[data-testid="revision-code"]');
    expect((select.element as HTMLSelectElement).value).toBe('quality_issues');
    expect(wrapper.find('[data-testid="revision-fee"]').exists()).toBe(false);
    await select.setValue('change_specifications');
    expect(wrapper.get('[data-testid="revision-fee"]').text()).toContain(
      "15 % of this service's cost (about $4.50)",
    );
    await select.setValue('');
    expect(wrapper.get('[data-testid="revision-fee"]').text()).toContain('with no type');
    await wrapper.get('[data-testid="revision-instructions"]').setValue('Redo');
    await wrapper.get('form').trigger('submit');
    expect(wrapper.emitted('submit')?.[0]?.[0]).toEqual({ instructions: 'Redo', checkTalent: false });
    wrapper.unmount();
  });
});
