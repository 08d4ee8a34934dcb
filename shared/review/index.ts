// What the producer may decide, and where each project stands: pure rules shared by main and renderer.
export {
  deliverableActions,
  projectActions,
  type DeliverableFacts,
  type ProjectFacts,
  type ReviewAction,
} from './actions';
export {
  REVIEW_STATES,
  reviewCounts,
  reviewStateOf,
  reviewSummaryText,
  type ReviewCounts,
  type ReviewState,
} from './review-status';
export {
  REVISION_WINDOW_MS,
  inRevisionWindow,
  revisionWindowEnd,
  type RevisionWindowFacts,
} from './revision-window';
export {
  createReadyBatcher,
  firstWords,
  readyBatchText,
  takeName,
  type BatchTimers,
  type ReadyTake,
} from './ready-batch';
