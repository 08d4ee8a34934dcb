/** Largest boost or cut Match loudness applies: beyond it a take is broken, not merely loud or quiet. */
export const MATCH_GAIN_LIMIT_DB = 20;

/**
 * Playback gain (dB, to 0.1) that brings a take measured at `integratedLufs` to `targetLufs`, so versions and
 * contest entries are compared at the same loudness. Null when the take has no figure yet (not analysed, or
 * silence: the meter gives no integrated loudness).
 */
export function matchGainDb(integratedLufs: number | null | undefined, targetLufs: number): number | null {
  if (integratedLufs === null || integratedLufs === undefined || !Number.isFinite(integratedLufs))
    return null;
  const gain = Math.max(-MATCH_GAIN_LIMIT_DB, Math.min(MATCH_GAIN_LIMIT_DB, targetLufs - integratedLufs));
  // Rounded as shown, so what the producer reads is what is applied; `+ 0` turns -0 into 0.
  return Math.round(gain * 10) / 10 + 0;
}

/** A gain as the player shows it: "+2.4 dB", "−6.0 dB" (a real minus sign), "0.0 dB". */
export function formatGainDb(db: number): string {
  const sign = db > 0 ? '+' : db < 0 ? '−' : '';
  return `${sign}${Math.abs(db).toFixed(1)} dB`;
}

/** The linear amplitude factor of a gain in dB (for a GainNode). */
export function dbToAmplitude(db: number): number {
  return 10 ** (db / 20);
}
