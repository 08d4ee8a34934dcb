import { PDFDocument, StandardFonts, rgb, type PDFFont } from 'pdf-lib';

/** One script part: its name (part number) and text. */
export interface ScriptPart {
  name: string;
  text: string;
}

/** What goes on a script PDF. */
export interface ScriptPdfInput {
  title: string;
  project?: string | undefined;
  parts: readonly ScriptPart[];
}

// US Letter with one-inch margins.
const PAGE: [number, number] = [612, 792];
const MARGIN = 72;
const BODY_SIZE = 11;
const LEADING = 15;
const FIXED_DATE = new Date(Date.UTC(2024, 0, 1));

/** Keeps only characters the standard font can encode (WinAnsi); others become '?'. */
function encodable(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  let out = '';
  for (const ch of text.replace(/\t/g, '    ')) {
    const cp = ch.codePointAt(0)!;
    out += supported.has(cp) ? ch : '?';
  }
  return out;
}

/** Greedy word wrap to `width` points; words longer than a line are cut. */
export function wrapText(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      // A word wider than a line is cut into line-wide pieces; each cut measures only about a line of
      // text (doubling, then halving), so a 100,000-character word takes milliseconds, not minutes.
      let start = 0;
      for (;;) {
        const fits = (n: number) => font.widthOfTextAtSize(word.slice(start, start + n), size) <= width;
        const left = word.length - start;
        let ok = 1;
        let over = 2;
        while (over <= left && fits(over)) {
          ok = over;
          over *= 2;
        }
        if (over > left) {
          if (fits(left)) break;
          over = left;
        }
        while (over - ok > 1) {
          const mid = (ok + over) >> 1;
          if (fits(mid)) ok = mid;
          else over = mid;
        }
        lines.push(word.slice(start, start + ok));
        start += ok;
      }
      line = word.slice(start);
    }
    lines.push(line);
  }
  return lines;
}

/**
 * A script as a PDF: title, project line, then each part under its name, wrapped and paged,
 * with page numbers. Dates and producer are fixed so the same input gives the same bytes.
 */
export async function renderScriptPdf(input: ScriptPdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  doc.setTitle(encodable(regular, input.title));
  doc.setProducer('Takedesk sandbox');
  doc.setCreator('Takedesk sandbox');
  doc.setCreationDate(FIXED_DATE);
  doc.setModificationDate(FIXED_DATE);
  const width = PAGE[0] - 2 * MARGIN;
  let page = doc.addPage(PAGE);
  let y = PAGE[1] - MARGIN;
  const ensureRoom = (height: number): void => {
    if (y - height < MARGIN) {
      page = doc.addPage(PAGE);
      y = PAGE[1] - MARGIN;
    }
  };
  for (const line of wrapText(encodable(bold, input.title), bold, 18, width)) {
    ensureRoom(24);
    page.drawText(line, { x: MARGIN, y: y - 18, size: 18, font: bold });
    y -= 24;
  }
  if (input.project) {
    ensureRoom(LEADING);
    page.drawText(encodable(regular, `Project: ${input.project}`), {
      x: MARGIN,
      y: y - 11,
      size: 10,
      font: regular,
      color: rgb(0.35, 0.35, 0.35),
    });
    y -= LEADING;
  }
  y -= 10;
  for (const part of input.parts) {
    ensureRoom(LEADING * 3);
    y -= 6;
    page.drawText(encodable(bold, part.name), { x: MARGIN, y: y - 12, size: 12, font: bold });
    y -= 20;
    for (const line of wrapText(encodable(regular, part.text), regular, BODY_SIZE, width)) {
      ensureRoom(LEADING);
      if (line) page.drawText(line, { x: MARGIN, y: y - BODY_SIZE, size: BODY_SIZE, font: regular });
      y -= LEADING;
    }
  }
  const pages = doc.getPages();
  pages.forEach((p, i) => {
    const label = `${i + 1} / ${pages.length}`;
    p.drawText(label, {
      x: PAGE[0] - MARGIN - regular.widthOfTextAtSize(label, 9),
      y: MARGIN / 2,
      size: 9,
      font: regular,
      color: rgb(0.5, 0.5, 0.5),
    });
  });
  return doc.save({ useObjectStreams: false });
}
