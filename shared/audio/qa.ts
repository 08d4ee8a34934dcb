import type { AudioAnalysis } from './types';

/** Identifiers of the delivery loudness targets a producer can check against. */
export type DeliveryTargetId = 'ebu-r128' | 'atsc-a85' | 'podcast' | 'streaming';

/** A loudness delivery target: integrated level with tolerance and a true-peak ceiling. */
export interface DeliveryTarget {
  id: DeliveryTargetId;
  label: string;
  integratedLufs: number;
  /** Accepted deviation of the integrated loudness, in LU (symmetric). */
  toleranceLu: number;
  /** Maximum permitted true peak, in dBTP. */
  truePeakMaxDbtp: number;
}

// Tolerances: EBU R128 allows ±1 LU where an exact -23 cannot be reached (live), and R128 s1 asks ±0.5 LU
// for file-based programmes; we use ±1 LU so a verdict means "out of spec", not "not perfect". ATSC A/85
// accepts ±2 dB around -24 LKFS. A/85 recommends -2 dBTP, but issue 5 fixes one ceiling of -1 dBTP for all
// targets, so every target uses -1 dBTP (change truePeakMaxDbtp here to tighten it per target).
/** Delivery targets from issue 5 (EBU R128 -23, ATSC A/85 -24, podcast -16, streaming -14 LUFS; -1 dBTP). */
export const DELIVERY_TARGETS: Readonly<Record<DeliveryTargetId, DeliveryTarget>> = {
  'ebu-r128': { id: 'ebu-r128', label: 'EBU R128', integratedLufs: -23, toleranceLu: 1, truePeakMaxDbtp: -1 },
  'atsc-a85': {
    id: 'atsc-a85',
    label: 'ATSC A/85',
    integratedLufs: -24,
    toleranceLu: 2,
    truePeakMaxDbtp: -1,
  },
  podcast: {
    id: 'podcast',
    label: 'Podcast and online',
    integratedLufs: -16,
    toleranceLu: 1,
    truePeakMaxDbtp: -1,
  },
  streaming: {
    id: 'streaming',
    label: 'Streaming',
    integratedLufs: -14,
    toleranceLu: 1,
    truePeakMaxDbtp: -1,
  },
};

/** Every target id, in DELIVERY_TARGETS order (for enums in schemas). */
export const DELIVERY_TARGET_IDS = Object.keys(DELIVERY_TARGETS) as [DeliveryTargetId, ...DeliveryTargetId[]];

// Where each voice-over purpose (shared/catalogue/purposes.ts) is heard: broadcast programmes follow EBU R128,
// game audio the -24 LKFS of Sony's ASWG-R001 (the A/85 level), and everything played online or on a phone the
// -16 LUFS that podcast apps and online players normalise speech to.
const TARGET_BY_PURPOSE: Readonly<Record<string, DeliveryTargetId>> = {
  radioTvAds: 'ebu-r128',
  documentary: 'ebu-r128',
  videoGame: 'atsc-a85',
  onlineAds: 'podcast',
  corporate: 'podcast',
  elearning: 'podcast',
  explainerVideo: 'podcast',
  ivrPhone: 'podcast',
  audiobook: 'podcast',
  podcast: 'podcast',
};

/** The delivery target a purpose id calls for; EBU R128 for an unknown or missing purpose (the service's default is radio and TV). */
export function qaTargetForPurpose(purpose: string | null | undefined): DeliveryTargetId {
  return (
    (purpose && Object.hasOwn(TARGET_BY_PURPOSE, purpose) ? TARGET_BY_PURPOSE[purpose] : undefined) ??
    'ebu-r128'
  );
}

/** The purpose of a project: its voice-over service's (audio ads and voice-over projects both have one). */
export function purposeOfServices(
  services: readonly { subCategory?: string | undefined; purpose?: unknown }[],
): string | undefined {
  const purpose = services.find((s) => s.subCategory === 'voice_over')?.purpose;
  return typeof purpose === 'string' ? purpose : undefined;
}

/** The target a project's QA defaults to, from its purpose. */
export function defaultQaTarget(project: {
  services: readonly { subCategory?: string | undefined; purpose?: unknown }[];
}): DeliveryTargetId {
  return qaTargetForPurpose(purposeOfServices(project.services));
}

/** True when `id` names one of DELIVERY_TARGETS. */
export function isDeliveryTargetId(id: string): id is DeliveryTargetId {
  return Object.hasOwn(DELIVERY_TARGETS, id);
}

/** One line of a QA verdict. */
export interface QaCheck {
  id: 'integrated' | 'truePeak' | 'duration';
  pass: boolean;
  /** Measured value (LUFS, dBTP or seconds); null when it could not be measured. */
  measured: number | null;
  /** Human-readable expectation, e.g. "-23 ±1 LUFS". */
  expected: string;
  message: string;
}

/** Pass/fail of a file against a target; `pass` is true only when every check passes. */
export interface QaVerdict {
  target: DeliveryTargetId;
  pass: boolean;
  checks: QaCheck[];
}

/** Options for qaVerdict: the ordered length of an audio ad and how far off it may be. */
export interface QaOptions {
  /** Ordered duration (`seconds` of an audio-ad project); no duration check when absent. */
  orderedSeconds?: number | null;
  /** Allowed |duration - ordered| in seconds; default 0.5. */
  durationToleranceSeconds?: number;
}

type Measured = Pick<AudioAnalysis, 'integratedLufs' | 'truePeakDbtp' | 'durationSeconds'>;

const fmt = (n: number, digits = 1): string => (Math.round(n * 10 ** digits) / 10 ** digits).toFixed(digits);

/** Checks an analysis against a delivery target (and the ordered duration, for audio ads). */
export function qaVerdict(
  analysis: Measured,
  target: DeliveryTargetId | DeliveryTarget,
  options: QaOptions = {},
): QaVerdict {
  const t = typeof target === 'string' ? DELIVERY_TARGETS[target] : target;
  const checks: QaCheck[] = [];

  const lufs = analysis.integratedLufs;
  const integratedExpected = `${t.integratedLufs} ±${t.toleranceLu} LUFS`;
  if (lufs === null || !Number.isFinite(lufs)) {
    checks.push({
      id: 'integrated',
      pass: false,
      measured: null,
      expected: integratedExpected,
      message: 'Integrated loudness could not be measured (silent or shorter than 400 ms).',
    });
  } else {
    const delta = lufs - t.integratedLufs;
    // Compare on the rounded figure the producer sees, so "-22.0 LUFS" never fails a ±1 check at -23.
    const pass = Math.abs(Math.round(delta * 10) / 10) <= t.toleranceLu;
    checks.push({
      id: 'integrated',
      pass,
      measured: lufs,
      expected: integratedExpected,
      message: pass
        ? `Integrated ${fmt(lufs)} LUFS is within ${integratedExpected}.`
        : `Integrated ${fmt(lufs)} LUFS is ${fmt(Math.abs(delta))} LU too ${delta > 0 ? 'loud' : 'quiet'} for ${integratedExpected}.`,
    });
  }

  const tp = analysis.truePeakDbtp;
  const tpExpected = `<= ${t.truePeakMaxDbtp} dBTP`;
  const tpPass = tp === null || Math.round(tp * 10) / 10 <= t.truePeakMaxDbtp;
  checks.push({
    id: 'truePeak',
    pass: tpPass,
    measured: tp,
    expected: tpExpected,
    message:
      tp === null
        ? 'No signal: true peak is -inf dBTP.'
        : tpPass
          ? `True peak ${fmt(tp)} dBTP is under the ${t.truePeakMaxDbtp} dBTP ceiling.`
          : `True peak ${fmt(tp)} dBTP exceeds the ${t.truePeakMaxDbtp} dBTP ceiling.`,
  });

  const ordered = options.orderedSeconds;
  if (ordered !== undefined && ordered !== null) {
    const tol = options.durationToleranceSeconds ?? 0.5;
    const d = analysis.durationSeconds;
    const pass = Math.abs(d - ordered) <= tol;
    checks.push({
      id: 'duration',
      pass,
      measured: d,
      expected: `${ordered} ±${tol} s`,
      message: pass
        ? `Duration ${fmt(d, 2)} s matches the ordered ${ordered} s.`
        : `Duration ${fmt(d, 2)} s is ${fmt(Math.abs(d - ordered), 2)} s ${d > ordered ? 'longer' : 'shorter'} than the ordered ${ordered} s.`,
    });
  }

  return { target: t.id, pass: checks.every((c) => c.pass), checks };
}

/** What a target is called in a verdict: "-16 LUFS podcast and online", "EBU R128 -23". */
export function targetName(
  target: DeliveryTargetId | DeliveryTarget,
  style: 'level-first' | 'name-first',
): string {
  const t = typeof target === 'string' ? DELIVERY_TARGETS[target] : target;
  return style === 'level-first'
    ? `${t.integratedLufs} LUFS ${t.id === 'ebu-r128' || t.id === 'atsc-a85' ? t.label : t.label.toLowerCase()}`
    : `${t.label} ${t.integratedLufs}`;
}

/**
 * A verdict in one short line that names its target: "-16 LUFS podcast and online: pass",
 * "fails EBU R128 -23: -18.2 LUFS", "fails EBU R128 -23: true peak -0.4 dBTP".
 */
export function qaBadgeText(verdict: QaVerdict): string {
  if (verdict.pass) return `${targetName(verdict.target, 'level-first')}: pass`;
  const failed = verdict.checks.filter((c) => !c.pass);
  const what = failed.map((c) =>
    c.measured === null
      ? 'not measurable'
      : c.id === 'integrated'
        ? `${fmt(c.measured)} LUFS`
        : c.id === 'truePeak'
          ? `true peak ${fmt(c.measured)} dBTP`
          : `${fmt(c.measured, 1)} s long`,
  );
  return `fails ${targetName(verdict.target, 'name-first')}: ${what.join(', ')}`;
}
