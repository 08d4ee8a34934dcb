/**
 * The decisions on the deliverable shown (approve, reject, ask for a revision, pick the contest winner): each sent
 * with what the producer heard, or queued in the outbox; the decision still waiting there; and the gender-and-age
 * values a rejection may need.
 */
import { computed, ref } from 'vue';
import type { AttributeValue } from '../../../../shared/api';
import type { ClientApi, OutboxHeard, OutboxItem } from '../../../../shared/ipc';
import { decisionBadge, type useOutboxStore } from '../outbox';
import { loadState } from '../support/load-state';
import type { ReviewActions } from './actions';
import type { RejectInput, ReviewAction, RevisionInput } from './model';
import type { ReviewState } from './state';

const QUEUED_TEXT = 'Saved in the outbox: it is sent when the service can be reached.';

export function reviewDecisions(
  api: ClientApi,
  state: ReviewState,
  actions: ReviewActions,
  outbox: ReturnType<typeof useOutboxStore>,
) {
  const { deliverable, deliverableId, decisionVersion, project } = state;
  const genderAndAgeOptions = ref<AttributeValue[]>([]);
  const options = loadState();
  const { loadError: optionsError, loading: optionsLoading } = options;

  /** This deliverable's newest outbox item, unless it went through or the service shows its effect. */
  const pendingDecision = computed<OutboxItem | null>(() => {
    const item = outbox.latestFor({
      deliverableId: deliverableId.value ?? undefined,
      projectId: project.value?.id,
    });
    // One truth: once the service shows the decision's effect, its status says it, not "Queued".
    return decisionBadge(item, deliverable.value?.status) ? item : null;
  });

  /** Shows the service's answer, or the queued decision; returns whether the action stuck either way. */
  function settle(answer: { status: string } | 'queued' | null, done: string): boolean {
    if (answer === 'queued') actions.lastResult.value = QUEUED_TEXT;
    else if (answer) {
      setStatus(answer.status);
      actions.lastResult.value = done;
    }
    return answer !== null;
  }

  /** The service's answer to our action: its status, changed now. */
  function setStatus(status: string): void {
    if (!deliverable.value) return;
    deliverable.value = { ...deliverable.value, status };
    state.statusChanged.value = new Date().toISOString();
  }

  /**
   * One decision on the deliverable shown: sent (or queued in the outbox), its answer shown as `done`; false when it
   * did not stick. `answered` runs once the service itself took it.
   */
  async function decide(
    action: ReviewAction,
    call: (id: string) => Promise<{ status: string }>,
    done: string,
    answered?: () => void,
  ): Promise<boolean> {
    const id = deliverableId.value;
    if (!id) return false;
    const answer = await actions.runAction(action, () => call(id));
    if (answer && answer !== 'queued') answered?.();
    return settle(answer, done);
  }

  /** What the producer heard and saw when deciding: kept with the decision until the service has it. */
  function heard(): OutboxHeard {
    return {
      version: decisionVersion.value,
      ...(deliverable.value ? { status: deliverable.value.status } : {}),
      ...(project.value ? { projectId: project.value.id } : {}),
    };
  }

  function approve(): Promise<boolean> {
    return decide(
      'approve',
      (id) => api.deliverables.approve({ id, heard: heard() }),
      `Version ${decisionVersion.value} approved.`,
    );
  }

  function reject(input: RejectInput): Promise<boolean> {
    return decide(
      'reject',
      (id) =>
        api.deliverables.reject({
          id,
          heard: heard(),
          reason: input.reason,
          ...(input.reasonCode ? { reasonCode: input.reasonCode } : {}),
          ...(input.newGenderAndAge ? { newGenderAndAge: input.newGenderAndAge } : {}),
        }),
      `Version ${decisionVersion.value} rejected.`,
    );
  }

  function requestRevision(input: RevisionInput): Promise<boolean> {
    return decide(
      'revision',
      (deliverableId) =>
        api.revisions.create({
          deliverableId,
          heard: heard(),
          instructions: input.instructions,
          checkTalent: input.checkTalent,
          ...(input.revisionCode ? { revisionCode: input.revisionCode } : {}),
          ...(input.reason && state.isAudioAds.value ? { reason: input.reason } : {}),
        }),
      `Revision of version ${decisionVersion.value} requested.`,
      () => (state.pendingInstructions.value = input.instructions),
    );
  }

  function selectWinner(): Promise<boolean> {
    return decide(
      'winner',
      (id) => api.deliverables.selectWinner({ id, heard: heard() }),
      'Selected as the contest winner.',
    );
  }

  /** Gender-and-age values for a rejection with `genderAndAgeChange` (loaded once per deliverable). */
  async function loadGenderAndAgeOptions(): Promise<void> {
    if (genderAndAgeOptions.value.length > 0 || optionsLoading.value) return;
    await options.run(async () => {
      genderAndAgeOptions.value = await api.catalog.attributeValues({
        categoryId: project.value?.mainService ?? 'voice_over',
        attributeId: 'genderAndAge',
      });
    });
  }

  return {
    pendingDecision,
    genderAndAgeOptions,
    optionsError,
    optionsLoading,
    approve,
    reject,
    requestRevision,
    selectWinner,
    loadGenderAndAgeOptions,
  };
}
