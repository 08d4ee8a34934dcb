import type { Page } from '@playwright/test';
import { captureScreens, expect, test } from '../fixtures';
import { ReviewPage } from '../pages/review-page';
import { deliveredRadioAndPodcast } from '../support/purpose-pair';

const SCRIPT = ['Fresh bread every morning, delivered warm to your door by the corner bakery.'];

interface PlayedMeter {
  /** Starts recording what every gain that feeds the speakers plays. */
  start(): void;
  /** Stops, decodes the recording and returns the RMS level in dBFS of the take played, from its first sound to its last. */
  stop(): Promise<{ rmsDb: number; seconds: number }>;
}

/**
 * Listens to what is played: every GainNode that feeds the speakers also feeds a MediaRecorder. The recording is
 * made off the page's thread, so a busy machine drops nothing; the silence before and after the take is left out.
 */
async function installPlayedMeter(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const streams: MediaStream[] = [];
    let recorder: MediaRecorder | null = null;
    let chunks: Blob[] = [];
    const connect = AudioNode.prototype.connect as (this: AudioNode, ...args: unknown[]) => unknown;
    AudioNode.prototype.connect = function (this: AudioNode, ...args: unknown[]) {
      const result = connect.apply(this, args);
      if (this instanceof GainNode && args[0] instanceof AudioDestinationNode) {
        // The player's graph runs on an AudioContext (a live one: it plays to the speakers).
        const tap = (this.context as AudioContext).createMediaStreamDestination();
        connect.call(this, tap);
        streams.push(tap.stream);
      }
      return result;
    } as typeof AudioNode.prototype.connect;
    const meter: PlayedMeter = {
      start() {
        const stream = streams.at(-1);
        if (!stream) throw new Error('nothing plays through a gain');
        chunks = [];
        recorder = new MediaRecorder(stream, { audioBitsPerSecond: 256_000 });
        recorder.ondataavailable = (event) => chunks.push(event.data);
        recorder.start();
      },
      async stop() {
        const done = new Promise((resolve) => (recorder!.onstop = resolve));
        recorder!.stop();
        await done;
        const blob = new Blob(chunks, { type: recorder!.mimeType });
        const context = new OfflineAudioContext(1, 1, 48_000);
        const audio = await context.decodeAudioData(await blob.arrayBuffer());
        const samples = audio.getChannelData(0);
        // 20 ms windows; those before the first and after the last one above -60 dBFS are the element not yet or no
        // longer playing (and the take's own head and tail silences, the same length in every take).
        const size = Math.round(audio.sampleRate * 0.02);
        const energies: number[] = [];
        for (let at = 0; at + size <= samples.length; at += size) {
          let energy = 0;
          for (let i = at; i < at + size; i++) energy += samples[i]! * samples[i]!;
          energies.push(energy);
        }
        const heard = (e: number) => e / size >= 1e-6;
        const first = energies.findIndex(heard);
        const last = energies.findLastIndex(heard);
        const played = energies.slice(first, last + 1);
        const sum = played.reduce((a, b) => a + b, 0);
        const n = played.length * size;
        return { rmsDb: 10 * Math.log10(sum / n), seconds: n / audio.sampleRate };
      },
    };
    (window as unknown as { playedMeter: PlayedMeter }).playedMeter = meter;
  });
}

/** Plays the take in the review player from its start to its end and returns the RMS level played, in dBFS. */
async function playedRms(page: Page, review: ReviewPage): Promise<number> {
  await review.pressKey('Home');
  await page.evaluate(() => (window as unknown as { playedMeter: PlayedMeter }).playedMeter.start());
  await review.play();
  await expect(review.waveform).not.toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  const { rmsDb, seconds } = await page.evaluate(() =>
    (window as unknown as { playedMeter: PlayedMeter }).playedMeter.stop(),
  );
  // Most of the 6.4 s take was heard through the gain (not the element straight to the speakers).
  expect(seconds, 'seconds heard through the gain').toBeGreaterThan(3);
  return rmsDb;
}

test('Match loudness: takes 7 dB apart play within 0.5 dB of each other, the gain shown and applied', async ({
  app,
  sandbox,
  session,
}) => {
  test.setTimeout(240_000);
  await installPlayedMeter(app);
  // Mastered by the sandbox's creatives to their purposes: the radio take at -23 LUFS, the podcast at -16.
  const { radio, podcast } = await deliveredRadioAndPodcast(sandbox, 'E2E match', SCRIPT);
  const review = new ReviewPage(app);
  const toggle = app.getByTestId('match-loudness-toggle');
  const gain = app.getByTestId('match-loudness-gain');

  await app.reload();
  await review.goto(session.appUrl, podcast.deliverables[0]!.id, podcast.project.id);
  await review.qaDownload.click();
  await expect(review.qaVerdict).toHaveText('-16 LUFS podcast and online: pass', { timeout: 60_000 });
  // Compared against broadcast: both takes are brought to -23 LUFS.
  await review.setQaTarget('ebu-r128');
  await toggle.check();
  await expect(gain).toHaveText(/^−[67]\.\d dB to play at -23 LUFS$/);
  const podcastGain = Number(await gain.getAttribute('data-gain-db'));
  await expect(review.waveform).toHaveAttribute('data-gain-db', podcastGain.toFixed(1));
  await captureScreens(app, 'match-loudness');
  const podcastRms = await playedRms(app, review);

  await review.goto(session.appUrl, radio.deliverables[0]!.id, radio.project.id);
  await review.qaDownload.click();
  await expect(review.qaVerdict).toHaveText('-23 LUFS EBU R128: pass', { timeout: 60_000 });
  await toggle.check();
  await expect(gain).toHaveText(/^(?:[+−]0\.\d|0\.0) dB to play at -23 LUFS$/);
  const radioRms = await playedRms(app, review);

  // The files are about 7 dB apart; what is played agrees within 0.5 dB, at the target's level.
  expect(Math.abs(podcastRms - radioRms), `podcast ${podcastRms} dBFS, radio ${radioRms} dBFS`).toBeLessThan(
    0.5,
  );
  expect(radioRms).toBeGreaterThan(-25);
  expect(radioRms).toBeLessThan(-20);
});
