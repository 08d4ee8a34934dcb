import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { renderScriptPdf, wrapText } from './pdf';

const words = (n: number): string => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe('script pdf', () => {
  it('starts with %PDF, reloads with pdf-lib, keeps the title', async () => {
    const bytes = await renderScriptPdf({
      title: 'Spring sale',
      project: 'Radio spot',
      parts: [
        { name: '1', text: 'Hello there.' },
        { name: '2', text: 'Goodbye.' },
      ],
    });
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe('Spring sale');
  });

  it('breaks long scripts over pages', async () => {
    // About 80 words per 6 lines... 3000 words need several pages.
    const bytes = await renderScriptPdf({ title: 'Long', parts: [{ name: 'Part 1', text: words(3000) }] });
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(5);
  });

  it('is deterministic and survives characters the font lacks', async () => {
    const input = { title: '日本語 script', parts: [{ name: '1', text: 'こんにちは — café ✓' }] };
    const a = await renderScriptPdf(input);
    const b = await renderScriptPdf(input);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect((await PDFDocument.load(a)).getPageCount()).toBe(1);
  });

  it('wraps to the width and cuts over-long words', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const lines = wrapText(`${'x'.repeat(300)} short words here`, font, 11, 200);
    for (const line of lines) expect(font.widthOfTextAtSize(line, 11)).toBeLessThanOrEqual(200);
    expect(lines.join('')).toContain('x'.repeat(10));
    expect(lines.length).toBeGreaterThan(3);
  });

  // Issue 13 item 1: a long word (a topic without spaces) took minutes and froze the sandbox.
  it('cuts a 100,000-character word into line-wide pieces in well under a second', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const word = 'abcdefghij'.repeat(10_000);
    const started = performance.now();
    const lines = wrapText(word, font, 11, 480);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(lines.join('')).toBe(word);
    for (const line of lines) expect(font.widthOfTextAtSize(line, 11)).toBeLessThanOrEqual(480);
    // Every piece but the last is full: one more character would not fit.
    const next = lines[1]![0]!;
    expect(font.widthOfTextAtSize(lines[0]! + next, 11)).toBeGreaterThan(480);
  });
});
