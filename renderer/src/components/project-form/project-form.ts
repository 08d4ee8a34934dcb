import { TONE_KEYS } from '../../../../shared/api/schemas';

/** One script part as the editor holds it; `key` becomes the part key sent (part001...). */
export interface ScriptPart {
  key: string;
  text: string;
}

export type MusicMode = 'library' | 'own' | 'pro';
export type ToneKey = (typeof TONE_KEYS)[number];

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

/** The live service's default language (its attribute `defaultValue`, service-facts §1). */
export const DEFAULT_LANGUAGE = 'eng-us';

/**
 * A fresh form. Fields the service defaults (purpose, voice perspective) start empty and are left out of the
 * body until the producer picks one: the live default's name differs from the spec's (service-facts 8d).
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

function optionalText(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed ? trimmed : undefined;
}

function urls(list: string[]): string[] | undefined {
  const kept = list.map((u) => u.trim()).filter(Boolean);
  return kept.length ? kept : undefined;
}

/** Drops undefined fields so the body only carries what the producer set. */
function compact<T extends Record<string, unknown>>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

function serviceBody(form: ProjectForm, section: Section): Record<string, unknown> {
  switch (section) {
    case 'voiceOver': {
      const vo = form.voiceOver;
      return {
        subCategory: 'voice_over',
        language: vo.language,
        genderAndAge: vo.genderAndAge,
        purpose: vo.purpose || undefined,
        script: vo.script.filter((p) => p.text.trim()).map((p, i) => ({ [partKey(i)]: p.text })),
      };
    }
    case 'scriptwriting': {
      const sw = form.scriptwriting;
      return compact({
        subCategory: 'scriptwriting',
        seconds: sw.seconds ?? undefined,
        language: sw.language,
        voicePerspective: sw.voicePerspective || undefined,
        topic: sw.topic,
        purpose: sw.purpose,
        targetAudience: sw.targetAudience,
        keywords: optionalText(sw.keywords),
        remarks: optionalText(sw.remarks),
        tone: { ...sw.tone },
        assetsFiles: urls(sw.assetsFiles),
      });
    }
    case 'adsVoiceOver': {
      const vo = form.adsVoiceOver;
      return compact({
        subCategory: 'voice_over',
        language: vo.language,
        genderAndAge: vo.genderAndAge,
        purpose: vo.purpose || undefined,
        remarks: optionalText(vo.remarks),
        assetsFiles: urls(vo.assetsFiles),
      });
    }
    case 'postProduction': {
      const pp = form.postProduction;
      // trackId, ownMusicFile and proSelectsMusic are one choice: only the chosen one is sent.
      const music =
        pp.music === 'library'
          ? { trackId: pp.trackId ?? undefined }
          : pp.music === 'own'
            ? { ownMusicFile: pp.ownMusicFile.trim(), ownMusicFileRights: pp.ownMusicFileRights }
            : { proSelectsMusic: true };
      return compact({
        subCategory: 'post-production',
        seconds: pp.seconds ?? undefined,
        remarks: optionalText(pp.remarks),
        ...music,
        assetsFiles: urls(pp.assetsFiles),
      });
    }
  }
}

/** The `POST /projects` body for the form. Remarks always go out ("" when none): the service may require them. */
export function buildBody(form: ProjectForm): Record<string, unknown> {
  return {
    title: form.title.trim(),
    mainService: form.mainService,
    fulfillmentType: form.fulfillmentType,
    remarks: form.remarks.trim(),
    fake: form.fake,
    test: form.test,
    services: sectionOrder(form).map((section) => compact(serviceBody(form, section))),
  };
}

/** The `POST /quote` body: category, fulfilment and services only. */
export function buildQuoteBody(form: ProjectForm): Record<string, unknown> {
  const { mainService, fulfillmentType, services } = buildBody(form);
  return { mainService, fulfillmentType, services };
}

/** A problem tied to a field path. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** Checks the shared validator cannot know: choices that only exist in this form. */
export function formIssues(form: ProjectForm): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (form.mainService !== 'audio_ads') return issues;
  const index = sectionOrder(form).indexOf('postProduction');
  const pp = form.postProduction;
  if (pp.music === 'library' && pp.trackId == null) {
    issues.push({ path: `services[${index}].trackId`, message: 'Pick a track.' });
  }
  if (pp.music === 'own' && !pp.ownMusicFileRights) {
    issues.push({
      path: `services[${index}].ownMusicFileRights`,
      message: 'Confirm you hold the rights to this music.',
    });
  }
  return issues;
}

/** Field paths of the form, keyed the way the validator and the service write them. */
export type FieldErrors = Record<string, string>;

/** First message per path; later issues on the same field wait until the first is fixed. */
export function errorsByPath(issues: ReadonlyArray<{ path: string; message: string }>): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) if (!(issue.path in out)) out[issue.path] = issue.message;
  return out;
}

/** The message for a field: an exact path, or the first issue inside it (`services[0].script[1].part002`). */
export function errorAt(errors: FieldErrors, path: string): string {
  if (errors[path]) return errors[path];
  for (const [key, message] of Object.entries(errors)) {
    if (key.startsWith(`${path}.`) || key.startsWith(`${path}[`)) return message;
  }
  return '';
}

/** Path of a field of a section in the current form, e.g. `services[1].language`. */
export function sectionPath(form: ProjectForm, section: Section, field: string): string {
  const index = sectionOrder(form).indexOf(section);
  return `services[${index}].${field}`;
}

// Field codes the service may answer without a path: the spec's 422s name the field in the code.
const CODE_FIELDS: Array<[RegExp, string]> = [
  [/^TITLE_/, 'title'],
  [/^MAINSERVICE_/, 'mainService'],
  [/^REMARKS_/, 'remarks'],
  [/^FAKE_/, 'fake'],
  [/^TEST_/, 'test'],
  [/^FULFILLMENT_TYPE_/, 'fulfillmentType'],
  [/^LANGUAGE_/, 'language'],
  [/^GENDER_AND_AGE_/, 'genderAndAge'],
  [/^SCRIPT_/, 'script'],
  [/^SUBCATEGORY_/, 'subCategory'],
  [/^SERVICES?_/, 'services'],
];

/**
 * Maps a service 422 onto form paths: its issues when it sent some, otherwise the field its code names,
 * on the first service that has that field.
 */
export function serviceErrorPaths(
  form: ProjectForm,
  error: { type: string; message: string; issues?: Array<{ path: string; code: string; message: string }> },
): FieldErrors {
  if (error.issues?.length) return errorsByPath(error.issues);
  const match = CODE_FIELDS.find(([pattern]) => pattern.test(error.type));
  if (!match) return {};
  const field = match[1];
  if (['title', 'mainService', 'remarks', 'fake', 'test', 'fulfillmentType', 'services'].includes(field)) {
    return { [field]: error.message };
  }
  const body = buildBody(form);
  const services = body.services as Array<Record<string, unknown>>;
  const index = services.findIndex((s) => field in s);
  return { [`services[${Math.max(0, index)}].${field}`]: error.message };
}
