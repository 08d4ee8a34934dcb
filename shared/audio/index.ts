// Portable audio types and pure logic, shared by main and renderer.
export type { AudioAnalysis } from './types';
export {
  DELIVERY_TARGETS,
  DELIVERY_TARGET_IDS,
  defaultQaTarget,
  isDeliveryTargetId,
  purposeOfServices,
  qaBadgeText,
  qaTargetForPurpose,
  qaVerdict,
  targetName,
  type DeliveryTarget,
  type DeliveryTargetId,
  type QaCheck,
  type QaOptions,
  type QaVerdict,
} from './qa';
export {
  PEAKS_MAGIC,
  PEAKS_VERSION,
  PeaksFormatError,
  decodePeaks,
  encodePeaks,
  toWavesurferPeaks,
  type PeaksData,
  type PeaksLevel,
} from './peaks-format';
export { MATCH_GAIN_LIMIT_DB, dbToAmplitude, formatGainDb, matchGainDb } from './match-gain';
