import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { ICNS_TYPES, ICO_SIZES, LINUX_SIZES, buildIco, renderIconPng } from './make-icons';

const build = join(import.meta.dirname, '..', 'build');
const read = (relative: string) => readFileSync(join(build, relative));
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngSize(data: Buffer): { width: number; height: number } {
  expect(data.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

describe('icons (committed in build/, drawn by scripts/make-icons.ts)', () => {
  it('build/icon.png is a 1024x1024 RGBA PNG with transparent corners and an opaque centre', () => {
    const png = PNG.sync.read(read('icon.png'));
    expect([png.width, png.height]).toEqual([1024, 1024]);
    expect(png.data[3]).toBe(0);
    expect(png.data[(512 * 1024 + 512) * 4 + 3]).toBe(255);
  });

  it.each(LINUX_SIZES)('build/icons/%ix%i.png has its size', (size) => {
    expect(pngSize(read(`icons/${size}x${size}.png`))).toEqual({ width: size, height: size });
  });

  it('build/icon.ico holds PNG entries 16-256 whose directory matches their pixels', () => {
    const ico = read('icon.ico');
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, ICO_SIZES.length]);
    const sizes: number[] = [];
    for (let i = 0; i < ico.readUInt16LE(4); i++) {
      const e = 6 + 16 * i;
      const declared = ico.readUInt8(e) || 256;
      const [length, offset] = [ico.readUInt32LE(e + 8), ico.readUInt32LE(e + 12)];
      expect(ico.readUInt16LE(e + 6)).toBe(32);
      const entry = ico.subarray(offset, offset + length);
      expect(entry.length).toBe(length);
      expect(pngSize(entry)).toEqual({ width: declared, height: declared });
      sizes.push(declared);
    }
    expect(sizes).toEqual([...ICO_SIZES]);
  });

  it('build/icon.icns has a correct total length and every typed PNG entry at its size', () => {
    const icns = read('icon.icns');
    expect(icns.toString('latin1', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const found: Array<[string, number]> = [];
    for (let at = 8; at < icns.length;) {
      const type = icns.toString('latin1', at, at + 4);
      const length = icns.readUInt32BE(at + 4);
      expect(length).toBeGreaterThan(8);
      found.push([type, pngSize(icns.subarray(at + 8, at + length)).width]);
      at += length;
    }
    expect(found).toEqual(ICNS_TYPES.map(([type, size]) => [type, size]));
  });

  it('the committed renders are what the source draws today (run `npm run icons` after changing it)', () => {
    for (const size of [16, 32, 64, 128]) {
      expect(renderIconPng(size).equals(read(`icons/${size}x${size}.png`)), `${size}px`).toBe(true);
    }
  });

  it('buildIco writes 0 for a 256-pixel dimension, as the format requires', () => {
    const ico = buildIco(new Map([[256, renderIconPng(256)]]), [256]);
    expect([ico.readUInt8(6), ico.readUInt8(7)]).toEqual([0, 0]);
  });
});
