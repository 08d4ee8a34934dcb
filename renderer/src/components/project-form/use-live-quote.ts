import { computed, onBeforeUnmount, ref, watch } from 'vue';
import type { QuoteResponse } from '../../../../shared/api';
import type { AccountKind } from '../../../../shared/api/account-kind';
import { validateQuote } from '../../../../shared/api/validate-project';
import { useProjectsStore } from '../../stores/projects';
import { latestAnswer } from '../../stores/support/latest-answer';
import { buildQuoteBody, formIssues, type ProjectForm } from './project-form';

const QUOTE_DEBOUNCE_MS = 450;

/** The price of the form as it is edited: asked once the form is quotable, debounced, latest answer wins. */
export function useLiveQuote(form: ProjectForm, accountKind: () => AccountKind | undefined) {
  const projects = useProjectsStore();
  const quote = ref<QuoteResponse | null>(null);
  const error = ref<unknown>(null);
  const quoting = ref(false);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const quotes = latestAnswer();
  const body = computed(() => buildQuoteBody(form));
  const quotable = computed(
    () =>
      validateQuote(body.value, { accountKind: accountKind() }).length === 0 && formIssues(form).length === 0,
  );

  watch(
    () => JSON.stringify(body.value),
    () => {
      clearTimeout(timer);
      if (!quotable.value) {
        quotes.drop();
        quoting.value = false;
        quote.value = null;
        error.value = null;
        return;
      }
      quoting.value = true;
      timer = setTimeout(() => void refresh(), QUOTE_DEBOUNCE_MS);
    },
    { immediate: true },
  );

  async function refresh(): Promise<void> {
    const isLatest = quotes.next();
    try {
      const answer = await projects.quote(body.value);
      if (!isLatest()) return;
      quote.value = answer;
      error.value = null;
    } catch (caught) {
      if (!isLatest()) return;
      error.value = caught;
    } finally {
      if (isLatest()) quoting.value = false;
    }
  }
  onBeforeUnmount(() => clearTimeout(timer));

  return { quote, error, quoting, quotable };
}
