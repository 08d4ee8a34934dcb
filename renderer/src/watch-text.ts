/**
 * How often deliveries are checked, in the producer's words: "Checked 2 min ago · next in about 1 min", and how
 * long a round of the projects in work takes (longer on a large account: the request budget wins, the producer is
 * told).
 */

const MINUTE = 60_000;

/** "just now", "1 min ago", "25 min ago", "about 2 h ago". */
export function agoText(ms: number): string {
  if (ms < 45_000) return 'just now';
  const minutes = Math.round(ms / MINUTE);
  if (minutes < 60) return `${Math.max(1, minutes)} min ago`;
  return `about ${Math.round(minutes / 60)} h ago`;
}

/** "in a few seconds", "in about 1 min", "in about 12 min", "in about 2 h". */
export function inText(ms: number): string {
  if (ms < 15_000) return 'in a few seconds';
  if (ms < 90_000) return 'in about 1 min';
  const minutes = Math.round(ms / MINUTE);
  if (minutes < 90) return `in about ${minutes} min`;
  return `in about ${Math.round(minutes / 60)} h`;
}

/** "8 min", "1 h 10 min". */
function spanText(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / MINUTE));
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest ? `${Math.floor(minutes / 60)} h ${rest} min` : `${minutes / 60} h`;
}

/** When something was checked and will be next; `checkedAt` null when it never was. */
export function checkedText(checkedAt: string | null, nextInMs: number | null, now: number): string {
  const parts = [
    checkedAt ? `Checked ${agoText(Math.max(0, now - Date.parse(checkedAt)))}` : 'Not checked yet',
  ];
  if (nextInMs !== null) parts.push(`next ${inText(nextInMs)}`);
  return parts.join(' · ');
}

/** How long a round of the projects in work takes: "12 projects in work, each checked about every 8 min". */
export function cycleText(watching: number, cycleMs: number | null | undefined): string {
  if (!watching || !cycleMs) return 'No project in work to check';
  const noun = watching === 1 ? 'project' : 'projects';
  return `${watching.toLocaleString('en-US')} ${noun} in work, each checked about every ${spanText(cycleMs)}`;
}
