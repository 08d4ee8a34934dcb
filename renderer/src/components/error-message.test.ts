// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { mount } from '@vue/test-utils';
import { IpcError } from '../../../shared/ipc/api';
import ErrorMessage from './ErrorMessage.vue';
import OfflineNote from './OfflineNote.vue';

const unreachable = new IpcError({ type: 'NETWORK_UNREACHABLE', status: 0, message: 'connect ECONNREFUSED' });

describe('ErrorMessage', () => {
  it('offers "Try again" only to a caller that listens for retry, and runs it', async () => {
    const plain = mount(ErrorMessage, { props: { error: unreachable, testid: 'downloads-load-error' } });
    expect(plain.find('button').exists()).toBe(false);

    const retry = vi.fn();
    const withRetry = mount(ErrorMessage, {
      props: { error: unreachable, testid: 'downloads-load-error', onRetry: retry },
    });
    const button = withRetry.get('[data-testid="downloads-load-error-retry"]');
    expect(button.text()).toBe('Try again');
    await button.trigger('click');
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('shows nothing, and no button, without an error', () => {
    const wrapper = mount(ErrorMessage, { props: { error: null, onRetry: () => undefined } });
    expect(wrapper.find('[role="alert"]').exists()).toBe(false);
    expect(wrapper.find('button').exists()).toBe(false);
  });
});

describe('OfflineNote', () => {
  it('is a status with its text, and a "Try again" that runs the reload where one is given', async () => {
    const reload = vi.fn();
    const wrapper = mount(OfflineNote, {
      props: { testid: 'projects-offline', onRetry: reload },
      slots: { default: 'The service can’t be reached.' },
    });
    expect(wrapper.attributes('role')).toBe('status');
    expect(wrapper.text()).toContain('The service can’t be reached.');
    await wrapper.get('[data-testid="projects-offline-retry"]').trigger('click');
    expect(reload).toHaveBeenCalledTimes(1);
    expect(
      mount(OfflineNote, { props: { testid: 'review-offline' } })
        .find('button')
        .exists(),
    ).toBe(false);
  });
});
