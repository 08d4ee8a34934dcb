/**
 * Reason codes for cancel, reject and revision, with labels for the UI's dropdowns and the
 * sandbox's checks. Documented codes: docs/service.md#reason-codes; where the docs were cut or
 * unreadable we define sandbox codes and mark them `sandboxChoice: true`. A live account is offered
 * only the documented ones (`cancelReasonsFor`, `rejectReasonsFor`); live-values.ts lists each code's source.
 */
import { isLiveAccount, type AccountKind } from './account-kind';

/** A cancel sub reason; `code` is the full `main.sub` code the service expects. */
export interface CancelSubReason {
  readonly code: string;
  readonly label: string;
  readonly sandboxChoice?: true;
}

/** A main cancel reason (docs/service.md#cancel-reasons). */
export interface CancelReason {
  readonly code: string;
  readonly label: string;
  /**
   * Fee in percent of the project cost, charged only while deliverables are in review
   * (docs/service.md#cancel-reasons).
   */
  readonly feePercent?: number;
  readonly subReasons: readonly CancelSubReason[];
}

/** Default cancel reasons; a main code must always be sent, a sub code is optional. */
export const CANCEL_REASONS: readonly CancelReason[] = [
  {
    code: 'late_delivery',
    label: "I didn't receive the project on time",
    subReasons: [
      { code: 'late_delivery.1_2', label: '1-2 hours ago' },
      { code: 'late_delivery.3_6', label: '3-6 hours ago' },
      { code: 'late_delivery.7_12', label: '7-12 hours ago' },
      { code: 'late_delivery.12_24', label: '12-24 hours ago' },
      { code: 'late_delivery.more_24', label: 'More than 24 hours ago' },
    ],
  },
  { code: 'pro_unresponsive_revisions', label: 'The pro is unresponsive for revisions', subReasons: [] },
  {
    code: 'no_longer_needed',
    label: 'I no longer need this project',
    feePercent: 30,
    subReasons: [
      { code: 'no_longer_needed.duplicated', label: 'The project was duplicated' },
      { code: 'no_longer_needed.test_project', label: 'It was a test project' },
      { code: 'no_longer_needed.submitted_incorrectly', label: 'The project was submitted incorrectly' },
    ],
  },
  {
    code: 'other_alternative_selected',
    label: 'I found a better way to complete this project',
    feePercent: 30,
    subReasons: [
      {
        code: 'other_alternative_selected.lower_price_internal',
        label: 'I found a lower price on the service',
      },
      {
        code: 'other_alternative_selected.faster_turnaround_competitor',
        label: 'I received it faster in another place',
      },
      {
        code: 'other_alternative_selected.lower_price_competitor',
        label: 'I found a lower price somewhere else',
      },
    ],
  },
  { code: 'quality_issues', label: 'Deliverable has quality issues', subReasons: [] },
  {
    code: 'pro_didnt_follow_instructions',
    label: "The pro didn't follow the instructions",
    subReasons: [
      { code: 'pro_didnt_follow_instructions.wrong_length', label: 'Length is too short or too long' },
    ],
  },
  {
    code: 'change_specifications',
    label: 'I need to change the specifications',
    feePercent: 30,
    // The documented sub codes were cut off; these are the sandbox's.
    subReasons: [
      {
        code: 'change_specifications.script_change',
        label: 'I need to change the script',
        sandboxChoice: true,
      },
      { code: 'change_specifications.voice_change', label: 'I need a different voice', sandboxChoice: true },
      {
        code: 'change_specifications.length_change',
        label: 'I need a different length',
        sandboxChoice: true,
      },
      {
        code: 'change_specifications.deadline_change',
        label: 'I need a different deadline',
        sandboxChoice: true,
      },
    ],
  },
];

/**
 * What the service assumes when no cancel reason is sent (docs/service.md#cancel-reasons). It carries a fee,
 * so the app never
 * pre-selects it and always sends a main code the producer chose.
 */
export const DEFAULT_CANCEL_REASON_CODE = 'no_longer_needed';

/** The cancel reasons an account is offered: a live account only the documented codes, the sandbox all of them. */
export function cancelReasonsFor(kind: AccountKind | undefined): readonly CancelReason[] {
  const live = isLiveAccount(kind);
  return CANCEL_REASONS.map((main) => ({
    ...main,
    subReasons: live ? main.subReasons.filter((sub) => !sub.sandboxChoice) : main.subReasons.map(marked),
  }));
}

/** The label a sandbox-only code shows on the sandbox, so nobody takes it for one a live account has. */
export const SANDBOX_ONLY_MARK = ' (sandbox only)';

function marked<T extends { label: string; sandboxChoice?: true }>(option: T): T {
  return option.sandboxChoice ? { ...option, label: `${option.label}${SANDBOX_ONLY_MARK}` } : option;
}

/**
 * The fee a cancel carries, in percent of the project cost: the main reason's fee, and only while some
 * deliverable is in review (docs/service.md#cancel-reasons). No code means the service's default reason.
 */
export function cancelFeePercent(code: string | undefined, deliverablesInReview: boolean): number {
  if (!deliverablesInReview) return 0;
  const main = (code || DEFAULT_CANCEL_REASON_CODE).split('.')[0];
  return CANCEL_REASONS.find((r) => r.code === main)?.feePercent ?? 0;
}

/** Whether a cancel reasonCode is a known `main` or `main.sub` code. */
export function isCancelReasonCode(code: string): boolean {
  return CANCEL_REASONS.some(
    (main) => main.code === code || main.subReasons.some((sub) => sub.code === code),
  );
}

/** A deliverable rejection reason. */
export interface RejectReason {
  readonly code: string;
  readonly label: string;
  /** The reject body must then carry `newGenderAndAge`. */
  readonly needsNewGenderAndAge?: true;
  readonly sandboxChoice?: true;
}

/** Code of the one rejection reason the docs name; it needs `newGenderAndAge`. */
export const GENDER_AND_AGE_CHANGE = 'genderAndAgeChange';

/**
 * Rejection reasons: `genderAndAgeChange` is documented; the rest are sandbox codes modelled on
 * the legacy list (docs/service.md#reject-reasons) because the current list could not be read.
 */
export const REJECT_REASONS: readonly RejectReason[] = [
  { code: GENDER_AND_AGE_CHANGE, label: 'Incorrect gender or age', needsNewGenderAndAge: true },
  { code: 'wrong_accent', label: 'Incorrect accent', sandboxChoice: true },
  { code: 'sounds_robotic', label: 'Sounds robotic', sandboxChoice: true },
  { code: 'unlike_sample', label: 'Unlike the sample or reference', sandboxChoice: true },
  { code: 'wrong_tone', label: 'Not the right fit or tone', sandboxChoice: true },
  { code: 'instructions_not_followed', label: "The pro didn't follow instructions", sandboxChoice: true },
  { code: 'pronunciation', label: 'Pronunciation issues', sandboxChoice: true },
  { code: 'distortion', label: 'Distortion or too loud', sandboxChoice: true },
  { code: 'background_noise', label: 'Background noise or room echo', sandboxChoice: true },
  { code: 'poorly_edited', label: 'Poorly edited', sandboxChoice: true },
  { code: 'no_longer_needed', label: 'I no longer need this project', sandboxChoice: true },
];

/**
 * The reject reasons an account is offered: a live account only the documented `genderAndAgeChange` (the code is
 * optional there and the producer says why in words), the sandbox its whole list.
 */
export function rejectReasonsFor(kind: AccountKind | undefined): readonly RejectReason[] {
  return isLiveAccount(kind)
    ? REJECT_REASONS.filter((reason) => !reason.sandboxChoice)
    : REJECT_REASONS.map(marked);
}

/** Whether a reject reasonCode is known. */
export function isRejectReasonCode(code: string): boolean {
  return REJECT_REASONS.some((reason) => reason.code === code);
}

/** A revision type (`revisionCode`, docs/service.md#revision-codes). */
export interface RevisionCode {
  readonly code: string;
  readonly label: string;
  /** The deliverable services (`serviceSubCategory`) it applies to; absent: every service. */
  readonly services?: readonly string[];
  /** Fee in percent of the service's cost. */
  readonly feePercent?: number;
}

/**
 * What the service applies when no revisionCode is sent (docs/service.md#revision-codes): a paid revision.
 */
export const DEFAULT_REVISION_CODE = 'change_specifications';

/** The live service's revision codes (docs/service.md#revision-codes): only these are accepted. */
export const REVISION_CODES: readonly RevisionCode[] = [
  { code: 'quality_issues', label: 'Quality issues' },
  { code: 'pro_didnt_follow_instructions', label: "The pro didn't follow the instructions" },
  { code: DEFAULT_REVISION_CODE, label: 'Change the specifications', feePercent: 15 },
  { code: 'spelling_or_grammar', label: 'Spelling or grammar', services: ['scriptwriting'] },
  { code: 'tone_of_voice', label: 'Tone of voice', services: ['scriptwriting'] },
  { code: 'continuity', label: 'Continuity', services: ['scriptwriting'] },
  { code: 'call_to_action', label: 'Call to action', services: ['scriptwriting'] },
  { code: 'brand_issues', label: 'Brand issues', services: ['scriptwriting'] },
  { code: 'hierarchy_issues', label: 'Hierarchy of the message', services: ['scriptwriting'] },
  { code: 'incorrect_pro', label: 'Incorrect pro', services: ['voice_over'] },
  { code: 'change_background', label: 'Change the background music', services: ['post-production'] },
  { code: 'change_sfx', label: 'Change the sound effects', services: ['post-production'] },
];

/** The revision codes a deliverable of this service accepts, in the list's order. */
export function revisionCodesFor(serviceSubCategory: string): RevisionCode[] {
  return REVISION_CODES.filter((r) => !r.services || r.services.includes(serviceSubCategory));
}

/** Whether a deliverable of this service accepts the revisionCode. */
export function isRevisionCodeFor(code: string, serviceSubCategory: string): boolean {
  return revisionCodesFor(serviceSubCategory).some((r) => r.code === code);
}

/** The fee a revision carries, in percent of the service's cost; no code means the service's paid default. */
export function revisionFeePercent(code: string | undefined): number {
  const wanted = code || DEFAULT_REVISION_CODE;
  return REVISION_CODES.find((r) => r.code === wanted)?.feePercent ?? 0;
}

/** What an audio-ads revision is about (`reason`); only `both` is documented, the others are our reading. */
export const REVISION_REASONS = [
  { code: 'script', label: 'The script', sandboxChoice: true },
  { code: 'audio', label: 'The audio', sandboxChoice: true },
  { code: 'both', label: 'Script and audio' },
] as const satisfies readonly { code: string; label: string; sandboxChoice?: true }[];

/** The audio-ads revision reasons an account is offered: on a live account only the documented `both`. */
export function revisionReasonsFor(
  kind: AccountKind | undefined,
): ReadonlyArray<{ code: string; label: string }> {
  return isLiveAccount(kind)
    ? REVISION_REASONS.filter((r) => !('sandboxChoice' in r))
    : REVISION_REASONS.map((r) => marked<{ code: string; label: string; sandboxChoice?: true }>(r));
}
export type RevisionReason = (typeof REVISION_REASONS)[number]['code'];

/** Whether a revision `reason` is one of the audio-ads values. */
export function isRevisionReason(code: string): code is RevisionReason {
  return REVISION_REASONS.some((reason) => reason.code === code);
}
