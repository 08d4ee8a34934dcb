/**
 * Playback gain (Match loudness): a Web Audio GainNode between the <audio> element and the speakers, made on the
 * first gain asked for and kept, since a media element can feed one MediaElementSource in its life.
 */
import { ref } from 'vue';
import { dbToAmplitude } from '../../../../shared/audio/match-gain';
import { toError, type WaveformCore } from './model';

export function waveformGain(core: WaveformCore, createAudioContext?: () => AudioContext) {
  /** Playback gain in dB applied to what is heard (Match loudness); null = none asked, the file as it is. */
  const gainDb = ref<number | null>(null);
  // Web Audio graph media -> gain -> speakers, made on the first gain asked for and kept.
  let audio: { context: AudioContext; gain: GainNode } | null = null;

  /**
   * Playback gain in dB, null for none. The <audio> element's volume only cuts (it stops at 1), and Match loudness
   * must also boost a quiet take: so a GainNode on a MediaElementSource, made on the first gain asked for (0 dB
   * included: Match loudness is on). Until then the element plays straight to the speakers, as it always did.
   */
  function setGain(db: number | null): void {
    gainDb.value = db;
    if (!audio && db === null) return;
    const graph = audio ?? (audio = createGraph());
    if (!graph) return;
    graph.gain.gain.value = dbToAmplitude(db ?? 0);
    // Made outside a click (a version switch) the context may start suspended; resuming is harmless otherwise.
    if (graph.context.state === 'suspended') void graph.context.resume().catch(() => undefined);
  }
  function createGraph(): { context: AudioContext; gain: GainNode } | null {
    try {
      const context = (createAudioContext ?? (() => new AudioContext()))();
      const gain = context.createGain();
      context.createMediaElementSource(core.media).connect(gain);
      gain.connect(context.destination);
      return { context, gain };
    } catch (e) {
      // No Web Audio here: the take plays as it is, and the player says why.
      core.error.value = new Error(`Match loudness is not available here: ${toError(e).message}`);
      return null;
    }
  }

  /** Closes the audio graph (the waveform is destroyed). */
  function close(): void {
    void audio?.context.close().catch(() => undefined);
    audio = null;
  }

  return { gainDb, setGain, close };
}
