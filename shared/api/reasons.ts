/**
 * Reason codes for cancel, reject and revision, with labels for the UI's dropdowns and the
 * sandbox's checks. Documented codes come from service-facts 2; where the docs were cut or
 * unreadable we define sandbox codes and mark them `sandboxChoice: true`.
 */

/** A cancel sub reason; `code` is the full `main.sub` code the service expects. */
export interface CancelSubReason {
  readonly code: string;
  readonly label: string;
  readonly sandboxChoice?: true;
}

/** A main cancel reason (service-facts 2a, "Default reasons"). */
export interface CancelReason {
  readonly code: string;
  readonly label: string;
  /** Fee the service charges for this reason, when it says so. */
  readonly feeNote?: string;
  readonly subReasons: readonly CancelSubReason[];
}

const FEE_30 = '30 % of the project cost if deliverables are in review (reviewable).';

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
    feeNote: FEE_30,
    subReasons: [
      { code: 'no_longer_needed.duplicated', label: 'The project was duplicated' },
      { code: 'no_longer_needed.test_project', label: 'It was a test project' },
      { code: 'no_longer_needed.submitted_incorrectly', label: 'The project was submitted incorrectly' },
    ],
  },
  {
    code: 'other_alternative_selected',
    label: 'I found a better way to complete this project',
    feeNote: FEE_30,
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
    feeNote: FEE_30,
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

/** What the service assumes when no cancel reason is sent (service-facts 2a). */
export const DEFAULT_CANCEL_REASON_CODE = 'no_longer_needed';

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
 * the legacy list (service-facts 2b) because the current list could not be read.
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

/** Whether a reject reasonCode is known. */
export function isRejectReasonCode(code: string): boolean {
  return REJECT_REASONS.some((reason) => reason.code === code);
}

/** A revision type (`revisionCode`). */
export interface RevisionCode {
  readonly code: string;
  readonly label: string;
  readonly sandboxChoice?: true;
}

/** Revision types: `quality_issues` is the docs' example; the rest are sandbox codes (the list was unreadable). */
export const REVISION_CODES: readonly RevisionCode[] = [
  { code: 'quality_issues', label: 'Quality issues' },
  { code: 'pronunciation', label: 'Pronunciation', sandboxChoice: true },
  { code: 'pacing', label: 'Pacing', sandboxChoice: true },
  { code: 'tone', label: 'Tone or delivery', sandboxChoice: true },
  { code: 'script_change', label: 'Script change (may cost extra)', sandboxChoice: true },
  { code: 'timing', label: 'Timing or length', sandboxChoice: true },
  { code: 'audio_quality', label: 'Audio quality', sandboxChoice: true },
  { code: 'other', label: 'Other', sandboxChoice: true },
];

/** Whether a revisionCode is known. */
export function isRevisionCode(code: string): boolean {
  return REVISION_CODES.some((revision) => revision.code === code);
}

/** What an audio-ads revision is about (`reason`); only `both` is documented, the others are our reading. */
export const REVISION_REASONS = [
  { code: 'script', label: 'The script' },
  { code: 'audio', label: 'The audio' },
  { code: 'both', label: 'Script and audio' },
] as const satisfies readonly { code: string; label: string }[];
export type RevisionReason = (typeof REVISION_REASONS)[number]['code'];

/** Whether a revision `reason` is one of the audio-ads values. */
export function isRevisionReason(code: string): code is RevisionReason {
  return REVISION_REASONS.some((reason) => reason.code === code);
}
