/** The new-project form's state: its shape, a fresh form, part keys, and where each service sits in the body. */
import { TONE_KEYS } from '../../../../shared/api/schemas';
import type { ToneKey } from '../../../../shared/catalogue/tone';

/** One script part as the editor holds it; `key` becomes the part key sent (part001...). */
export interface ScriptPart {
  key: string;
  text: string;
}

export type MusicMode = 'library' | 'own' | 'pro';
export type { ToneKey };

/** Everything the new-project screen edits, for both categories. */
export interface ProjectForm {
  mainService: 'voice_over' | 'audio_ads';
  title: string;
  fulfillmentType: 'speedy' | 'booking' | 'contest';
  remarks: string;
  fake: boolean;
  test: boolean;
  voiceOver: { language: string; genderAndAge: string; purpose: string; script: ScriptPart[] };
  /** Audio ads: script writing is optional (the live docs show variants with and without it). */
  withScriptwriting: boolean;
  scriptwriting: {
    seconds: number | null;
    language: string;
    voicePerspective: string;
    topic: string;
    purpose: string;
    targetAudience: string;
    keywords: string;
    remarks: string;
    tone: Record<ToneKey, number>;
    assetsFiles: string[];
  };
  adsVoiceOver: {
    language: string;
    genderAndAge: string;
    purpose: string;
    remarks: string;
    /** The script the voice reads when no script writing is ordered (sent as the service's `script`). */
    adScript: string;
    assetsFiles: string[];
  };
  postProduction: {
    seconds: number | null;
    remarks: string;
    music: MusicMode;
    trackId: number | null;
    ownMusicFile: string;
    ownMusicFileRights: boolean;
    assetsFiles: string[];
  };
}

/** The sections of the form a service path can point at. */
export type Section = 'voiceOver' | 'scriptwriting' | 'adsVoiceOver' | 'postProduction';

/**
 * The live service's default language (its attribute `defaultValue`,
 * docs/service.md#categories-attributes-and-tracks).
 */
export const DEFAULT_LANGUAGE = 'eng-us';

/**
 * A fresh form. Fields the service defaults (purpose, voice perspective) start empty and are left out of the
 * body until the producer picks one: the live default's name differs from the interface's
 * (docs/service.md#allowed-values).
 */
export function emptyForm(): ProjectForm {
  return {
    mainService: 'voice_over',
    title: '',
    fulfillmentType: 'speedy',
    remarks: '',
    fake: false,
    test: false,
    voiceOver: {
      language: DEFAULT_LANGUAGE,
      genderAndAge: '',
      purpose: '',
      script: [{ key: 'part001', text: '' }],
    },
    withScriptwriting: true,
    scriptwriting: {
      seconds: 30,
      language: DEFAULT_LANGUAGE,
      voicePerspective: '',
      topic: '',
      purpose: '',
      targetAudience: '',
      keywords: '',
      remarks: '',
      tone: Object.fromEntries(TONE_KEYS.map((k) => [k, 0])) as Record<ToneKey, number>,
      assetsFiles: [],
    },
    adsVoiceOver: {
      language: DEFAULT_LANGUAGE,
      genderAndAge: '',
      purpose: '',
      remarks: '',
      adScript: '',
      assetsFiles: [],
    },
    postProduction: {
      seconds: 30,
      remarks: '',
      music: 'pro',
      trackId: null,
      ownMusicFile: '',
      ownMusicFileRights: false,
      assetsFiles: [],
    },
  };
}

/** Part keys as the service's examples write them: part001, part002... */
export function partKey(index: number): string {
  return `part${String(index + 1).padStart(3, '0')}`;
}

/** The order services are sent in, so an issue path `services[i]` finds its section again. */
export function sectionOrder(form: ProjectForm): Section[] {
  if (form.mainService === 'voice_over') return ['voiceOver'];
  return form.withScriptwriting
    ? ['scriptwriting', 'adsVoiceOver', 'postProduction']
    : ['adsVoiceOver', 'postProduction'];
}

/** Path of a field of a section in the current form, e.g. `services[1].language`. */
export function sectionPath(form: ProjectForm, section: Section, field: string): string {
  const index = sectionOrder(form).indexOf(section);
  return `services[${index}].${field}`;
}
