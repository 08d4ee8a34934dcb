/** Inserts `insert` into `text` at the caret (replacing a selection); returns the new text and caret. */
export function insertAtCaret(
  text: string,
  insert: string,
  selectionStart: number | null,
  selectionEnd: number | null = selectionStart,
): { text: string; caret: number } {
  const start = Math.min(Math.max(selectionStart ?? text.length, 0), text.length);
  const end = Math.min(Math.max(selectionEnd ?? start, start), text.length);
  // Keep words apart: a marker glued to the previous word reads as part of it.
  const before = text.slice(0, start);
  const pad = before.length > 0 && !/\s$/.test(before) ? ' ' : '';
  const after = text.slice(end);
  const trail = after.length > 0 && !/^\s/.test(after) ? ' ' : '';
  const piece = `${pad}${insert}${trail}`;
  return { text: before + piece + after, caret: start + pad.length + insert.length + trail.length };
}
