// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import BusyButton from './BusyButton.vue';

function mountButton(props: Record<string, unknown>, onClick?: () => void) {
  return mount(BusyButton, {
    props,
    attrs: { class: 'btn', 'data-testid': 'action', ...(onClick ? { onClick } : {}) },
    slots: { default: () => 'Add account' },
  });
}

describe('BusyButton', () => {
  it('idle: enabled, not busy, its own label, a plain button that passes clicks and attributes on', async () => {
    let clicks = 0;
    const wrapper = mountButton({ busyLabel: 'Checking…' }, () => clicks++);
    const button = wrapper.get('[data-testid="action"]');
    expect(button.element.tagName).toBe('BUTTON');
    expect(button.attributes('type')).toBe('button');
    expect(button.classes()).toContain('btn');
    expect(button.attributes('disabled')).toBeUndefined();
    expect(button.attributes('aria-busy')).toBe('false');
    expect(button.text()).toBe('Add account');
    await button.trigger('click');
    expect(clicks).toBe(1);
  });

  it('busy: disabled, aria-busy, and the busy label in place of its own', () => {
    const button = mountButton({ busy: true, busyLabel: 'Checking…', type: 'submit' }).get('button');
    expect(button.attributes('type')).toBe('submit');
    expect(button.attributes('disabled')).toBeDefined();
    expect(button.attributes('aria-busy')).toBe('true');
    expect(button.text()).toBe('Checking…');
  });

  it('busy without a busy label keeps its own label; disabled alone is not busy', () => {
    const busy = mountButton({ busy: true }).get('button');
    expect(busy.text()).toBe('Add account');
    expect(busy.attributes('disabled')).toBeDefined();
    const disabled = mountButton({ disabled: true, busyLabel: 'Checking…' }).get('button');
    expect(disabled.attributes('disabled')).toBeDefined();
    expect(disabled.attributes('aria-busy')).toBe('false');
    expect(disabled.text()).toBe('Add account');
  });
});
