// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { effectScope, nextTick, ref, watch } from 'vue';
import type WaveSurfer from 'wavesurfer.js';
import type { WaveSurferOptions } from 'wavesurfer.js';
import { FIRST_PAINT_MARK, useWaveform, withStart, type UseWaveformOptions } from './use-waveform';

type Handler = (...args: unknown[]) => void;

/** The on/emit half of wavesurfer's and its regions plugin's event API, shared by both fakes. */
class FakeEvents {
  handlers = new Map<string, Set<Handler>>();
  on(event: string, fn: Handler) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)!.add(fn);
    return () => this.handlers.get(event)?.delete(fn);
  }
  emit(event: string, ...args: unknown[]) {
    for (const fn of this.handlers.get(event) ?? []) fn(...args);
  }
}

/** The slice of an <audio> element the composable reads, with a settable position. */
class FakeMedia {
  src: string | null = null;
  currentTime = 0;
  paused = true;
  playbackRate = 1;
  duration = 0;
  error = null;
  listeners = new Map<string, Set<Handler>>();
  addEventListener(type: string, fn: Handler) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(fn);
  }
  removeEventListener(type: string, fn: Handler) {
    this.listeners.get(type)?.delete(fn);
  }
  listenerCount() {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }
  getAttribute(name: string) {
    return name === 'src' ? this.src : null;
  }
  removeAttribute() {
    this.src = null;
  }
  pause() {
    this.paused = true;
  }
  load() {}
}

/** Records what the composable asks wavesurfer to do and lets the test fire its events. */
class FakeWaveSurfer extends FakeEvents {
  loads: Array<{ url: string; peaks?: unknown; duration?: number }> = [];
  destroyed = false;
  time = 0;
  mediaDuration = 30;
  durationValue = 0;
  failDecode = false;
  constructor(
    readonly options: WaveSurferOptions,
    readonly media: FakeMedia,
  ) {
    super();
  }
  handlerCount() {
    let n = 0;
    for (const set of this.handlers.values()) n += set.size;
    return n;
  }
  async load(url: string, peaks?: unknown, duration?: number) {
    this.loads.push({ url, peaks, duration });
    if (!peaks && this.failDecode) throw new Error('fetch blocked');
    this.media.src = url;
    const hash = /#t=([\d.]+)$/.exec(url);
    this.media.currentTime = hash ? Number(hash[1]) : 0;
    this.media.paused = true;
    this.durationValue = duration ?? this.mediaDuration;
    this.emit('redraw');
    this.emit('ready', this.durationValue);
  }
  getDuration() {
    return this.durationValue;
  }
  getCurrentTime() {
    return this.media.currentTime;
  }
  setTime(t: number) {
    this.media.currentTime = t;
    this.time = t;
  }
  async play() {
    this.media.paused = false;
    this.emit('play');
  }
  pause() {
    this.media.paused = true;
    this.emit('pause');
  }
  setPlaybackRate(r: number) {
    this.media.playbackRate = r;
  }
  zoom() {}
  destroy() {
    this.destroyed = true;
  }
}

function setup(extra: Partial<UseWaveformOptions> = {}) {
  const media = new FakeMedia();
  const instances: FakeWaveSurfer[] = [];
  const container = ref<HTMLElement | null>(null);
  const scope = effectScope();
  const waveform = scope.run(() =>
    useWaveform({
      container,
      cspNonce: 'n0nce',
      createMedia: () => media as unknown as HTMLMediaElement,
      createWaveSurfer: (options) => {
        const fake = new FakeWaveSurfer(options, media);
        instances.push(fake);
        return fake as unknown as WaveSurfer;
      },
      ...extra,
    }),
  )!;
  return { media, instances, container, scope, waveform };
}

const peaks = {
  duration: 600,
  peaks: [
    [0.5, 0.2, 0.9],
    [-0.5, -0.2, -0.9],
  ],
};

afterEach(() => {
  performance.clearMarks();
  performance.clearMeasures();
});

describe('useWaveform', () => {
  it('creates one instance on mount with the media element and nonce, and flushes every disposer on dispose', async () => {
    const { media, instances, container, scope } = setup();
    expect(instances).toHaveLength(0);
    container.value = document.createElement('div');
    await nextTick();
    expect(instances).toHaveLength(1);
    const ws = instances[0]!;
    expect(ws.options.media).toBe(media);
    expect(ws.options.cspNonce).toBe('n0nce');
    expect(ws.handlerCount()).toBeGreaterThan(0);
    expect(media.listenerCount()).toBeGreaterThan(0);
    scope.stop();
    expect(ws.destroyed).toBe(true);
    expect(ws.handlerCount()).toBe(0);
    expect(media.listenerCount()).toBe(0);
  });

  it('draws precomputed peaks with their duration and records the first-paint measure', async () => {
    const { instances, container, waveform } = setup();
    container.value = document.createElement('div');
    await nextTick();
    const arrived = performance.now();
    await waveform.load({ url: '/media/a.wav', peaks, peaksArrivedAt: arrived });
    const call = instances[0]!.loads[0]!;
    expect(call.url).toBe(new URL('/media/a.wav', document.baseURI).href);
    expect(call.peaks).toBe(peaks.peaks);
    expect(call.duration).toBe(600);
    expect(waveform.placeholder.value).toBe(false);
    expect(waveform.ready.value).toBe(true);
    expect(waveform.duration.value).toBe(600);
    expect(waveform.firstPaintMs.value).not.toBeNull();
    expect(performance.getEntriesByName(FIRST_PAINT_MARK, 'measure')).toHaveLength(1);
  });

  it('loads a source requested before mount once the container exists', async () => {
    const { instances, container, waveform } = setup();
    await waveform.load({ url: '/media/early.wav', peaks });
    container.value = document.createElement('div');
    await nextTick();
    await Promise.resolve();
    expect(instances[0]!.loads[0]!.url).toContain('/media/early.wav');
  });

  it('draws live peaks over the placeholder on the same media, and never over the file’s own peaks', async () => {
    const { instances, container, waveform, media } = setup();
    container.value = document.createElement('div');
    await nextTick();
    const ws = instances[0]!;
    ws.mediaDuration = 700;
    await waveform.load({ url: '/media/streaming.wav', decode: 'never' });
    const src = media.src;
    await waveform.drawLive(peaks);
    await waveform.drawLive({
      ...peaks,
      peaks: [
        [0.5, 0.2, 0.9, 0.4],
        [-0.5, -0.2, -0.9, -0.4],
      ],
    });
    // Same source each time (wavesurfer keeps the element's stream), the duration from the peaks, still a placeholder.
    expect(ws.loads.slice(1).map((l) => [l.url, l.duration])).toEqual([
      [src, 600],
      [src, 600],
    ]);
    expect(waveform.livePainted.value).toBe(2);
    expect(waveform.placeholder.value).toBe(true);

    await waveform.load({ url: '/media/local.wav', peaks, decode: 'never' });
    const before = ws.loads.length;
    await waveform.drawLive(peaks);
    expect(ws.loads).toHaveLength(before);
  });

  it('without peaks draws a flat placeholder, and decodes only short files when allowed', async () => {
    const { instances, container, waveform } = setup();
    container.value = document.createElement('div');
    await nextTick();
    const ws = instances[0]!;
    ws.mediaDuration = 700;
    await waveform.load({ url: '/media/long.wav', decode: 'short' });
    expect(ws.loads).toHaveLength(1);
    expect(ws.loads[0]!.peaks).toBeDefined();
    expect(waveform.placeholder.value).toBe(true);

    ws.mediaDuration = 20;
    await waveform.load({ url: '/media/sample.mp3', decode: 'short' });
    expect(ws.loads).toHaveLength(3);
    expect(ws.loads[2]!.peaks).toBeUndefined();
    expect(waveform.placeholder.value).toBe(false);
  });

  it('keeps the placeholder and shows no error when decoding a short file is refused', async () => {
    const { instances, container, waveform } = setup();
    container.value = document.createElement('div');
    await nextTick();
    const ws = instances[0]!;
    ws.failDecode = true;
    await waveform.load({ url: '/media/sample.mp3', decode: 'short' });
    expect(waveform.placeholder.value).toBe(true);
    expect(waveform.error.value).toBeNull();
    expect(ws.media.src).toContain('/media/sample.mp3');
  });

  it('A/B swap keeps the playhead, the play state and the speed', async () => {
    const { instances, container, waveform, media } = setup();
    container.value = document.createElement('div');
    await nextTick();
    await waveform.load({ url: '/media/v1.wav', peaks });
    await waveform.play();
    waveform.setRate(1.5);
    media.currentTime = 12.4;
    const settled = waveform.settled.value;
    await waveform.swap({ url: '/media/v2.wav', peaks });
    const ws = instances[0]!;
    expect(waveform.settled.value).toBe(settled + 1);
    expect(waveform.currentTime.value).toBeCloseTo(12.4, 3); // the clock, not only the element
    expect(ws.loads.at(-1)!.url).toMatch(/\/media\/v2\.wav#t=12\.400$/);
    expect(media.currentTime).toBeCloseTo(12.4, 3);
    expect(media.paused).toBe(false);
    expect(media.playbackRate).toBe(1.5);
    expect(instances).toHaveLength(1);
  });

  it('loops between the region bounds while playing', async () => {
    const { instances, container, waveform } = setup();
    container.value = document.createElement('div');
    await nextTick();
    await waveform.load({ url: '/media/a.wav', peaks });
    waveform.setLoop({ start: 2, end: 4 });
    await waveform.play();
    instances[0]!.emit('timeupdate', 4.0);
    expect(instances[0]!.time).toBe(2);
    waveform.toggleLoop();
    expect(waveform.loop.value).toBe(false);
  });

  it('seek clamps to the file and reports clicks to listeners', async () => {
    const { instances, container, waveform } = setup();
    container.value = document.createElement('div');
    await nextTick();
    await waveform.load({ url: '/media/a.wav', peaks });
    waveform.seek(9999);
    expect(waveform.currentTime.value).toBe(600);
    waveform.seekBy(-1000);
    expect(waveform.currentTime.value).toBe(0);
    const clicks: number[] = [];
    const off = waveform.onSeekClick((t) => clicks.push(t));
    instances[0]!.emit('interaction', 12.4);
    off();
    instances[0]!.emit('interaction', 13);
    expect(clicks).toEqual([12.4]);
  });
});

describe('withStart', () => {
  it.each([
    ['http://h/m.wav', 12.4, 'http://h/m.wav#t=12.400'],
    ['http://h/m.wav', 0, 'http://h/m.wav'],
    ['http://h/m.wav#x', 3, 'http://h/m.wav#x'],
  ])('%s at %s -> %s', (url, t, expected) => {
    expect(withStart(url, t)).toBe(expected);
  });
});

/** The slice of the regions plugin the composable uses: regions by id, and its events. */
class FakeRegions extends FakeEvents {
  regions: Array<{ id: string; start: number; removed: boolean; remove: () => void }> = [];
  enableDragSelection() {
    return () => undefined;
  }
  addRegion(options: { id: string; start: number; end?: number }) {
    const region = {
      id: options.id,
      start: options.start,
      end: options.end ?? options.start,
      removed: false,
      remove: () => {
        region.removed = true;
        this.emit('region-removed', region);
      },
    };
    this.regions.push(region);
    this.emit('region-created', region);
    return region;
  }
  live() {
    return this.regions.filter((r) => !r.removed);
  }
}

describe('useWaveform markers and streaming start', () => {
  it('draws note markers apart from the loop; a click on one plays from it and goes no further', async () => {
    const plugin = new FakeRegions();
    const { instances, container, waveform } = setup({
      regions: true,
      createRegions: () => plugin as never,
    });
    waveform.setMarkers([{ id: 'draft-0', seconds: 2.1, label: '0:02.1', tone: 'draft' }]);
    container.value = document.createElement('div');
    await nextTick();
    await waveform.load({ url: '/media/take.wav', peaks });
    expect(plugin.live().map((r) => [r.id, r.start])).toEqual([['note-marker-draft-0', 2.1]]);
    expect(waveform.loop.value).toBe(false);

    waveform.setMarkers([
      { id: 'v1-0', seconds: 1, label: 'v1 0:01.0', tone: 'earlier' },
      { id: 'draft-0', seconds: 4.5, label: '0:04.5', tone: 'draft' },
    ]);
    expect(plugin.live().map((r) => r.start)).toEqual([1, 4.5]);
    expect(waveform.loop.value).toBe(false);

    let stopped = false;
    plugin.emit('region-clicked', plugin.live()[1], { stopPropagation: () => (stopped = true) });
    await Promise.resolve();
    expect(stopped).toBe(true);
    expect(instances[0]!.media.currentTime).toBe(4.5);
    expect(waveform.lastSeek.value).toBe(4.5);
    expect(waveform.playing.value).toBe(true);

    waveform.setMarkers([]);
    expect(plugin.live()).toEqual([]);
  });

  it('markers known before the file’s length are drawn at their times once it is known, not at 0:00', async () => {
    // As wavesurfer's regions plugin does: a region's start is clamped to the length known when it is added.
    let instances: FakeWaveSurfer[] = [];
    const plugin = new (class extends FakeRegions {
      override addRegion(options: { id: string; start: number; end?: number }) {
        const known = instances.at(-1)?.getDuration() ?? 0;
        return super.addRegion({ ...options, start: Math.max(0, Math.min(known, options.start)) });
      }
    })();
    const made = setup({ regions: true, createRegions: () => plugin as never });
    const { container, waveform } = made;
    instances = made.instances;
    // The screen has the notes of version 1 before the player exists (its versions answer came first).
    waveform.setMarkers([
      { id: 'v1-0', seconds: 3.8, label: 'v1 0:03.8', tone: 'earlier' },
      { id: 'v1-1', seconds: 12.5, label: 'v1 0:12.5', tone: 'earlier' },
    ]);
    void waveform.load({ url: '/media/take-v2.wav', peaks });
    container.value = document.createElement('div');
    await nextTick();
    await vi.waitFor(() => expect(waveform.ready.value).toBe(true));
    expect(plugin.live().map((r) => [r.id, r.start])).toEqual([
      ['note-marker-v1-0', 3.8],
      ['note-marker-v1-1', 12.5],
    ]);
    // A click on one plays from its time, not from the start.
    plugin.emit('region-clicked', plugin.live()[0], { stopPropagation: () => undefined });
    expect(waveform.lastSeek.value).toBe(3.8);
  });

  it('with autoplay, plays as soon as the element can, before a short file is decoded', async () => {
    const { instances, container, waveform } = setup();
    container.value = document.createElement('div');
    await nextTick();
    const ws = instances[0]!;
    ws.mediaDuration = 20;
    const order: string[] = [];
    const load = ws.load.bind(ws);
    ws.load = async (url: string, p?: unknown, d?: number) => {
      order.push(p ? 'metadata' : 'decode');
      await load(url, p, d);
    };
    const play = ws.play.bind(ws);
    ws.play = async () => {
      order.push('play');
      await play();
    };
    await waveform.load({ url: '/media/preview.mp3', decode: 'short' }, { autoplay: true });
    expect(order).toEqual(['metadata', 'play', 'decode']);
    expect(waveform.placeholder.value).toBe(false);
  });
});

/** The slice of Web Audio the gain uses: records the wiring and the gain values in the order they were set. */
function fakeAudioContext(log: string[]) {
  const gain = {
    gain: {
      set value(v: number) {
        log.push(`gain ${v.toFixed(4)}`);
      },
    },
    connect: (to: unknown) => log.push(`gain -> ${to === destination ? 'speakers' : 'other'}`),
  };
  const destination = {};
  const context = {
    state: 'running',
    destination,
    createGain: () => gain,
    createMediaElementSource: () => ({ connect: () => log.push('media -> gain') }),
    close: async () => log.push('closed'),
  };
  return context as unknown as AudioContext;
}

describe('useWaveform play state across loads', () => {
  it('a new file is not playing until it plays, so the next autoplay is heard as a start', async () => {
    const { container, waveform } = setup();
    container.value = document.createElement('div');
    await nextTick();
    await waveform.load({ url: '/media/a.mp3', peaks }, { autoplay: true });
    expect(waveform.playing.value).toBe(true);
    const starts: boolean[] = [];
    const stop = watch(waveform.playing, (p) => starts.push(p), { flush: 'sync' });
    await waveform.load({ url: '/media/b.mp3', peaks }, { autoplay: true });
    stop();
    expect(starts).toEqual([false, true]);
    expect(waveform.playing.value).toBe(true);
  });
});

describe('useWaveform gain (Match loudness)', () => {
  it('plays through no Web Audio graph until a gain is asked for; then one graph boosts and cuts', async () => {
    const log: string[] = [];
    const created = vi.fn(() => fakeAudioContext(log));
    const { container, waveform, scope } = setup({ createAudioContext: created });
    container.value = document.createElement('div');
    await nextTick();
    await waveform.load({ url: '/media/v1.wav', peaks }, { gainDb: null });
    expect(created).not.toHaveBeenCalled();

    waveform.setGain(0);
    waveform.setGain(6.0206);
    waveform.setGain(-6.0206);
    expect(created).toHaveBeenCalledTimes(1);
    expect(log).toEqual(['media -> gain', 'gain -> speakers', 'gain 1.0000', 'gain 2.0000', 'gain 0.5000']);
    expect(waveform.gainDb.value).toBeCloseTo(-6.0206, 4);
    scope.stop();
    expect(log.at(-1)).toBe('closed');
  });

  it('an A/B swap changes the gain with the media, before playback resumes', async () => {
    const log: string[] = [];
    const { container, waveform, media } = setup({ createAudioContext: () => fakeAudioContext(log) });
    container.value = document.createElement('div');
    await nextTick();
    await waveform.load({ url: '/media/v1.wav', peaks }, { gainDb: 2.4 });
    await waveform.play();
    media.currentTime = 3;
    const order: string[] = [];
    const ws = waveform.instance() as unknown as FakeWaveSurfer;
    const realPlay = ws.play.bind(ws);
    ws.play = async () => {
      order.push(`play at ${waveform.gainDb.value} dB`);
      await realPlay();
    };
    const realLoad = ws.load.bind(ws);
    ws.load = async (...args: Parameters<FakeWaveSurfer['load']>) => {
      order.push(`load at ${waveform.gainDb.value} dB`);
      await realLoad(...args);
    };
    await waveform.swap({ url: '/media/v2.wav', peaks }, { gainDb: -6 });
    expect(order).toEqual(['load at 2.4 dB', 'play at -6 dB']);
    expect(log.filter((l) => /^gain \d/.test(l))).toEqual(['gain 1.3183', 'gain 0.5012']);
    expect(media.paused).toBe(false);
  });
});
