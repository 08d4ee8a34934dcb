/**
 * The one rule for every state file main keeps (settings, tokens, download queue, outbox, review index, watcher
 * memory, library manifest): a damaged file costs only what is damaged in it.
 *
 * - The damaged bytes are kept first: copied to `<name>.damaged-<timestamp>.json` beside the file, never over an
 *   earlier copy. A file that cannot be read at all (a folder in its place, no permission) is moved there instead.
 * - What can be read is recovered field by field against the file's zod schema: a bad value drops that value only
 *   (an entry of a list or a map, or a field of an object), and a file cut short keeps every value before the cut.
 * - The user is told once what was reset (`StateNotices`, which the renderer takes through `app.notices`).
 * - The recovered value is written back only after the copy exists, so the damaged file is never lost.
 */
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import type { StateNotice } from '../../../shared/ipc';

/** What main tells the user about state files it recovered; each notice is handed to the renderer once. */
export interface StateNotices {
  report(notice: StateNotice): void;
  /** The notices not yet shown; they are not given again. */
  take(): StateNotice[];
  /** Called after every report (main's event bus: the renderer then takes them). */
  onReport(listener: () => void): void;
}

export function createStateNotices(): StateNotices {
  let pending: StateNotice[] = [];
  const listeners: Array<() => void> = [];
  return {
    report(notice) {
      pending.push(notice);
      for (const listener of listeners) listener();
    },
    take() {
      const taken = pending;
      pending = [];
      return taken;
    },
    onReport: (listener) => void listeners.push(listener),
  };
}

/** What recovering one value against its schema kept, and the paths of what it dropped. */
export interface Salvaged<T> {
  value: T | undefined;
  reset: string[];
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

const childPath = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  valueType?: z.ZodType;
  keyType?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
};

/**
 * Keeps of `value` everything `schema` accepts: fields of objects, entries of records and arrays are checked one
 * by one, and only the bad ones go. A required field that is bad makes its object bad (it goes from its parent).
 */
export function salvage<T>(schema: z.ZodType<T>, value: unknown, path = ''): Salvaged<T> {
  const whole = schema.safeParse(value);
  if (whole.success) return { value: whole.data, reset: [] };
  const def = (schema as unknown as { def: Def }).def;
  const dropped = (): Salvaged<T> => ({ value: undefined, reset: [path || '(everything)'] });
  if ((def.type === 'optional' || def.type === 'default' || def.type === 'nullable') && def.innerType) {
    if (value === undefined) return dropped();
    return salvage(def.innerType, value, path) as Salvaged<T>;
  }
  if (def.type === 'object' && def.shape) {
    if (!isPlainObject(value)) return dropped();
    const shape = def.shape;
    const fields = Object.entries(value).flatMap(([key, item]): Array<[string, z.ZodType, unknown]> => {
      const field = Object.hasOwn(shape, key) ? shape[key] : def.catchall;
      return field ? [[key, field, item]] : [];
    });
    return kept(fields, (entries) => Object.fromEntries(entries));
  }
  if (def.type === 'record' && def.valueType) {
    if (!isPlainObject(value)) return dropped();
    const valueType = def.valueType;
    const fields = Object.entries(value).map(([key, item]): [string, z.ZodType, unknown] => [
      key,
      // A key the record refuses goes with its value.
      !def.keyType || def.keyType.safeParse(key).success ? valueType : NEVER,
      item,
    ]);
    return kept(fields, (entries) => Object.fromEntries(entries));
  }
  if (def.type === 'array' && def.element) {
    if (!Array.isArray(value)) return dropped();
    const element = def.element;
    const items = value.map((item, index): [number, z.ZodType, unknown] => [index, element, item]);
    return kept(items, (entries) => entries.map(([, item]) => item));
  }
  return dropped();

  /**
   * Salvages each part on its own, builds the container of the parts kept (entries, never assignments: a key
   * like `__proto__` stays a key), and checks the whole again: a required part lost drops the container.
   */
  function kept<K extends string | number>(
    parts: Array<[K, z.ZodType, unknown]>,
    build: (entries: Array<[K, unknown]>) => unknown,
  ): Salvaged<T> {
    const entries: Array<[K, unknown]> = [];
    const reset: string[] = [];
    for (const [key, field, item] of parts) {
      const part = salvage(field, item, childPath(path, key));
      reset.push(...part.reset);
      if (part.value !== undefined) entries.push([key, part.value]);
    }
    const checked = schema.safeParse(build(entries));
    return checked.success ? { value: checked.data, reset } : dropped();
  }
}

/** A schema nothing passes: what a record's refused key is checked against. */
const NEVER: z.ZodType = z.never();

/**
 * The value of JSON text cut short (a crash mid-write, a full disk): the longest prefix that ends after a whole
 * value inside its containers, with those containers closed. Undefined when nothing of it can be read.
 */
export function parseTruncatedJson(text: string): unknown {
  const stack: string[] = [];
  // Places to cut: before a comma (everything before it is whole) or right after an opening bracket.
  const cuts: Array<{ at: number; closers: string }> = [];
  const closers = () =>
    stack
      .map((open) => (open === '{' ? '}' : ']'))
      .reverse()
      .join('');
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') {
      stack.push(char);
      cuts.push({ at: i + 1, closers: closers() });
    } else if (char === '}' || char === ']') stack.pop();
    else if (char === ',') cuts.push({ at: i, closers: closers() });
  }
  const parse = ({ at, closers: close }: { at: number; closers: string }): { value: unknown } | null => {
    try {
      return { value: JSON.parse(text.slice(0, at) + close) as unknown };
    } catch {
      return null;
    }
  };
  // The whole text closed, unless it ends in a number, which may be cut short (12 of 125) and would read as valid.
  const endsWhole = !inString && /["}\]el]\s*$/u.test(text);
  const whole = endsWhole ? parse({ at: text.length, closers: closers() }) : null;
  if (whole) return whole.value;
  // Every cut before the damage parses and none after it does: the last good cut is found by bisection (a file
  // damaged in its middle, not only at its end, keeps what comes before the damage).
  let low = 0;
  let high = cuts.length - 1;
  let best: { value: unknown } | null = null;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const parsed = parse(cuts[mid]!);
    if (parsed) {
      best = parsed;
      low = mid + 1;
    } else high = mid - 1;
  }
  return best?.value;
}

/** The outcome of reading a state file under the rule. */
export interface RecoveredFile<T> {
  /** The file's value (recovered), or undefined when there was no file or nothing of it could be kept. */
  value: T | undefined;
  /** True when the file was damaged: the caller writes `value` back (the copy exists) or starts empty. */
  damaged: boolean;
}

export interface RecoverOptions {
  notices?: StateNotices;
  /** The file in the user's words, e.g. "Settings". */
  label: string;
  now?: () => Date;
}

/**
 * Reads a state file under the rule (see the top of this file). Synchronous: it runs once per file at start,
 * before anything else reads or writes that file.
 */
export function recoverStateFile<T>(
  path: string,
  schema: z.ZodType<T>,
  options: RecoverOptions,
): RecoveredFile<T> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { value: undefined, damaged: false };
    // Unreadable (a folder in its place, no permission): moved aside whole, so the path is free again.
    const copy = moveAside(path, options.now);
    options.notices?.report({
      file: basename(path),
      label: options.label,
      reset: ['(everything)'],
      copy,
      message:
        `${options.label} could not be read (${code ?? 'error'}) and started empty. ` +
        (copy ? `What was there is kept at ${copy}.` : `It is still at ${path}.`),
    });
    return { value: undefined, damaged: true };
  }
  const text = bytes.toString('utf8');
  let parsed: unknown;
  let truncated = false;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = parseTruncatedJson(text);
    truncated = true;
  }
  const kept: Salvaged<T> =
    parsed === undefined ? { value: undefined, reset: ['(everything)'] } : salvage(schema, parsed);
  if (!truncated && kept.reset.length === 0) return { value: kept.value, damaged: false };
  const reset = truncated && kept.reset.length === 0 ? ['(what came after the cut)'] : kept.reset;
  // No room for a copy: the damaged file itself is moved aside (a rename needs none). When neither works, nothing
  // can be written in that folder, so no later save can overwrite the damaged file either.
  let copy: string | null;
  try {
    copy = copyAside(path, bytes, options.now);
  } catch {
    copy = moveAside(path, options.now);
  }
  options.notices?.report({
    file: basename(path),
    label: options.label,
    reset,
    copy,
    message:
      `${options.label} was damaged${truncated ? ' (cut short)' : ''}; reset: ${describeReset(reset)}. ` +
      `Everything else was kept. ${copy ? `The damaged file is kept at ${copy}.` : `The damaged file could not be kept.`}`,
  });
  return { value: kept.value, damaged: true };
}

/**
 * `recoverStateFile` for a file another library reads next (electron-store): a damaged file is replaced by what was
 * recovered of it (after its copy is kept), so the library reads a sound file and never clears it without a copy.
 */
export function recoverStateFileInPlace<T>(
  path: string,
  schema: z.ZodType<T>,
  options: RecoverOptions,
): T | undefined {
  const recovered = recoverStateFile(path, schema, options);
  if (recovered.damaged) {
    try {
      writeFileAtomic.sync(path, JSON.stringify(recovered.value ?? {}, null, '\t'), { mode: 0o600 });
    } catch {
      // Left as it is: the caller's open fails and it falls back (the copy is kept either way).
    }
  }
  return recovered.value;
}

function describeReset(reset: string[]): string {
  const shown = reset.slice(0, 8).join(', ');
  return reset.length > 8 ? `${shown} and ${reset.length - 8} more` : shown;
}

/** `<dir>/<name>.damaged-<timestamp>.json`, `-2`, `-3`… when taken (two damages in one millisecond). */
function asideName(path: string, n: number, now: () => Date): string {
  const ext = extname(path) || '.json';
  const stem = basename(path, extname(path));
  const stamp = now().toISOString().replace(/[:.]/gu, '-');
  return join(dirname(path), `${stem}.damaged-${stamp}${n > 1 ? `-${n}` : ''}${ext}`);
}

/** Writes the damaged bytes to a new file beside `path` (exclusive create: an earlier copy is never replaced). */
export function copyAside(path: string, bytes: Uint8Array, now = () => new Date()): string {
  mkdirSync(dirname(path), { recursive: true });
  for (let n = 1; ; n++) {
    const target = asideName(path, n, now);
    let fd: number;
    try {
      // 0600: a damaged token file holds tokens.
      fd = openSync(target, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && n < 1000) continue;
      throw error;
    }
    try {
      writeSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
    return target;
  }
}

/** Moves what stands at `path` to a free aside name; null when it cannot be moved. */
function moveAside(path: string, now = () => new Date()): string | null {
  for (let n = 1; n < 1000; n++) {
    const target = asideName(path, n, now);
    try {
      lstatSync(target);
      continue; // taken: an earlier copy is never replaced
    } catch {
      // free
    }
    try {
      renameSync(path, target);
      return target;
    } catch {
      return null;
    }
  }
  return null;
}

// The sweep of killed atomic writes' temp files is shared with the sandbox (its state and certificate files).
export { isStateTempFile, removeStaleTempFiles } from '../../files/stale-temp-files';
