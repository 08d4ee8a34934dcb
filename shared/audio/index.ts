// Portable audio types and pure logic, shared by main and renderer.
export type { AudioAnalysis } from './types';
export {
  DELIVERY_TARGETS,
  isDeliveryTargetId,
  qaVerdict,
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
