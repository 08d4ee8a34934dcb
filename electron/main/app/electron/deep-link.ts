/** The OS-level URL scheme Takedesk registers: `takedesk://project/<id>` opens that project. */
export const DEEP_LINK_SCHEME = 'takedesk';

/** What a well-formed deep link asks for. */
export interface DeepLink {
  kind: 'project';
  projectId: string;
  /** The renderer route to show (hash router path). */
  route: string;
}

// Project ids are UUIDs (docs/service.md#project); anything else is ignored rather than passed on.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// A link comes from any web page or mail; a cap keeps a hostile argv from being scanned at length.
const MAX_LENGTH = 200;

/**
 * Parses `takedesk://project/<uuid>` (an optional trailing slash allowed). Anything else — other schemes or hosts,
 * extra path segments, query strings, fragments, credentials, ports, encoded characters — yields null.
 */
export function parseDeepLink(raw: unknown): DeepLink | null {
  if (typeof raw !== 'string' || raw.length > MAX_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:`) return null;
  if (url.username || url.password || url.port || url.search || url.hash) return null;
  if (url.hostname.toLowerCase() !== 'project') return null;
  const match = /^\/([^/]+)\/?$/.exec(url.pathname);
  const id = match?.[1];
  if (!id || !UUID.test(id)) return null;
  const projectId = id.toLowerCase();
  return { kind: 'project', projectId, route: `/projects/${projectId}` };
}

/**
 * The deep link in a process's argv (Windows and Linux hand the URL to a second instance, or to the first launch, as
 * an argument). Only the first argument that looks like our scheme is considered, and it must parse.
 */
export function findDeepLinkInArgv(argv: readonly string[]): DeepLink | null {
  const candidate = argv.find((arg) => arg.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}:`));
  return candidate === undefined ? null : parseDeepLink(candidate);
}
