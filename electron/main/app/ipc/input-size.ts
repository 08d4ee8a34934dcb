/**
 * How big an IPC input is, measured before validation (issue 13, item 6): Electron hands main whatever the
 * renderer structured-cloned, so the router bounds it the way the HTTP bridge bounds its body. The walk
 * stops as soon as the limit or the depth is passed, and counts roughly what the JSON text would weigh.
 */

/** Largest input accepted by default: the HTTP bridge's body limit. */
export const MAX_INPUT_BYTES = 2 * 1024 * 1024;
/** Deepest nesting accepted (no channel input is more than a few levels deep). */
export const MAX_INPUT_DEPTH = 64;

/** Why an input is refused, or null when it is within both bounds. */
export function inputTooLarge(
  input: unknown,
  maxBytes = MAX_INPUT_BYTES,
  maxDepth = MAX_INPUT_DEPTH,
): 'size' | 'depth' | null {
  let total = 0;
  // Recursion is bounded by maxDepth; a cycle (structured clone allows them) is infinitely deep, so it ends too.
  const walk = (value: unknown, depth: number): 'size' | 'depth' | null => {
    if (typeof value === 'string') total += value.length + 2;
    else if (value === null || typeof value !== 'object') total += 8;
    else {
      if (depth >= maxDepth) return 'depth';
      total += 2;
      if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) total += value.byteLength;
      else if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const refused = walk(value[i], depth + 1);
          if (refused) return refused;
        }
      } else if (value instanceof Map || value instanceof Set) {
        for (const item of value) {
          const refused = walk(item, depth + 1);
          if (refused) return refused;
        }
      } else {
        for (const key in value) {
          if (!Object.hasOwn(value, key)) continue;
          total += key.length + 4;
          const refused = walk((value as Record<string, unknown>)[key], depth + 1);
          if (refused) return refused;
        }
      }
    }
    return total > maxBytes ? 'size' : null;
  };
  return walk(input, 0);
}
