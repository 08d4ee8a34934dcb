// Scripts and units: a script's two forms and its parts, and how a language counts its units (words, or
// characters for the character-billed ones).
/** A script as the service accepts it. */
export type ScriptInput = string | ReadonlyArray<Readonly<Record<string, string>>>;

/** The array form of a script: a plain string becomes `[{ part001: text }]`. */
export function normalizeScript(script: ScriptInput): Array<Record<string, string>> {
  if (typeof script === 'string') return [{ part001: script }];
  return script.map((part) => ({ ...part }));
}

/** Every part of a script in order: each key/value of each object. */
export function scriptParts(script: ScriptInput): Array<{ key: string; text: string }> {
  return normalizeScript(script).flatMap((part) =>
    Object.entries(part).map(([key, text]) => ({ key, text })),
  );
}

/**
 * Languages billed by characters (a sandbox choice: the live list was not found). Matched on the
 * part of the language id before the dash: 'jpn-jp', 'cmn-zh', 'yue-zh', 'wuu-zh', 'kor-ko',
 * 'tha-th', and the two-letter forms.
 */
export const CHARACTER_BILLED_LANGUAGES: ReadonlySet<string> = new Set([
  'jpn',
  'cmn',
  'yue',
  'wuu',
  'zho',
  'kor',
  'tha',
  'ja',
  'zh',
  'ko',
  'th',
]);

/** Whether a language id is billed by characters. */
export function isCharacterBilled(language: string): boolean {
  const base = language.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return CHARACTER_BILLED_LANGUAGES.has(base);
}

/** Units of a text: code points without whitespace for character-billed languages, else whitespace-separated words. */
export function countUnits(
  text: string,
  language: string,
): { units: number; unitType: 'words' | 'characters' } {
  if (isCharacterBilled(language)) {
    let units = 0;
    for (const char of text) if (!/\s/u.test(char)) units += 1;
    return { units, unitType: 'characters' };
  }
  return { units: text.split(/\s+/u).filter((word) => word !== '').length, unitType: 'words' };
}

/** Units of a whole script (sum over its parts). */
export function scriptUnits(
  script: ScriptInput,
  language: string,
): { units: number; unitType: 'words' | 'characters' } {
  const unitType = isCharacterBilled(language) ? 'characters' : 'words';
  const units = scriptParts(script).reduce((sum, part) => sum + countUnits(part.text, language).units, 0);
  return { units, unitType };
}
