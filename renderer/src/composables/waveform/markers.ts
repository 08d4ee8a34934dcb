/**
 * Note markers on the waveform: regions of the regions plugin, each with a readable flag; kept across loads and
 * drawn once the file's length is known (before, the plugin would clamp each to 0:00).
 */
import type { Region } from 'wavesurfer.js/dist/plugins/regions.js';
import type { WaveformCore, WaveformMarker } from './model';

// Custom properties reach into wavesurfer's shadow root, so markers follow the theme as it changes.
const MARKER_COLORS = {
  draft: 'var(--accent, #2f6fdd)',
  earlier: 'var(--warning, #9a6200)',
  surface: 'var(--surface, #ffffff)',
  text: 'var(--text, #1f2328)',
};

// Marker regions are told apart from the loop region by their id.
const MARKER_PREFIX = 'note-marker-';
export function isMarker(region: Region): boolean {
  return region.id.startsWith(MARKER_PREFIX);
}

export function waveformMarkers(core: WaveformCore) {
  let markers: WaveformMarker[] = [];
  let markerRegions: Region[] = [];

  /** Shows `next` as markers on the waveform (replacing the previous ones); kept across loads. */
  function setMarkers(next: readonly WaveformMarker[]): void {
    markers = [...next];
    drawMarkers();
  }
  function drawMarkers(): void {
    for (const region of markerRegions) region.remove();
    markerRegions = [];
    const plugin = core.regions;
    // Before a file's length is known a region would be clamped to 0:00: the next `ready` draws them.
    if (!plugin || !(core.ws && core.ws.getDuration() > 0)) return;
    for (const marker of markers) {
      const color = marker.tone === 'draft' ? MARKER_COLORS.draft : MARKER_COLORS.earlier;
      markerRegions.push(
        plugin.addRegion({
          id: `${MARKER_PREFIX}${marker.id}`,
          start: marker.seconds,
          color,
          drag: false,
          resize: false,
          content: markerLabel(marker, color),
        }),
      );
    }
  }

  /** Forgets the regions of a destroyed instance (they went with it); the markers stay for the next one. */
  function forget(): void {
    markerRegions = [];
  }

  return { setMarkers, drawMarkers, forget };
}

/** The marker's flag: solid colours so its text stays readable over the waveform (axe contrast). */
function markerLabel(marker: WaveformMarker, color: string): HTMLElement {
  const label = document.createElement('span');
  label.textContent = marker.label;
  label.title = marker.title ?? `Play from ${marker.label}`;
  label.dataset.testid = 'waveform-marker';
  label.dataset.markerId = marker.id;
  label.dataset.seconds = marker.seconds.toFixed(1);
  label.dataset.tone = marker.tone;
  Object.assign(label.style, {
    display: 'inline-block',
    padding: '1px 4px',
    font: '600 11px/1.3 system-ui, sans-serif',
    background: MARKER_COLORS.surface,
    color: MARKER_COLORS.text,
    borderLeft: `3px solid ${color}`,
    borderRadius: '0 3px 3px 0',
    cursor: 'pointer',
    whiteSpace: 'nowrap',
  });
  return label;
}
