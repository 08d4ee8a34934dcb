/** The reject dialog mounted open and idle, its voice options loaded, for the tests that drive it. */
import { mount } from '@vue/test-utils';
import type { AccountKind } from '../../../../shared/api/account-kind';
import RejectDialog from './RejectDialog.vue';

export function mountRejectDialog(accountKind: AccountKind | undefined) {
  return mount(RejectDialog, {
    props: {
      accountKind,
      open: true,
      busy: false,
      error: null,
      genderAndAgeOptions: [{ id: 'teenageGirl', name: 'Teenage girl' }],
      optionsLoading: false,
      optionsError: null,
    },
    attachTo: document.body,
  });
}
