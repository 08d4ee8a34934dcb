// Two voice overs of one script for two purposes: the sandbox's creatives master a radio ad to EBU R128 (-23
// LUFS) and a podcast to -16 LUFS, so specs of loudness targets compare the two.
import type { SandboxControl } from '../fixtures';
import { deliveredVoiceOver, uniqueTitle } from './setup';

/** A delivered radio ad and a delivered podcast read from the same script parts, titled `<prefix> radio|podcast`. */
export async function deliveredRadioAndPodcast(sandbox: SandboxControl, prefix: string, parts: string[]) {
  const radio = await deliveredVoiceOver(sandbox, { title: uniqueTitle(`${prefix} radio`), parts });
  const podcast = await deliveredVoiceOver(sandbox, {
    title: uniqueTitle(`${prefix} podcast`),
    parts,
    purpose: 'podcast',
  });
  return { radio, podcast };
}
