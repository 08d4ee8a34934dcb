/**
 * The drawing: one wavesurfer.js instance on the container, bound to the <audio> element, in the theme's colours,
 * with the regions plugin (loop and markers) and the time ruler when asked for.
 */
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.js';
import TimelinePlugin from 'wavesurfer.js/dist/plugins/timeline.js';
import type { UseWaveformOptions } from './model';

export function createRenderer(
  container: HTMLElement,
  media: HTMLMediaElement,
  options: UseWaveformOptions,
): {
  instance: WaveSurfer;
  regions: RegionsPlugin | null;
  token: (name: string, fallback: string) => string;
} {
  const token = (name: string, fallback: string) => tokenColor(container, name) || fallback;
  const plugins = [];
  let regions: RegionsPlugin | null = null;
  if (options.regions) {
    regions = (options.createRegions ?? (() => RegionsPlugin.create()))();
    plugins.push(regions);
  }
  if (options.timeline) {
    plugins.push(
      (options.createTimeline ?? (() => TimelinePlugin.create({ height: 16, secondaryLabelOpacity: 0.5 })))(),
    );
  }
  const instance = (options.createWaveSurfer ?? WaveSurfer.create)({
    container,
    media,
    height: options.height ?? 96,
    waveColor: token('--wave', token('--text-faint', '#8a929e')),
    progressColor: token('--wave-progress', token('--accent', '#5b9dff')),
    cursorColor: token('--text', '#e7e9ed'),
    cursorWidth: 1,
    barWidth: 2,
    barGap: 1,
    barRadius: 1,
    normalize: false,
    dragToSeek: true,
    autoScroll: true,
    autoCenter: true,
    hideScrollbar: false,
    cspNonce: options.cspNonce,
    // An unplayable MIME type keeps wavesurfer from swapping the media src for a blob: URL after decoding:
    // the element keeps streaming the media URL (CSP media-src has no blob:).
    blobMimeType: 'application/x-takedesk-decode-only',
    plugins,
  });
  return { instance, regions, token };
}

/**
 * The colour a token (`--accent`) has inside `container`, as `rgb(…)`, or '' when it is not set. Tokens are
 * `light-dark()` pairs that only CSS resolves (by color-scheme); a canvas would reject them as they are written.
 */
function tokenColor(container: HTMLElement, name: string): string {
  if (!getComputedStyle(container).getPropertyValue(name).trim()) return '';
  const probe = document.createElement('span');
  probe.style.color = `var(${name})`;
  container.append(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}
