/**
 * QA of the version in the player: the delivery target it is checked against (the producer's pick for the project,
 * its purpose, or the Settings default), our meter's figures and the verdict, and each version's measured loudness.
 */
import { ref, shallowRef } from 'vue';
import {
  defaultQaTarget,
  type AudioAnalysis,
  type DeliveryTargetId,
  type QaVerdict,
} from '../../../../shared/audio';
import type { ClientApi, ProjectQaTarget } from '../../../../shared/ipc';
import { latestAnswer } from '../support/latest-answer';
import type { ReviewState } from './state';

export function reviewQa(api: ClientApi, state: ReviewState) {
  const qaTarget = ref<DeliveryTargetId>('ebu-r128');
  /** Target for a file whose project is not known (the Settings default); set by the view. */
  const fallbackQaTarget = ref<DeliveryTargetId>('ebu-r128');
  /** Each project's remembered target (this profile's), by project id. */
  const projectQaTargets = ref<Record<string, ProjectQaTarget>>({});
  /** Where qaTarget came from: the producer's pick for this project, its purpose, or the Settings default. */
  const qaTargetSource = ref<'chosen' | 'purpose' | 'default'>('default');
  const analysis = ref<AudioAnalysis | null>(null);
  const qa = ref<QaVerdict | null>(null);
  const qaLoading = ref(false);
  const qaError = shallowRef<unknown>(null);
  /** Integrated loudness of this deliverable's versions measured here (by version), for Match loudness. */
  const measuredLufs = ref<Record<number, number | null>>({});
  /** Latest answer wins: the QA of another file or version drops this one's. */
  const qaAnswers = latestAnswer();

  /** Forgets the figures shown, and any answer still on its way for another file or version. */
  function dropQa(): void {
    qaAnswers.drop();
    analysis.value = null;
    qa.value = null;
    qaError.value = null;
    qaLoading.value = false;
  }

  /** Analysis figures and the verdict for the selected version's local file against `qaTarget`. */
  async function loadQa(): Promise<void> {
    const local = state.current.value?.local;
    if (!local) return dropQa();
    const isLatest = qaAnswers.next();
    const version = state.selectedVersion.value;
    const id = state.deliverableId.value;
    qaError.value = null;
    qaLoading.value = true;
    try {
      const ordered = state.orderedSeconds.value;
      const [a, verdict] = await Promise.all([
        local.analysis ?? api.audio.analyze({ id: local.id }),
        api.audio.qa({
          id: local.id,
          target: qaTarget.value,
          ...(ordered ? { orderedSeconds: ordered } : {}),
        }),
      ]);
      // Kept per version even when another was picked meanwhile: switching back is then seamless.
      if (id === state.deliverableId.value)
        measuredLufs.value = { ...measuredLufs.value, [version]: a.integratedLufs };
      if (!isLatest()) return;
      analysis.value = a;
      qa.value = verdict;
    } catch (e) {
      if (isLatest()) qaError.value = e;
    } finally {
      if (isLatest()) qaLoading.value = false;
    }
  }

  /** The producer's pick for the project, else its purpose's target, else the Settings default. */
  function pickQaTarget(projectId: string | null): void {
    const remembered =
      projectId && Object.hasOwn(projectQaTargets.value, projectId)
        ? projectQaTargets.value[projectId]!
        : null;
    const project = state.project.value;
    if (remembered?.from === 'producer') {
      qaTarget.value = remembered.target;
      qaTargetSource.value = 'chosen';
    } else if (projectId && project?.id === projectId) {
      qaTarget.value = defaultQaTarget(project);
      qaTargetSource.value = 'purpose';
      // Remembered so the library, which does not know purposes, checks this project's files against it too.
      if (remembered?.target !== qaTarget.value) void rememberQaTarget(projectId, qaTarget.value, 'purpose');
    } else if (remembered) {
      qaTarget.value = remembered.target;
      qaTargetSource.value = 'purpose';
    } else {
      qaTarget.value = fallbackQaTarget.value;
      qaTargetSource.value = 'default';
    }
  }

  /** Checks against `target` and remembers it for this project (this project only). */
  async function setQaTarget(target: DeliveryTargetId): Promise<void> {
    qaTarget.value = target;
    qaTargetSource.value = 'chosen';
    const projectId = state.project.value?.id ?? state.current.value?.local?.projectId;
    await Promise.all([loadQa(), projectId ? rememberQaTarget(projectId, target, 'producer') : null]);
  }

  async function rememberQaTarget(
    projectId: string,
    target: DeliveryTargetId,
    from: ProjectQaTarget['from'],
  ): Promise<void> {
    try {
      projectQaTargets.value = await api.qa.setTarget({ projectId, target, from });
    } catch (e) {
      if (from === 'producer') qaError.value = e;
    }
  }

  return {
    qaTarget,
    fallbackQaTarget,
    projectQaTargets,
    qaTargetSource,
    analysis,
    qa,
    qaLoading,
    qaError,
    measuredLufs,
    dropQa,
    loadQa,
    pickQaTarget,
    setQaTarget,
  };
}

export type ReviewQa = ReturnType<typeof reviewQa>;
