import { audioAdsServices, voiceOverService } from '../../electron/sandbox/sample-bodies';
import { test, type SandboxControl } from '../fixtures';

/** A project as the service answers it (only the fields the specs read). */
export interface ProjectInfo {
  id: string;
  title: string;
  status: string;
  services: { id: string; subCategory: string; price: number; units: number; status: string }[];
}

/** A deliverable as the service answers it. */
export interface DeliverableInfo {
  id: string;
  serviceSubCategory: string;
  name: string;
  status: string;
  urls: Record<string, string>;
}

/** A title no other spec (or earlier run against the same sandbox) uses. */
export function uniqueTitle(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

/** About `words` words of ordinary script text. */
export function scriptOf(words: number): string {
  const vocabulary = 'fresh bread every morning delivered warm to your door from the corner bakery'.split(
    ' ',
  );
  return Array.from({ length: words }, (_, i) => vocabulary[i % vocabulary.length]).join(' ');
}

/** What a voice-over project is ordered with; the purpose defaults to the service's (radio and TV ads). */
export interface VoiceOverOptions {
  title: string;
  fulfillmentType?: 'speedy' | 'booking' | 'contest';
  parts?: string[];
  purpose?: string;
}

/** Creates a voice over project directly on the service (setup for flows whose creation another spec covers). */
export async function createVoiceOver(
  sandbox: SandboxControl,
  options: VoiceOverOptions,
): Promise<ProjectInfo> {
  return (await sandbox.api('POST', '/projects', {
    title: options.title,
    mainService: 'voice_over',
    fulfillmentType: options.fulfillmentType ?? 'speedy',
    services: [
      { ...voiceOverService(options.parts), ...(options.purpose ? { purpose: options.purpose } : {}) },
    ],
  })) as ProjectInfo;
}

/** Creates an audio ads project with scriptwriting, voice over and post production. */
export async function createAudioAd(sandbox: SandboxControl, title: string): Promise<ProjectInfo> {
  return (await sandbox.api('POST', '/projects', {
    title,
    mainService: 'audio_ads',
    services: audioAdsServices(),
  })) as ProjectInfo;
}

/** The project's deliverables as the service lists them. */
export async function deliverablesOf(sandbox: SandboxControl, projectId: string): Promise<DeliverableInfo[]> {
  return (await sandbox.api('GET', `/deliverables/project/${projectId}`)) as DeliverableInfo[];
}

/** Creates a voice over and has it delivered; returns the project and its deliverables. */
export async function deliveredVoiceOver(
  sandbox: SandboxControl,
  options: VoiceOverOptions,
): Promise<{ project: ProjectInfo; deliverables: DeliverableInfo[] }> {
  const project = await createVoiceOver(sandbox, options);
  await sandbox.deliver(project.id);
  return { project, deliverables: await deliverablesOf(sandbox, project.id) };
}

/** A project's takes in their names' order ("1", "2", …); fails unless there are exactly `count`. */
export function takesByName(deliverables: DeliverableInfo[], count: 2): [DeliverableInfo, DeliverableInfo];
export function takesByName(
  deliverables: DeliverableInfo[],
  count: 3,
): [DeliverableInfo, DeliverableInfo, DeliverableInfo];
export function takesByName(deliverables: DeliverableInfo[], count: number): DeliverableInfo[] {
  if (deliverables.length !== count)
    throw new Error(`expected ${count} takes, the project has ${deliverables.length}`);
  return [...deliverables].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * How a spec that works through a delivered voice over begins: the longer time such a flow needs (takes loaded,
 * played, downloaded or decided: 240 s on a loaded machine unless `timeoutMs` says otherwise), then the project,
 * titled `prefix` and a unique tail, ordered and delivered.
 */
export async function startWithDeliveredVoiceOver(
  sandbox: SandboxControl,
  prefix: string,
  { timeoutMs = 240_000, ...options }: Omit<VoiceOverOptions, 'title'> & { timeoutMs?: number } = {},
): Promise<{ project: ProjectInfo; deliverables: DeliverableInfo[] }> {
  test.setTimeout(timeoutMs);
  return deliveredVoiceOver(sandbox, { title: uniqueTitle(prefix), ...options });
}
