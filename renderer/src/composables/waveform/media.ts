/** The <audio> element's side of the waveform: making it, what it has buffered, its URLs and its errors in words. */

export function defaultMedia(): HTMLMediaElement {
  const audio = document.createElement('audio');
  audio.preload = 'metadata';
  // CORS mode: Web Audio (Match loudness) hears a media-scheme stream only when it is fetched with CORS, which
  // the scheme answers for the app's page; same-origin in browser mode.
  audio.crossOrigin = 'anonymous';
  return audio;
}

export function bufferedShare(media: HTMLMediaElement): number {
  const d = media.duration;
  if (!Number.isFinite(d) || d <= 0 || !media.buffered || media.buffered.length === 0) return 0;
  return Math.min(1, media.buffered.end(media.buffered.length - 1) / d);
}

export function absolute(url: string): string {
  try {
    return new URL(url, document.baseURI).href;
  } catch {
    return url;
  }
}

/** Adds a media fragment start time (`#t=12.345`) unless the URL already has a fragment. */
export function withStart(url: string, seconds: number): string {
  if (url.includes('#') || !(seconds > 0)) return url;
  return `${url}#t=${seconds.toFixed(3)}`;
}

export function mediaErrorText(err: MediaError | null): string {
  switch (err?.code) {
    case 2:
      return 'The audio stream was interrupted (network).';
    case 3:
      return 'The audio could not be decoded.';
    case 4:
      return 'The audio file is missing or in a format this player cannot play.';
    default:
      return 'The audio could not be played.';
  }
}
