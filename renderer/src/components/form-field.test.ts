// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { h } from 'vue';
import { mount } from '@vue/test-utils';
import { IpcError } from '../../../shared/ipc/api';
import FormField from './FormField.vue';

type Bound = Record<string, string>;

/** A FormField around one input that binds what the slot hands it. */
function mountField(props: Record<string, unknown>, slots: Record<string, () => unknown> = {}) {
  return mount(FormField, {
    props: { id: 'np-title', label: 'Title', ...props },
    slots: { default: (field: Bound) => h('input', { ...field, 'data-testid': 'control' }), ...slots },
    attachTo: document.body,
  });
}

/** The elements an input's aria-describedby names, by their text. */
function describedBy(wrapper: ReturnType<typeof mountField>): string[] {
  const ids = wrapper.get('[data-testid="control"]').attributes('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => {
    const element = document.getElementById(id);
    expect(element, `#${id} exists`).not.toBeNull();
    return element!.textContent!.trim();
  });
}

describe('FormField', () => {
  it('labels its control: the label is for the id the control gets', () => {
    const wrapper = mountField({});
    const label = wrapper.get('label');
    expect(label.text()).toBe('Title');
    expect(label.attributes('for')).toBe('np-title');
    expect(wrapper.get('[data-testid="control"]').attributes('id')).toBe('np-title');
    wrapper.unmount();
  });

  it('marks the control invalid only while there is an error, and the error describes it', async () => {
    const wrapper = mountField({});
    const control = () => wrapper.get('[data-testid="control"]');
    expect(control().attributes('aria-invalid')).toBe('false');
    expect(describedBy(wrapper)).toEqual(['']);
    await wrapper.setProps({ error: 'Title is required.' });
    expect(control().attributes('aria-invalid')).toBe('true');
    expect(describedBy(wrapper)).toEqual(['Title is required.']);
    wrapper.unmount();
  });

  it('is described by its hint and its status (a count, "Saved") too, hint first', () => {
    const wrapper = mountField(
      { hint: 'Shown to the creatives.', error: 'Too long.' },
      { status: () => '101/100' },
    );
    expect(describedBy(wrapper)).toEqual(['Shown to the creatives.', '101/100', 'Too long.']);
    wrapper.unmount();
  });

  it('says when a field is optional, in the label', () => {
    const wrapper = mountField({ optional: true });
    expect(wrapper.get('label').text()).toBe('Title (optional)');
    wrapper.unmount();
  });

  it('a group is a fieldset named by its legend, with no dangling label', () => {
    const wrapper = mountField({ group: true, label: 'Script', error: 'Script is required.' });
    expect(wrapper.element.tagName).toBe('FIELDSET');
    expect(wrapper.get('legend').text()).toBe('Script');
    expect(wrapper.find('label').exists()).toBe(false);
    expect(describedBy(wrapper)).toEqual(['Script is required.']);
    wrapper.unmount();
  });

  it('shows a failure from the service as ErrorMessage does, under the field, and marks the control invalid', async () => {
    const wrapper = mountField({ errorTestid: 'np-title-error' });
    const failure = new IpcError({
      type: 'SEARCH_NOT_AVAILABLE',
      status: 400,
      message: 'Search is not available for this category.',
    });
    await wrapper.setProps({ error: failure });
    expect(wrapper.get('[data-testid="control"]').attributes('aria-invalid')).toBe('true');
    const line = wrapper.get('[data-testid="np-title-error"]');
    expect(line.get('[role="alert"]').attributes('data-error-type')).toBe('SEARCH_NOT_AVAILABLE');
    expect(describedBy(wrapper)[0]).toContain('Search is not available');
    await wrapper.setProps({ error: null });
    expect(wrapper.get('[data-testid="control"]').attributes('aria-invalid')).toBe('false');
    expect(wrapper.find('[role="alert"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('gives the error line the test id asked for', () => {
    const wrapper = mountField({ error: 'x', errorTestid: 'np-title-error' });
    expect(wrapper.get('[data-testid="np-title-error"]').text()).toBe('x');
    wrapper.unmount();
  });
});
