// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { mountRejectDialog } from './reject-dialog.test-util';

const mountDialog = mountRejectDialog;

const codes = (wrapper: ReturnType<typeof mountDialog>) =>
  wrapper.findAll('[data-testid="reject-code"] option').map((o) => (o.element as HTMLOptionElement).value);
const confirmButton = (wrapper: ReturnType<typeof mountDialog>) =>
  wrapper.get<HTMLButtonElement>('[data-testid="reject-dialog-confirm"]').element;

describe('RejectDialog on a live account', () => {
  it.each([['service' as const], [undefined]])(
    'offers only the documented genderAndAgeChange, as an optional code (kind %s)',
    (kind) => {
      const wrapper = mountDialog(kind);
      expect(codes(wrapper)).toEqual(['', 'genderAndAgeChange']);
      wrapper.unmount();
    },
  );

  it('sends a free-text reason with no code, and refuses an empty one', async () => {
    const wrapper = mountDialog('service');
    expect(confirmButton(wrapper).disabled).toBe(true);
    await wrapper.get('[data-testid="reject-reason"]').setValue('  The read is too fast throughout.  ');
    expect(confirmButton(wrapper).disabled).toBe(false);
    await wrapper.get('form').trigger('submit');
    expect(wrapper.emitted('confirm')?.[0]?.[0]).toEqual({ reason: 'The read is too fast throughout.' });
    wrapper.unmount();
  });

  it('asks for the new gender and age when genderAndAgeChange is chosen, and sends it', async () => {
    const wrapper = mountDialog('service');
    await wrapper.get('[data-testid="reject-reason"]').setValue('We need a younger voice.');
    await wrapper.get('[data-testid="reject-code"]').setValue('genderAndAgeChange');
    expect(wrapper.emitted('need-options')).toHaveLength(1);
    expect(confirmButton(wrapper).disabled).toBe(true);
    await wrapper.get('[data-testid="reject-gender-age"]').setValue('teenageGirl');
    await wrapper.get('form').trigger('submit');
    expect(wrapper.emitted('confirm')?.[0]?.[0]).toEqual({
      reason: 'We need a younger voice.',
      reasonCode: 'genderAndAgeChange',
      newGenderAndAge: 'teenageGirl',
    });
    wrapper.unmount();
  });
});

describe('RejectDialog on the sandbox', () => {
  it('keeps its own list of codes, marked sandbox only, and requires one', async () => {
    const wrapper = mountDialog('sandbox');
    expect(codes(wrapper)).toContain('wrong_accent');
    expect(wrapper.get('[data-testid="reject-code"] option[value="wrong_accent"]').text()).toBe(
      'Incorrect accent (sandbox only)',
    );
    expect(wrapper.get('[data-testid="reject-code"] option[value="genderAndAgeChange"]').text()).toBe(
      'Incorrect gender or age',
    );
    expect(codes(wrapper)).toContain('genderAndAgeChange');
    expect(confirmButton(wrapper).disabled).toBe(true);
    await wrapper.get('[data-testid="reject-code"]').setValue('wrong_tone');
    await wrapper.get('form').trigger('submit');
    expect(wrapper.emitted('confirm')?.[0]?.[0]).toEqual({ reason: '', reasonCode: 'wrong_tone' });
    wrapper.unmount();
  });
});
