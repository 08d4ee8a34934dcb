import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const REDACTED = '[redacted]';

// Anything shaped like a JWT (the service's tokens are: "eyJhbGciOiJIUzUxMiIs…"), even when cut short.
const JWT = /eyJ[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*){0,2}/g;
// Header lines and key/value pairs whose value is a credential, in header, JSON, query or `key=value` form.
const SECRET_KEYS =
  'x-access-token|access[_-]?token|token|password|authorization|cookie|set-cookie|secret|api[_-]?key';
const HEADER_LINE = new RegExp(`\\b(${SECRET_KEYS})(\\s*:\\s*)(?!\\s*["'{\\[])([^\\r\\n,;]+)`, 'gi');
const JSON_PAIR = new RegExp(`(["']?)(${SECRET_KEYS})\\1(\\s*[:=]\\s*)(["'])((?:\\\\.|(?!\\4).)*)\\4`, 'gi');
const QUERY_PAIR = new RegExp(`([?&;\\s]|^)(${SECRET_KEYS})=([^&\\s"']+)`, 'gi');
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;

/**
 * Removes anything that looks like a credential: JWT-shaped strings, `x-access-token` / authorization / password
 * values in header, JSON or query form, bearer values, and any exact secret the caller knows about.
 */
export function redact(text: string, knownSecrets: Iterable<string> = []): string {
  let out = text;
  for (const secret of knownSecrets) {
    // Short values would redact ordinary words; real tokens are long.
    if (secret.length >= 8) out = out.split(secret).join(REDACTED);
  }
  return out
    .replace(JWT, REDACTED)
    .replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(
      JSON_PAIR,
      (_m, q: string, key: string, sep: string, quote: string) =>
        `${q}${key}${q}${sep}${quote}${REDACTED}${quote}`,
    )
    .replace(QUERY_PAIR, (_m, lead: string, key: string) => `${lead}${key}=${REDACTED}`)
    .replace(HEADER_LINE, (_m, key: string, sep: string) => `${key}${sep}${REDACTED}`);
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A size-capped, rotating, redacting log file. */
export interface AppLog {
  write(level: LogLevel, message: string, detail?: unknown): void;
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
  /** Exact secret values (e.g. the active token) to strip even when they match no pattern. */
  addSecret(value: string): void;
  /** The current file; older ones are `<name>.1.log` … `<name>.<maxFiles-1>.log`. */
  readonly path: string;
}

export interface LogOptions {
  dir: string;
  /** File stem; default `main`. */
  name?: string;
  /** Rotate before a write would take the current file past this size. Default 1 MiB. */
  maxBytes?: number;
  /** Files kept in total, the current one included. Default 3. */
  maxFiles?: number;
  now?: () => Date;
  /** Also mirror lines here (stderr in dev). */
  mirror?: (line: string) => void;
}

/**
 * Synchronous appends: a log line must survive a crash right after it, and main logs a few lines a minute.
 * A failure to write never throws into the caller — logging must not take the app down.
 */
export function createLog(options: LogOptions): AppLog {
  const name = options.name ?? 'main';
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const maxFiles = Math.max(1, options.maxFiles ?? 3);
  const now = options.now ?? (() => new Date());
  const path = join(options.dir, `${name}.log`);
  const secrets = new Set<string>();
  let size: number | null = null;

  const rotate = () => {
    rmSync(join(options.dir, `${name}.${maxFiles - 1}.log`), { force: true });
    for (let i = maxFiles - 2; i >= 1; i--) {
      try {
        renameSync(join(options.dir, `${name}.${i}.log`), join(options.dir, `${name}.${i + 1}.log`));
      } catch {
        // A gap in the sequence is fine.
      }
    }
    if (maxFiles > 1) renameSync(path, join(options.dir, `${name}.1.log`));
    else rmSync(path, { force: true });
    size = 0;
  };

  const write = (level: LogLevel, message: string, detail?: unknown) => {
    const extra = detail === undefined ? '' : ` ${describe(detail)}`;
    const full = `${now().toISOString()} ${level.toUpperCase()} ${redact(message + extra, secrets)}`.replace(
      /[\r\n]+/g,
      ' ⏎ ',
    );
    const line = fitLine(full, maxBytes);
    const bytes = Buffer.byteLength(line) + 1;
    try {
      if (size === null) {
        mkdirSync(options.dir, { recursive: true });
        size = fileSize(path);
      }
      if (size > 0 && size + bytes > maxBytes) rotate();
      appendFileSync(path, `${line}\n`, { mode: 0o600 });
      size = (size ?? 0) + bytes;
    } catch {
      size = null;
    }
    options.mirror?.(line);
  };

  return {
    path,
    write,
    info: (message, detail) => write('info', message, detail),
    warn: (message, detail) => write('warn', message, detail),
    error: (message, detail) => write('error', message, detail),
    addSecret: (value) => void secrets.add(value),
  };
}

/** One line may take at most half a file, so a huge stack trace cannot defeat the size cap. */
function fitLine(line: string, maxBytes: number): string {
  const limit = Math.max(64, Math.floor(maxBytes / 2) - 1);
  if (Buffer.byteLength(line) <= limit) return line;
  // Cutting a UTF-8 sequence yields one 3-byte replacement character; leave room for it and the marker.
  return `${Buffer.from(line)
    .subarray(0, limit - 8)
    .toString()}…`;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function describe(detail: unknown): string {
  if (detail instanceof Error)
    return `${detail.name}: ${detail.message}${detail.stack ? ` ${detail.stack}` : ''}`;
  if (typeof detail === 'string') return detail;
  try {
    return JSON.stringify(detail);
  } catch {
    return String(detail);
  }
}
