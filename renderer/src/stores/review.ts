import { defineStore } from 'pinia';
import { useApi } from '../bridge';
import { useOutboxStore } from './outbox';
import { reviewActions } from './review/actions';
import { reviewDecisions } from './review/decisions';
import { reviewLivePeaks } from './review/live-peaks';
import { reviewLoading } from './review/loading';
import { reviewPlayback } from './review/playback';
import { reviewQa } from './review/qa';
import { reviewState } from './review/state';

export {
  isAudioDeliverable,
  localAudioFor,
  type RejectInput,
  type ReviewAction,
  type ReviewCache,
  type RevisionInput,
  type ReviewVersion,
} from './review/model';

/**
 * One deliverable under review: its versions, local files, QA, and the approve/reject/revise/winner actions. A thin
 * front over the units in `review/` (what is known, loading, playback, live peaks, QA, actions, decisions), which
 * share one state; it hands the views the same store it always did.
 */
export const useReviewStore = defineStore('review', () => {
  const api = useApi();
  const outbox = useOutboxStore();
  const state = reviewState();
  const live = reviewLivePeaks(api, state);
  const qa = reviewQa(api, state);
  const playback = reviewPlayback(api, state, qa, live);
  const actions = reviewActions(api, state, outbox);
  const decisions = reviewDecisions(api, state, actions, outbox);
  const loading = reviewLoading(api, state, { qa, playback, live, actions });

  return {
    deliverableId: state.deliverableId,
    deliverable: state.deliverable,
    project: state.project,
    library: state.library,
    loading: loading.loading,
    loadError: loading.loadError,
    versionsError: loading.versionsError,
    versionsUnreadable: state.versionsUnreadable,
    projectError: loading.projectError,
    versions: state.versions,
    selectedVersion: state.selectedVersion,
    current: state.current,
    latest: state.latest,
    decisionVersion: state.decisionVersion,
    siblings: state.siblings,
    take: state.take,
    history: state.history,
    script: state.script,
    statusChanged: state.statusChanged,
    source: playback.source,
    sourceLoading: playback.sourceLoading,
    sourceError: playback.sourceError,
    busy: actions.busy,
    actionErrors: actions.actionErrors,
    lastResult: actions.lastResult,
    offline: state.offline,
    asOf: state.asOf,
    livePeaks: live.livePeaks,
    pendingDecision: decisions.pendingDecision,
    qaTarget: qa.qaTarget,
    qaTargetSource: qa.qaTargetSource,
    fallbackQaTarget: qa.fallbackQaTarget,
    matchLoudness: playback.matchLoudness,
    matchTargetLufs: playback.matchTargetLufs,
    matchGain: playback.matchGain,
    analysis: qa.analysis,
    qa: qa.qa,
    qaLoading: qa.qaLoading,
    qaError: qa.qaError,
    pdfUrl: loading.pdfUrl,
    pdfError: loading.pdfError,
    genderAndAgeOptions: decisions.genderAndAgeOptions,
    optionsError: decisions.optionsError,
    optionsLoading: decisions.optionsLoading,
    isAudio: state.isAudio,
    isScript: state.isScript,
    isContest: state.isContest,
    isAudioAds: state.isAudioAds,
    serviceCost: state.serviceCost,
    orderedSeconds: state.orderedSeconds,
    load: loading.load,
    resolveSource: playback.resolveSource,
    selectVersion: playback.selectVersion,
    loadQa: qa.loadQa,
    setQaTarget: qa.setQaTarget,
    refreshLibrary: playback.refreshLibrary,
    listen: loading.listen,
    approve: decisions.approve,
    reject: decisions.reject,
    requestRevision: decisions.requestRevision,
    selectWinner: decisions.selectWinner,
    download: actions.download,
    loadGenderAndAgeOptions: decisions.loadGenderAndAgeOptions,
  };
});
