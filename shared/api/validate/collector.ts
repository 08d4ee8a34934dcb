// What a validation answers (issues with a code and a field path) and with what options, the sandbox's own bounds,
// and the collector every body's checks add their issues to.
import type { AccountKind } from '../account-kind';
import { ERROR_CATALOG, type ErrorCode } from '../errors';

/** One problem found in a body. */
export interface ValidationIssue {
  code: ErrorCode;
  /** Where, e.g. 'title', 'services[0].language', 'services[2].tone.conciseWordy'; '' for the body itself. */
  path: string;
  message: string;
}

/** What the validator checks against; the active sets come from the attribute-values endpoint. */
export interface ValidateOptions {
  /** When given, a language outside it is LANGUAGE_NOT_ACTIVE. */
  activeLanguages?: ReadonlySet<string>;
  /** When given, a genderAndAge outside it is GENDER_AND_AGE_NOT_ACTIVE. */
  activeGenderAndAges?: ReadonlySet<string>;
  /** Categories enabled for API projects; default voice_over and audio_ads. */
  authorizedMainServices?: ReadonlySet<string>;
  /** Subcategories enabled for API projects; default voice_over, scriptwriting, post-production. */
  authorizedSubCategories?: ReadonlySet<string>;
  /** The field list marks remarks optional, the error list has REMARKS_REQUIRED; default false. */
  requireRemarks?: boolean;
  /**
   * Who the body is for. PROJECT_LIMITS are the sandbox's own bounds: applied only for `'sandbox'` (the sandbox
   * itself, and the form on the Sandbox profile). A live account states no such limits, so for it, and by default,
   * none is checked: the live service says itself what it refuses.
   */
  accountKind?: AccountKind;
}

export type Json = Record<string, unknown>;

/** Longest title, in code points: the interface's TITLE_TOO_LONG, which applies to every account. */
export const TITLE_MAX = 100;

/**
 * Bounds the spec leaves "not shown" (sandbox choices, electron/sandbox/README.md). They are what the
 * sandbox can deliver, and the form on the Sandbox profile shares them so it refuses up front what the sandbox
 * would refuse. The live service states none: they are never applied to a live account's request
 * (`ValidateOptions.accountKind`; live-values.ts marks each `sandbox-only`).
 */
export const PROJECT_LIMITS = Object.freeze({
  /** Longest audio (`seconds` of script writing and post production): one hour, the media store's limit. */
  maxSeconds: 3600,
  /** Entries of `services`; no category takes more than three. */
  maxServices: 10,
  /** Parts of a script (array entries, and keys over all entries); each part is a deliverable. */
  maxScriptParts: 100,
  /** Words of a whole script: read at 150 words a minute, the voice stays well under the one-hour limit. */
  maxScriptWords: 8000,
  /** Characters (code points) of a whole script, which bounds character-billed scripts. */
  maxScriptCharacters: 100_000,
});

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
export function isMissing(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Collects issues and offers the field checks every body shares; `limits`: whether PROJECT_LIMITS apply. */
export function createCollector(limits = false) {
  const issues: ValidationIssue[] = [];
  const add = (code: ErrorCode, path: string, message: string = ERROR_CATALOG[code].message) => {
    issues.push({ code, path, message });
  };
  const join = (base: string, key: string) => (base ? `${base}.${key}` : key);
  return {
    issues,
    add,
    join,
    limits,
    /** A required string; returns it when present and valid. */
    requiredString(obj: Json, key: string, base: string, required: ErrorCode, wrongType: ErrorCode) {
      const value = obj[key];
      const path = join(base, key);
      if (isMissing(value)) return void add(required, path);
      if (typeof value !== 'string') return void add(wrongType, path);
      if (value.trim() === '') return void add(required, path);
      return value;
    },
    optionalString(obj: Json, key: string, base: string, wrongType: ErrorCode) {
      const value = obj[key];
      if (isMissing(value)) return undefined;
      if (typeof value !== 'string') return void add(wrongType, join(base, key));
      return value;
    },
    optionalBoolean(obj: Json, key: string, base: string, wrongType: ErrorCode) {
      const value = obj[key];
      if (!isMissing(value) && typeof value !== 'boolean') add(wrongType, join(base, key));
    },
    active(value: string | undefined, set: ReadonlySet<string> | undefined, code: ErrorCode, path: string) {
      if (value !== undefined && set && !set.has(value))
        add(code, path, `${ERROR_CATALOG[code].message} (${value})`);
    },
  };
}
export type Collector = ReturnType<typeof createCollector>;
