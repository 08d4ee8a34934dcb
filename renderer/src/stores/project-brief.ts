import type { Deliverable, Project, ProjectService } from '../../../shared/api';
import { TONE_KEYS } from '../../../shared/api/schemas';
import { scriptParts, type ScriptInput } from '../../../shared/api/validate-project';
import { findGenderAndAge } from '../../../shared/catalogue/gender-and-age';
import { findLanguage } from '../../../shared/catalogue/languages';
import { findPurpose } from '../../../shared/catalogue/purposes';
import { TONE_POLES } from '../../../shared/catalogue/tone';
import { findTrack } from '../../../shared/catalogue/tracks';
import { findVoicePerspective } from '../../../shared/catalogue/voice-perspectives';

/**
 * The brief of a project in the producer's words (catalogue names, never API ids), and the script a deliverable
 * reads. Pure: table-tested, used by the project page and the review screen.
 */

/** One line of the brief: "Language: English - British". */
export interface BriefFact {
  /** Stable key (e.g. `language`), for tests and list keys. */
  key: string;
  label: string;
  value: string;
}

/** One numbered part of a script. */
export interface ScriptPart {
  /** 1-based, the deliverable named after it (voice over parts are delivered as "1", "2", ...). */
  number: number;
  text: string;
}

/** What one service was ordered with. */
export interface BriefSection {
  subCategory: string;
  facts: BriefFact[];
  /** The script the voice reads (voice over), in parts; null where the service has none. */
  script: ScriptPart[] | null;
}

const languageName = (id: string) => findLanguage(id)?.name ?? id;
const voiceName = (id: string) => findGenderAndAge(id)?.name ?? id;
const purposeName = (id: string) => findPurpose(id)?.name ?? id;

/** The music a post production was ordered with, in words. */
export function musicText(
  service: Pick<ProjectService, 'trackId' | 'ownMusicFile' | 'proSelectsMusic'>,
): string {
  if (service.ownMusicFile) return 'Your own music file';
  if (service.trackId !== undefined) {
    const track = findTrack(service.trackId);
    return track
      ? `${track.fileName} (${track.typeLabel}: ${track.subTypeLabel})`
      : `Library track ${service.trackId}`;
  }
  if (service.proSelectsMusic) return 'The pro chooses the music';
  return 'No music';
}

/** The tone sliders that lean one way, e.g. "rather humorous, very concise". */
export function toneText(tone: Record<string, unknown> | undefined): string {
  if (!tone) return '';
  const words: string[] = [];
  for (const key of TONE_KEYS) {
    const value = Number(tone[key]);
    if (!Number.isFinite(value) || value === 0) continue;
    const pole = TONE_POLES[key][value < 0 ? 0 : 1].toLowerCase();
    words.push(`${Math.abs(value) >= 2 ? 'very' : 'rather'} ${pole}`);
  }
  return words.join(', ');
}

function fact(facts: BriefFact[], key: string, label: string, value: string | undefined | null): void {
  if (value !== undefined && value !== null && String(value).trim() !== '')
    facts.push({ key, label, value: String(value) });
}

/** Each ordered service with its facts in words, in the order the work happens. */
export function briefOf(project: Pick<Project, 'services'>): BriefSection[] {
  const order = ['scriptwriting', 'voice_over', 'post-production'];
  const services = [...(project.services ?? [])].sort(
    (a, b) => rank(order, a.subCategory) - rank(order, b.subCategory),
  );
  return services.map((s) => {
    const facts: BriefFact[] = [];
    if (s.subCategory === 'scriptwriting') {
      fact(facts, 'language', 'Language', s.language && languageName(s.language));
      fact(facts, 'topic', 'Topic', s.topic);
      // Script writing's purpose is free text (the goal of the script).
      fact(facts, 'purpose', 'Purpose', s.purpose);
      fact(facts, 'audience', 'Audience', s.targetAudience);
      fact(
        facts,
        'perspective',
        'Perspective',
        s.voicePerspective && (findVoicePerspective(s.voicePerspective)?.name ?? s.voicePerspective),
      );
      fact(facts, 'tone', 'Tone', toneText(s.tone));
      fact(facts, 'keywords', 'Keywords', s.keywords);
      fact(facts, 'seconds', 'Length', s.seconds ? `${s.seconds} s` : null);
    } else if (s.subCategory === 'voice_over') {
      fact(facts, 'language', 'Language', s.language && languageName(s.language));
      fact(facts, 'voice', 'Voice', s.genderAndAge && voiceName(s.genderAndAge));
      fact(facts, 'purpose', 'Purpose', s.purpose && purposeName(s.purpose));
    } else if (s.subCategory === 'post-production') {
      fact(facts, 'music', 'Music', musicText(s));
      fact(facts, 'seconds', 'Length', s.seconds ? `${s.seconds} s` : null);
    }
    fact(facts, 'remarks', 'Remarks', s.remarks);
    const script = s.script
      ? scriptParts(s.script as ScriptInput).map((p, i) => ({ number: i + 1, text: p.text }))
      : null;
    return { subCategory: s.subCategory, facts, script };
  });
}

function rank(order: string[], key: string): number {
  const i = order.indexOf(key);
  return i === -1 ? order.length : i;
}

/** The script a deliverable is read from, for reading beside its waveform. */
export interface DeliverableScript {
  text: string;
  /** "Part 2 of 3", "Whole script", "Written script". */
  source: string;
}

/**
 * What the voice in `deliverable` reads: its part of a voice over script (deliverables are named after the part),
 * the whole script otherwise (contest entries); in audio ads the written script (the script writing deliverable).
 */
export function scriptForDeliverable(
  project: Pick<Project, 'mainService' | 'services'> | null,
  deliverable: Pick<Deliverable, 'serviceSubCategory' | 'name'>,
  siblings: ReadonlyArray<Pick<Deliverable, 'serviceSubCategory' | 'status' | 'urls'>> = [],
): DeliverableScript | null {
  if (deliverable.serviceSubCategory === 'scriptwriting') return null;
  if (project?.mainService === 'audio_ads') {
    const written = siblings.filter((d) => d.serviceSubCategory === 'scriptwriting' && d.urls.content);
    // The approved script is the one read; else the newest written.
    const chosen = written.find((d) => d.status === 'approved') ?? written.at(-1);
    return chosen?.urls.content ? { text: chosen.urls.content, source: 'Written script' } : null;
  }
  const service = project?.services.find((s) => s.subCategory === 'voice_over');
  if (!service?.script) return null;
  const parts = scriptParts(service.script as ScriptInput);
  if (parts.length === 0) return null;
  const n = /^\d+$/.test(deliverable.name.trim()) ? Number(deliverable.name) : NaN;
  const part = parts[n - 1];
  if (part) return { text: part.text, source: parts.length > 1 ? `Part ${n} of ${parts.length}` : 'Script' };
  return { text: parts.map((p) => p.text).join('\n\n'), source: 'Whole script' };
}
