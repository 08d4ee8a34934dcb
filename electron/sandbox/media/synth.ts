// Generated audio for the sandbox's media: a thin front over synth/ (the sources and their shared pieces, the
// speech-like voice and its tables, the music bed, the post-production mix).
export {
  SAMPLE_RATE,
  VOICE_HEAD_SECONDS,
  VOICE_TAIL_SECONDS,
  WORDS_PER_MINUTE,
  framesFor,
  readAll,
  softKnee,
  voiceOverSeconds,
  type AudioSource,
} from './synth/source';
export { createVoiceSource, type VoiceOptions } from './synth/voice';
export { createMusicSource, type MusicOptions } from './synth/music';
export { createPostMixSource, type PostMixOptions } from './synth/post-mix';
