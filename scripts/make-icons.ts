/**
 * `npm run icons`: every app icon is drawn from ONE procedural description (below) at each size — not scaled down
 * from a big bitmap, so small sizes stay crisp — and packed into the containers each OS wants:
 * build/icon.png (1024), build/icons/<n>x<n>.png (Linux), build/icon.ico (Windows), build/icon.icns (macOS).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';

/** Linux hicolor sizes; the ICO and ICNS take their subsets from these renders. */
export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024] as const;
/** Windows shows 16-256; larger entries only bloat the .ico. */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256] as const;
/** ICNS PNG entry types by pixel size (the @2x types reuse the same pixels as their doubled 1x size). */
export const ICNS_TYPES: ReadonlyArray<readonly [string, number]> = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
  ['ic11', 32],
  ['ic12', 64],
  ['ic13', 256],
  ['ic14', 512],
];

type Rgba = [number, number, number, number];

// The design, in unit coordinates (0..1): a rounded tile with a night-to-teal gradient, a centred waveform of
// seven bars, and an amber "approved" tick — the app reviews audio takes.
const TILE = { inset: 0.08, radius: 0.2 };
const TOP: Rgba = [32, 36, 92, 255];
const BOTTOM: Rgba = [12, 140, 150, 255];
const BAR = [0.22, 0.42, 0.7, 0.5, 0.86, 0.56, 0.3] as const;
const BAR_WIDTH = 0.062;
const BAR_GAP = 0.034;
const WHITE: Rgba = [245, 247, 250, 255];
const AMBER: Rgba = [255, 190, 60, 255];

/** Signed distance to a rounded rectangle centred at (cx, cy) with half-sizes (hw, hh) and corner radius r. */
function roundedRect(
  x: number,
  y: number,
  cx: number,
  cy: number,
  hw: number,
  hh: number,
  r: number,
): number {
  const qx = Math.abs(x - cx) - hw + r;
  const qy = Math.abs(y - cy) - hh + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

/** Distance to the segment a-b. */
function segment(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const [dx, dy] = [bx - ax, by - ay];
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - ax - t * dx, y - ay - t * dy);
}

/** Colour of one point of the design (straight alpha). */
function shade(x: number, y: number): Rgba {
  const half = 0.5 - TILE.inset;
  if (roundedRect(x, y, 0.5, 0.5, half, half, TILE.radius) > 0) return [0, 0, 0, 0];
  const t = (y - TILE.inset) / (1 - 2 * TILE.inset);
  const base: Rgba = [0, 1, 2].map((i) => Math.round(TOP[i]! + (BOTTOM[i]! - TOP[i]!) * t)) as Rgba;
  base[3] = 255;

  const tick =
    Math.min(segment(x, y, 0.6, 0.73, 0.66, 0.79), segment(x, y, 0.66, 0.79, 0.78, 0.64)) < 0.028
      ? AMBER
      : null;
  if (tick) return tick;

  const total = BAR.length * BAR_WIDTH + (BAR.length - 1) * BAR_GAP;
  const left = 0.5 - total / 2;
  for (let i = 0; i < BAR.length; i++) {
    const cx = left + i * (BAR_WIDTH + BAR_GAP) + BAR_WIDTH / 2;
    const hh = (BAR[i]! * 0.5) / 2;
    if (roundedRect(x, y, cx, 0.47, BAR_WIDTH / 2, hh, BAR_WIDTH / 2) <= 0) return WHITE;
  }
  return base;
}

/** Renders the icon at `size` pixels with 4x4 supersampling, returned as PNG bytes. */
export function renderIconPng(size: number): Buffer {
  const png = new PNG({ width: size, height: size });
  const grid = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let [r, g, b, a] = [0, 0, 0, 0];
      for (let sy = 0; sy < grid; sy++) {
        for (let sx = 0; sx < grid; sx++) {
          const c = shade((px + (sx + 0.5) / grid) / size, (py + (sy + 0.5) / grid) / size);
          // Premultiply so transparent samples do not darken the edge.
          r += c[0] * c[3];
          g += c[1] * c[3];
          b += c[2] * c[3];
          a += c[3];
        }
      }
      const o = (py * size + px) * 4;
      png.data[o] = a ? Math.round(r / a) : 0;
      png.data[o + 1] = a ? Math.round(g / a) : 0;
      png.data[o + 2] = a ? Math.round(b / a) : 0;
      png.data[o + 3] = Math.round(a / (grid * grid));
    }
  }
  return PNG.sync.write(png, { colorType: 6 });
}

/** Windows .ico with PNG-compressed entries (Vista+), one per size; 256 is written as 0 in the directory. */
export function buildIco(pngs: ReadonlyMap<number, Buffer>, sizes: readonly number[] = ICO_SIZES): Buffer {
  const header = Buffer.alloc(6 + 16 * sizes.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(sizes.length, 4);
  let offset = header.length;
  const bodies: Buffer[] = [];
  sizes.forEach((size, i) => {
    const data = pngOf(pngs, size);
    const e = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, e);
    header.writeUInt8(size >= 256 ? 0 : size, e + 1);
    header.writeUInt8(0, e + 2);
    header.writeUInt8(0, e + 3);
    header.writeUInt16LE(1, e + 4);
    header.writeUInt16LE(32, e + 6);
    header.writeUInt32LE(data.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += data.length;
    bodies.push(data);
  });
  return Buffer.concat([header, ...bodies]);
}

/** macOS .icns: `icns` + total length, then typed PNG entries (each with its own 8-byte header). */
export function buildIcns(pngs: ReadonlyMap<number, Buffer>, types = ICNS_TYPES): Buffer {
  const entries = types.map(([type, size]) => {
    const data = pngOf(pngs, size);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(data.length + 8, 4);
    return Buffer.concat([head, data]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(8 + entries.reduce((n, e) => n + e.length, 0), 4);
  return Buffer.concat([head, ...entries]);
}

function pngOf(pngs: ReadonlyMap<number, Buffer>, size: number): Buffer {
  const data = pngs.get(size);
  if (!data) throw new Error(`no ${size}px render`);
  return data;
}

/** Every icon file, by path relative to the build resources folder. */
export function renderAllIcons(): Map<string, Buffer> {
  const pngs = new Map(LINUX_SIZES.map((size) => [size, renderIconPng(size)] as const));
  const files = new Map<string, Buffer>();
  files.set('icon.png', pngOf(pngs, 1024));
  for (const size of LINUX_SIZES) files.set(`icons/${size}x${size}.png`, pngOf(pngs, size));
  files.set('icon.ico', buildIco(pngs));
  files.set('icon.icns', buildIcns(pngs));
  return files;
}

/** Writes every icon below `buildDir`. */
export function writeIcons(buildDir: string): string[] {
  const written: string[] = [];
  for (const [relative, data] of renderAllIcons()) {
    const path = join(buildDir, relative);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, data);
    written.push(relative);
  }
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const buildDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'build');
  for (const file of writeIcons(buildDir)) console.log(`build/${file}`);
}
