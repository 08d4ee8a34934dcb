// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { IpcError } from '../../../../shared/ipc';
import RejectDialog from './RejectDialog.vue';
import RevisionForm from './RevisionForm.vue';

/**
 * A decision that cannot be saved (disk full, database locked): main answers DECISION_NOT_SAVED and sends nothing.
 * The form that sent it stays open (the view closes it only when the decision stuck) and keeps what was typed,
 * with the error in plain words beside it.
 */
const notSaved = new IpcError({
  type: 'DECISION_NOT_SAVED',
  status: 0,
  message:
    'Your decision could not be saved on this computer (database is locked), so it was not sent. What you typed is still in the form.',
});

describe('the forms keep what was typed when the decision could not be saved', () => {
  it('reject: the reason stays, the error says nothing was sent', async () => {
    const wrapper = mount(RejectDialog, {
      props: {
        accountKind: 'service',
        open: true,
        busy: false,
        error: null,
        genderAndAgeOptions: [],
        optionsLoading: false,
        optionsError: null,
      },
      attachTo: document.body,
    });
    await wrapper.get('[data-testid="reject-reason"]').setValue('The read is too fast.');
    await wrapper.get('form').trigger('submit');
    expect(wrapper.emitted('confirm')).toHaveLength(1);
    await wrapper.setProps({ busy: true });
    await wrapper.setProps({ busy: false, error: notSaved });
    expect(wrapper.get<HTMLTextAreaElement>('[data-testid="reject-reason"]').element.value).toBe(
      'The read is too fast.',
    );
    const error = wrapper.get('[data-testid="reject-error"]');
    expect(error.text()).toContain('Your decision could not be saved');
    expect(error.text()).toContain('what you typed is kept');
    wrapper.unmount();
  });

  it('revision: the instructions stay', async () => {
    const wrapper = mount(RevisionForm, {
      props: {
        busy: false,
        error: null,
        isAudioAds: false,
        serviceSubCategory: 'voice_over',
        serviceCost: 30,
        accountKind: 'sandbox',
      },
      attachTo: document.body,
    });
    await wrapper.get('[data-testid="revision-instructions"]').setValue('[0:12.4] Warmer here');
    await wrapper.get('form').trigger('submit');
    expect(wrapper.emitted('submit')).toHaveLength(1);
    await wrapper.setProps({ busy: true });
    await wrapper.setProps({ busy: false, error: notSaved });
    expect(wrapper.get<HTMLTextAreaElement>('[data-testid="revision-instructions"]').element.value).toBe(
      '[0:12.4] Warmer here',
    );
    expect(wrapper.text()).toContain('Your decision could not be saved');
    wrapper.unmount();
  });
});
