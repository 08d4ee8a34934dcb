/**
 * Problems on the form's fields in plain words: the labels the form shows, the field a validator or service path
 * points into, and a service 422 mapped onto the form's paths.
 */
import { buildBody } from './form-body';
import { sectionOrder, type ProjectForm, type Section } from './form-model';

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
