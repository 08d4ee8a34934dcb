// The simulated creatives: what a delivery makes. A project's first deliverables (one per script part, contest
// entries, the ad's script and mix), a new version of a take, and the script a writer delivers.
import { randomUUID } from 'node:crypto';
import { isoNoZone } from '../../../shared/api';
import {
  normalizeScript,
  scriptParts,
  validateCreateProject,
  type ScriptInput,
} from '../../../shared/api/validate-project';
import { purposeOfServices } from '../../../shared/audio/qa';
import { takeLoudness } from '../media/mastering';
import type { DeliverableRecord, MediaRef, ProjectRecord, ServiceRecord, VersionRecord } from '../state';
import { ownValue, type Store } from './store';
import type { MediaDescriptor } from './types';

/** Number of entries a contest project receives per voice service (sandbox choice). */
export const CONTEST_ENTRIES = 3;

export function createCreatives(store: Store) {
  const { deps, catalog, now, st } = store;

  function mediaRef(desc: MediaDescriptor, key: (desc: MediaDescriptor) => string): MediaRef {
    return { key: key(desc), ext: desc.format };
  }

  /** Adds a version to `d`; the media keys are made first, so a throw leaves `d` as it was. */
  function newVersion(
    d: DeliverableRecord,
    instructions: string | null,
    key: (m: MediaDescriptor) => string,
  ) {
    const n = d.versions.length + 1;
    const seed = `${d.id}:v${n}`;
    const version: VersionRecord = { created: isoNoZone(now()), instructions, media: {} };
    if (d.serviceSubCategory === 'scriptwriting') {
      const text = instructions ? `${d.text ?? ''}\n\n(Revised: ${instructions})` : (d.text ?? '');
      version.content = text;
      const project = ownValue(st().projects, d.projectId)?.title;
      version.media.pdf = mediaRef(
        { kind: 'script-pdf', seed, format: 'pdf', text, title: d.name, project },
        key,
      );
    } else {
      const services = ownValue(st().projects, d.projectId)?.services ?? [];
      const { lufs } = takeLoudness(purposeOfServices(services), seed, deps.outOfSpecRate);
      const base: MediaDescriptor =
        d.serviceSubCategory === 'post-production'
          ? {
              kind: 'post',
              seed,
              format: 'wav',
              seconds: d.seconds ?? 30,
              genderAndAge: d.genderAndAge,
              lufs,
            }
          : d.seconds !== undefined
            ? { kind: 'voice', seed, format: 'wav', seconds: d.seconds, genderAndAge: d.genderAndAge, lufs }
            : {
                kind: 'voice',
                seed,
                format: 'wav',
                words: wordCount(d.text ?? ''),
                genderAndAge: d.genderAndAge,
                lufs,
              };
      version.media.wav = mediaRef(base, key);
      version.media.mp3 = mediaRef({ ...base, format: 'mp3' }, key);
    }
    d.versions.push(version);
  }

  /**
   * A new deliverable with its first version, added to `staged` (not to the state): a work item's
   * deliverables enter the state together once all of them are made, so a failure leaves none behind.
   */
  function addDeliverable(
    project: ProjectRecord,
    service: ServiceRecord,
    fields: Pick<DeliverableRecord, 'name' | 'talent'> & Partial<DeliverableRecord>,
    key: (m: MediaDescriptor) => string,
    staged: DeliverableRecord[],
  ): DeliverableRecord {
    const d: DeliverableRecord = {
      id: randomUUID(),
      projectId: project.id,
      serviceId: service.id,
      serviceSubCategory: service.subCategory,
      status: 'reviewable',
      created: isoNoZone(now()),
      versions: [],
      ...fields,
    };
    newVersion(d, null, key);
    staged.push(d);
    return d;
  }

  function deliverInitial(
    project: ProjectRecord,
    key: (m: MediaDescriptor) => string,
    staged: DeliverableRecord[],
  ): void {
    checkDeliverable(project);
    const contest = project.fulfillmentType === 'contest';
    const adSeconds = Number(
      project.services.find((s) => s.subCategory === 'scriptwriting')?.seconds ??
        project.services.find((s) => s.subCategory === 'post-production')?.seconds ??
        30,
    );
    const adScript = writeAdScript(project, adSeconds);
    for (const service of project.services) {
      const language = typeof service.language === 'string' ? service.language : undefined;
      const genderAndAge = typeof service.genderAndAge === 'string' ? service.genderAndAge : undefined;
      const wanted = { language, genderAndAge };
      if (service.subCategory === 'voice_over') {
        const inAd = project.mainService === 'audio_ads';
        // An ad reads the script writer's text, or the producer's own when they ordered no script writing.
        const given = service.script ? scriptParts(normalizeScript(service.script as ScriptInput)) : [];
        const parts = inAd
          ? [{ key: 'ad', text: given.length ? given.map((p) => p.text).join('\n') : adScript }]
          : scriptParts(normalizeScript((service.script ?? '') as ScriptInput));
        const seconds = inAd ? adSeconds : undefined;
        // A contest has one entry per talent reading the whole script; otherwise one talent reads each part.
        let takes: Array<Pick<DeliverableRecord, 'name' | 'talent' | 'text'> & { entry?: number }>;
        if (contest) {
          const text = parts.map((p) => p.text).join('\n');
          takes = catalog
            .talents(`${project.id}:${service.id}`, CONTEST_ENTRIES, wanted)
            .map((talent, i) => ({ name: `Entry ${i + 1} (${talent.name})`, talent, entry: i + 1, text }));
        } else {
          const [talent] = catalog.talents(`${project.id}:${service.id}`, 1, wanted);
          takes = parts.map((part, i) => ({
            name: inAd ? 'Voice over' : String(i + 1),
            talent: talent!,
            text: part.text,
          }));
        }
        for (const take of takes)
          addDeliverable(project, service, { ...take, seconds, language, genderAndAge }, key, staged);
      } else {
        const [talent] = catalog.talents(`${project.id}:${service.id}`, 1, wanted);
        const isScript = service.subCategory === 'scriptwriting';
        addDeliverable(
          project,
          service,
          {
            name: isScript ? 'Script' : 'Final mix',
            talent: talent!,
            text: isScript ? adScript : undefined,
            seconds: Number(service.seconds ?? adSeconds),
            language:
              language ?? (project.services.find((s) => typeof s.language === 'string')?.language as string),
            genderAndAge:
              genderAndAge ?? (project.services.find((s) => s.genderAndAge)?.genderAndAge as string),
          },
          key,
          staged,
        );
      }
    }
  }

  /**
   * Whether a stored project can still be delivered: the create-project checks (and their bounds) on
   * the record, which a hand-edited or older state file may break. Throws what is wrong.
   */
  function checkDeliverable(project: ProjectRecord): void {
    const { title, mainService, fulfillmentType, fake, test, remarks, services } = project;
    const body = { title, mainService, fulfillmentType, fake, test, remarks, services };
    const issue = validateCreateProject(body, { accountKind: 'sandbox' })[0];
    if (issue) throw new Error(`${issue.code} at ${issue.path || 'project'}: ${issue.message}`);
  }

  return { newVersion, addDeliverable, deliverInitial };
}

export type Creatives = ReturnType<typeof createCreatives>;

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** The script a simulated writer delivers: ~2.3 words per second of ad, built from the brief's fields. */
function writeAdScript(project: ProjectRecord, seconds: number): string {
  const sw = project.services.find((s) => s.subCategory === 'scriptwriting');
  const topic = typeof sw?.topic === 'string' && sw.topic ? sw.topic : project.title;
  const audience =
    typeof sw?.targetAudience === 'string' && sw.targetAudience ? sw.targetAudience : 'everyone';
  const sentences = [
    `Looking for ${topic}?`,
    `Made for ${audience}, it fits the way you live.`,
    `Try it today and hear the difference for yourself.`,
    `Simple to start, easy to love, and ready when you are.`,
    `${project.title}: find out more now.`,
  ];
  const target = Math.max(8, Math.round(seconds * 2.3));
  const words: string[] = [];
  for (let i = 0; words.length < target; i++) words.push(...sentences[i % sentences.length]!.split(' '));
  return words.slice(0, target).join(' ');
}
