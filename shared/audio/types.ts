/** Result of analysing one audio file: format facts plus BS.1770-4 / EBU R128 loudness figures. */
export interface AudioAnalysis {
  durationSeconds: number;
  sampleRate: number;
  channels: number;
  /** Bits per sample for PCM/float WAV; null for lossy codecs (mp3). */
  bitDepth: number | null;
  /** e.g. 'pcm_s16le', 'pcm_s24le', 'pcm_s32le', 'pcm_f32le', 'pcm_f64le', 'pcm_u8', 'mp3'. */
  codec: string;
  /** Gated integrated loudness in LUFS; null when no block passes the -70 LUFS gate (silence or < 400 ms). */
  integratedLufs: number | null;
  /** EBU Tech 3342 loudness range in LU (0 when too short or too quiet to measure). */
  loudnessRangeLu: number;
  maxMomentaryLufs: number | null;
  maxShortTermLufs: number | null;
  /** 4x oversampled true peak in dBTP; null for digital silence. */
  truePeakDbtp: number | null;
  samplePeakDbfs: number | null;
}
