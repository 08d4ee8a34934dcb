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
        // Written by the script writer when one is ordered; otherwise the producer's own, line breaks and all.
        script: form.withScriptwriting || !vo.adScript.trim() ? undefined : vo.adScript.trim(),
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
  // Without script writing nobody else writes what the voice reads.
  if (!form.withScriptwriting && !form.adsVoiceOver.adScript.trim()) {
    issues.push({
      path: sectionPath(form, 'adsVoiceOver', 'script'),
      message: 'Script is required without script writing: write what the voice reads.',
    });
  }
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

/** Field paths of the form, keyed the way the validator and the service write them; values are plain messages. */
export type FieldErrors = Record<string, string>;

/** A problem as the shared validator or the service reports it (`code` absent for the form's own checks). */
export interface ReportedIssue {
  path: string;
  code?: string;
  message: string;
}

/** The label shown beside each field, by section: the form shows them and its messages speak them. */
export const FIELD_LABELS = {
  project: {
    mainService: 'Category',
    title: 'Title',
    fulfillmentType: 'Fulfillment',
    remarks: 'Remarks for the creatives',
    test: 'Test project',
    fake: 'Fake project',
    services: 'Services',
  },
  voiceOver: { language: 'Language', genderAndAge: 'Gender and age', purpose: 'Purpose', script: 'Script' },
  scriptwriting: {
    seconds: 'Length (seconds)',
    language: 'Language',
    voicePerspective: 'Voice perspective',
    topic: 'Topic',
    purpose: 'Goal of the script',
    targetAudience: 'Target audience',
    keywords: 'Keywords',
    remarks: 'Remarks for the writer',
    tone: 'Tone',
    assetsFiles: 'Attachments',
  },
  adsVoiceOver: {
    language: 'Language',
    genderAndAge: 'Gender and age',
    purpose: 'Purpose',
    script: 'Script',
    remarks: 'Remarks for the voice',
    assetsFiles: 'Attachments',
  },
  postProduction: {
    seconds: 'Length (seconds)',
    remarks: 'Remarks for the mix',
    trackId: 'Music library track',
    ownMusicFile: 'Link to your music file',
    ownMusicFileRights: 'Music rights',
    proSelectsMusic: 'Background music',
    assetsFiles: 'Attachments',
  },
} as const satisfies Record<'project' | Section, Record<string, string>>;

/** Heading of each section, for an issue about a whole service. */
export const SECTION_TITLES: Record<Section, string> = {
  voiceOver: 'Voice over',
  scriptwriting: 'Script writing',
  adsVoiceOver: 'Voice over',
  postProduction: 'Post production',
};

const SERVICE_PATH = /^services\[(\d+)\](?:\.([A-Za-z]+))?/;
const TOP_FIELD = /^[A-Za-z]+/;

/** The field a path points into, as the API names it and as the form labels it. */
export function fieldAt(form: ProjectForm, path: string): { name: string; label: string } | undefined {
  const service = SERVICE_PATH.exec(path);
  if (service) {
    const section = sectionOrder(form)[Number(service[1])];
    if (!section) return undefined;
    if (!service[2]) return { name: 'services', label: SECTION_TITLES[section] };
    const label = (FIELD_LABELS[section] as Record<string, string>)[service[2]];
    return label ? { name: service[2], label } : undefined;
  }
  const name = TOP_FIELD.exec(path)?.[0];
  const label = name ? (FIELD_LABELS.project as Record<string, string>)[name] : undefined;
  return name && label ? { name, label } : undefined;
}

/**
 * The fields behind some issue paths, by their labels, once each in the order given: "Title, Script". With more than
 * one service section the section says which ("Language (Script writing)"). A path no label covers is left out.
 */
export function fieldNames(form: ProjectForm, paths: readonly string[]): string[] {
  const several = sectionOrder(form).length > 1;
  const names: string[] = [];
  for (const path of paths) {
    const field = fieldAt(form, path);
    if (!field) continue;
    const service = SERVICE_PATH.exec(path);
    const section = service && field.name !== 'services' ? sectionOrder(form)[Number(service[1])] : undefined;
    const name = several && section ? `${field.label} (${SECTION_TITLES[section]})` : field.label;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * An issue in the producer's words, naming the field by its label: "Gender and age is required." rather than the
 * validator's "genderAndAge is required.". A message that starts with the API's name of the field gets the label.
 */
export function plainMessage(
  issue: ReportedIssue,
  field: { name: string; label: string } | undefined,
): string {
  if (!field) return issue.message;
  const { name, label } = field;
  const code = issue.code ?? '';
  if (code.endsWith('_REQUIRED') || code === 'SCRIPT_EMPTY') return `${label} is required.`;
  if (code.endsWith('_NOT_ACTIVE')) return `This ${label.toLowerCase()} is not available; pick another.`;
  if (code === 'INVALID_URL') return `${label}: enter a full link starting with https://.`;
  const leading = /^[A-Za-z]+(?:[.[]\S*)?(?=\s)/.exec(issue.message)?.[0];
  if (leading && leading.split(/[.[]/)[0] === name) return `${label}${issue.message.slice(leading.length)}`;
  return issue.message;
}

/** Issues as plain messages under their fields; the first message per path wins until it is fixed. */
export function fieldErrors(form: ProjectForm, issues: readonly ReportedIssue[]): FieldErrors {
  return errorsByPath(
    issues.map((issue) => ({ path: issue.path, message: plainMessage(issue, fieldAt(form, issue.path)) })),
  );
}

/** How many fields show a message: nested paths (a script part, a tone axis) count for their field. */
export function fieldCount(errors: FieldErrors): number {
  return new Set(
    Object.keys(errors).map((path) => SERVICE_PATH.exec(path)?.[0] ?? TOP_FIELD.exec(path)?.[0] ?? path),
  ).size;
}

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
const TOP_LEVEL_FIELDS = new Set([
  'title',
  'mainService',
  'remarks',
  'fake',
  'test',
  'fulfillmentType',
  'services',
]);

/**
 * Maps a service 422 onto form paths, in plain words: its issues when it sent some, otherwise the field its code
 * names, on the first service that has that field. Empty when it concerns no field of the form.
 */
export function serviceErrorPaths(
  form: ProjectForm,
  error: { type: string; message: string; issues?: Array<{ path: string; code: string; message: string }> },
): FieldErrors {
  if (error.issues?.length) return fieldErrors(form, error.issues);
  const match = CODE_FIELDS.find(([pattern]) => pattern.test(error.type));
  if (!match) return {};
  const field = match[1];
  let path = field;
  if (!TOP_LEVEL_FIELDS.has(field)) {
    const services = buildBody(form).services as Array<Record<string, unknown>>;
    const index = services.findIndex((s) => field in s);
    path = `services[${Math.max(0, index)}].${field}`;
  }
  return fieldErrors(form, [{ path, code: error.type, message: error.message }]);
}

/** What "Order with this voice" carries from a sample to the new-project form. */
export interface SampleOrder {
  category: ProjectForm['mainService'];
  language: string;
  genderAndAge: string;
  /** The pro's name as the sample shows it. */
  pro: string;
  sampleId: string;
  /** The sample's booking price (for the length searched), shown beside the order's own quote; optional. */
  bookingPrice?: { value: number; currency: string };
}

/**
 * The request the service reads to assign the pro: the create body has no field for a pro
 * (docs/service.md#projects).
 */
export function sampleOrderRemarks(order: SampleOrder): string {
  return `Please book ${order.pro} for this project (the voice of sample ${order.sampleId}).`;
}

/** A booking with the sample's language and voice, and the pro named in the remarks for the creatives. */
export function prefillFromSample(form: ProjectForm, order: SampleOrder): void {
  form.mainService = order.category;
  form.fulfillmentType = 'booking';
  const voice = order.category === 'voice_over' ? form.voiceOver : form.adsVoiceOver;
  voice.language = order.language;
  voice.genderAndAge = order.genderAndAge;
  if (order.category === 'audio_ads') form.scriptwriting.language = order.language;
  form.remarks = sampleOrderRemarks(order);
}

/** The route query that opens the form for a sample (kept in the address, so a reload keeps the order). */
export function sampleOrderQuery(order: SampleOrder): Record<string, string> {
  return {
    sample: order.sampleId,
    pro: order.pro,
    category: order.category,
    language: order.language,
    voice: order.genderAndAge,
    ...(order.bookingPrice
      ? { price: String(order.bookingPrice.value), currency: order.bookingPrice.currency }
      : {}),
  };
}

/** Reads the query back; null unless every part is there and the category is one the form has. */
export function sampleOrderFromQuery(query: Record<string, unknown>): SampleOrder | null {
  const text = (key: string) => (typeof query[key] === 'string' ? (query[key] as string).trim() : '');
  const category = text('category');
  const order = {
    sampleId: text('sample'),
    pro: text('pro'),
    language: text('language'),
    genderAndAge: text('voice'),
  };
  if (category !== 'voice_over' && category !== 'audio_ads') return null;
  if (Object.values(order).some((value) => !value)) return null;
  const price = Number(text('price'));
  const currency = text('currency');
  const bookingPrice =
    text('price') && Number.isFinite(price) && price >= 0 && /^[A-Za-z]{3}$/u.test(currency)
      ? { bookingPrice: { value: price, currency: currency.toUpperCase() } }
      : {};
  return { category, ...order, ...bookingPrice };
}
