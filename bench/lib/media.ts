import { runCommand } from './timing';

/** Options for a generated test recording. */
export interface ProgramOptions {
  seconds: number;
  sampleRate?: number;
  /** 16, 24 or 32 (integer PCM), or 'float' for 32-bit float. */
  bitDepth?: 16 | 24 | 32 | 'float';
  /** 1 or 2. */
  channels?: 1 | 2;
  /** 'speech': band-limited noise bursts with pauses; 'music': chords with tremolo; 'program': both, with slow level swells. */
  kind?: 'speech' | 'music' | 'program';
  /** Overall gain in dB applied at the end. */
  gainDb?: number;
}

const codecFor = (b: ProgramOptions['bitDepth']): string =>
  b === 'float' ? 'pcm_f32le' : b === 16 ? 'pcm_s16le' : b === 32 ? 'pcm_s32le' : 'pcm_s24le';

/** Runs ffmpeg to write a file: no prompt, errors only, an existing output overwritten. */
async function ffmpegWrite(args: string[]): Promise<void> {
  await runCommand('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

/** ffmpeg filter graph for deterministic program-like material (seeded noise, fixed tones). */
function programGraph(o: Required<ProgramOptions>): { inputs: string[]; graph: string } {
  const r = o.sampleRate;
  const d = o.seconds;
  const speech =
    `anoisesrc=c=pink:r=${r}:a=0.5:d=${d}:seed=7,highpass=f=250,lowpass=f=3600,` +
    `volume='if(lt(mod(t,2.3),1.4),1,0.02)*(0.6+0.4*sin(2*PI*4*t))':eval=frame`;
  const music =
    `sine=f=220:r=${r}:d=${d},volume=0.25[m1];sine=f=277.18:r=${r}:d=${d},volume=0.2[m2];` +
    `sine=f=329.63:r=${r}:d=${d},volume=0.2[m3];sine=f=55:r=${r}:d=${d},volume=0.3[m4];` +
    `[m1][m2][m3][m4]amix=inputs=4:normalize=0,tremolo=f=2:d=0.5`;
  const swell = `volume='0.25+0.75*abs(sin(2*PI*t/37))':eval=frame`;
  const stereo = o.channels === 2 ? `,pan=stereo|c0=c0|c1=0.8*c0` : '';
  const gain = `,volume=${o.gainDb}dB`;
  let graph: string;
  if (o.kind === 'speech') graph = `${speech}${stereo}${gain}`;
  else if (o.kind === 'music') graph = `${music}${stereo}${gain}`;
  else graph = `${speech}[s];${music}[m];[s][m]amix=inputs=2:normalize=0,${swell}${stereo}${gain}`;
  return { inputs: [], graph };
}

/** Writes a deterministic program-like WAV with ffmpeg (lavfi sources, no input files). */
export async function generateProgramWav(path: string, options: ProgramOptions): Promise<void> {
  const o: Required<ProgramOptions> = {
    sampleRate: 48000,
    bitDepth: 24,
    channels: 2,
    kind: 'program',
    gainDb: 0,
    ...options,
  };
  const { graph } = programGraph(o);
  await ffmpegWrite([
    '-filter_complex',
    `${graph}[out]`,
    '-map',
    '[out]',
    '-ar',
    String(o.sampleRate),
    '-ac',
    String(o.channels),
    '-c:a',
    codecFor(o.bitDepth),
    path,
  ]);
}

/** Encodes any audio file to MP3 with ffmpeg's libmp3lame at a constant bit rate. */
export async function encodeMp3(input: string, output: string, bitrateK = 192): Promise<void> {
  await ffmpegWrite(['-i', input, '-c:a', 'libmp3lame', '-b:a', `${bitrateK}k`, output]);
}

/** Loudness summary printed by ffmpeg's ebur128 filter. */
export interface FfmpegLoudness {
  integratedLufs: number;
  loudnessRangeLu: number;
  truePeakDbtp: number | null;
}

/** Parses the LAST "Summary:" block of ffmpeg ebur128 output (ffmpeg 5.1 prints two). */
export function parseEbur128Summary(stderr: string): FfmpegLoudness {
  const at = stderr.lastIndexOf('Summary:');
  if (at < 0) throw new Error('No ebur128 Summary block in ffmpeg output.');
  const s = stderr.slice(at);
  const num = (re: RegExp): number | null => {
    const m = re.exec(s);
    if (!m?.[1]) return null;
    return m[1] === '-inf' ? Number.NEGATIVE_INFINITY : Number(m[1]);
  };
  const integrated = num(/Integrated loudness:\s+I:\s+(-?[\d.]+|-inf) LUFS/);
  const lra = num(/Loudness range:\s+LRA:\s+(-?[\d.]+) LU/);
  if (integrated === null || lra === null) throw new Error('Unreadable ebur128 Summary block.');
  return {
    integratedLufs: integrated,
    loudnessRangeLu: lra,
    truePeakDbtp: num(/True peak:\s+Peak:\s+(-?[\d.]+|-inf) dBFS/),
  };
}

/** Measures a file with `ffmpeg -filter_complex ebur128=peak=true` (the reference meter). */
export async function ffmpegLoudness(path: string): Promise<FfmpegLoudness> {
  const { stderr } = await runCommand('ffmpeg', [
    '-nostdin',
    '-hide_banner',
    '-nostats',
    '-i',
    path,
    '-filter_complex',
    'ebur128=peak=true',
    '-f',
    'null',
    '-',
  ]);
  return parseEbur128Summary(stderr);
}
