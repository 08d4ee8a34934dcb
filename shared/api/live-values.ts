/**
 * Every value the app can put in a request to a live account — codes, enums, limits, defaults — each with where
 * it comes from: a page of the live service's public API documentation (`docs:<page>`, the page's path after
 * `/integrations/documentation/api/` on the service's documentation site, release FINAL-1.0.0) or a help-centre
 * URL; `interface:<code>` for a rule of the service interface the app implements (its error catalogue names the
 * code) that the live pages do not repeat; or `sandbox-only` when the docs were cut, silent or unreadable and the
 * value is the sandbox's own choice.
 *
 * A `sandbox-only` value never reaches a live account: the forms offer only documented values there (see
 * `cancelReasonsFor`, `rejectReasonsFor`, `searchCurrenciesFor`), the create validator applies the sandbox's
 * limits only for the sandbox (`ValidateOptions.accountKind`), and live-values.test.ts walks every form and IPC
 * input that builds a request body to prove it. A new value gets a row here first, with its source.
 */
import { isLiveAccount, type AccountKind } from './account-kind';
import {
  CANCEL_REASONS,
  DEFAULT_CANCEL_REASON_CODE,
  DEFAULT_REVISION_CODE,
  REJECT_REASONS,
  REVISION_CODES,
  REVISION_REASONS,
} from './reasons';
import { DEFAULT_PURPOSE, FULFILLMENT_TYPES, MAIN_SERVICES, SUB_CATEGORIES, UNIT_TYPES } from './schemas';
import { PROJECT_LIMITS, TITLE_MAX } from './validate-project';

/** Where a value comes from: a documentation page, a public URL, or the sandbox alone. */
export type ValueSource = `docs:${string}` | `https://${string}` | `interface:${string}` | 'sandbox-only';

/** The request fields the table governs: `<request>.<field>`, or `<request>.limit.<name>` for a bound. */
export type LiveField =
  | 'reject.reasonCode'
  | 'cancel.reasonCode'
  | 'cancel.preselected'
  | 'revision.revisionCode'
  | 'revision.reason'
  | 'revision.checkTalent'
  | 'create.mainService'
  | 'create.fulfillmentType'
  | 'create.subCategory'
  | 'create.purpose'
  | 'create.fake'
  | 'create.test'
  | 'create.limit'
  | 'search.currency'
  | 'search.unitType'
  | 'search.purpose';

export interface LiveValue {
  readonly field: LiveField;
  /** The value sent (for a limit: its bound; for a default: what is sent or assumed when nothing is chosen). */
  readonly value: string | number | boolean;
  /** For a limit: which one (`maxSeconds`…); for a default: 'default'. */
  readonly name?: string;
  readonly source: ValueSource;
  readonly note?: string;
}

const CANCEL = 'docs:definitions/reasons/cancellation';
const REJECT = 'docs:deliverables/reject';
const REVISION_LIST = 'docs:definitions/reasons/revision';
const CREATE = 'docs:projects/create';
const SEARCH = 'docs:search';

/** Whether a row is a documented one. */
const documented = (row: LiveValue) => row.source !== 'sandbox-only';

/** The table. Code lists are read from reasons.ts, so a code added there without a source shows here. */
export const LIVE_VALUES: readonly LiveValue[] = [
  // Reject: the docs name one code; the rest are the sandbox's, modelled on the legacy list.
  ...REJECT_REASONS.map((r): LiveValue => ({
    field: 'reject.reasonCode',
    value: r.code,
    source: r.sandboxChoice ? 'sandbox-only' : REJECT,
    ...(r.needsNewGenderAndAge ? { note: 'with newGenderAndAge, an id from the attribute values' } : {}),
  })),
  // Cancel: the "Default reasons" section; the change_specifications sub-codes were cut.
  ...CANCEL_REASONS.flatMap((main): LiveValue[] => [
    {
      field: 'cancel.reasonCode',
      value: main.code,
      source: CANCEL,
      ...(main.feePercent ? { note: `${main.feePercent} % fee while deliverables are reviewable` } : {}),
    },
    ...main.subReasons.map((sub): LiveValue => ({
      field: 'cancel.reasonCode',
      value: sub.code,
      source: sub.sandboxChoice ? 'sandbox-only' : CANCEL,
    })),
  ]),
  {
    field: 'cancel.preselected',
    value: DEFAULT_CANCEL_REASON_CODE,
    name: 'default',
    source: CANCEL,
    note: "the service's default when no code is sent; it carries a fee, so the app never pre-selects it",
  },
  // Revision: the list page was read on a later pass.
  ...REVISION_CODES.map((r): LiveValue => ({
    field: 'revision.revisionCode',
    value: r.code,
    source: REVISION_LIST,
  })),
  {
    field: 'revision.revisionCode',
    value: DEFAULT_REVISION_CODE,
    name: 'default',
    source: REVISION_LIST,
    note: 'applied by the service when no code is sent: a paid revision (15 %)',
  },
  ...REVISION_REASONS.map((r): LiveValue => ({
    field: 'revision.reason',
    value: r.code,
    source: 'sandboxChoice' in r ? 'sandbox-only' : 'docs:revisions/create',
    ...('sandboxChoice' in r ? { note: 'only "both" is documented (the example); audio ads only' } : {}),
  })),
  { field: 'revision.checkTalent', value: false, name: 'default', source: 'docs:revisions/create' },
  { field: 'revision.checkTalent', value: false, source: 'docs:revisions/create' },
  { field: 'revision.checkTalent', value: true, source: 'docs:revisions/create' },
  // Create.
  ...MAIN_SERVICES.map((v): LiveValue => ({ field: 'create.mainService', value: v, source: CREATE })),
  ...FULFILLMENT_TYPES.map((v): LiveValue => ({ field: 'create.fulfillmentType', value: v, source: CREATE })),
  { field: 'create.fulfillmentType', value: 'speedy', name: 'default', source: CREATE },
  ...SUB_CATEGORIES.map((v): LiveValue => ({
    field: 'create.subCategory',
    value: v,
    source:
      v === 'post-production'
        ? 'docs:projects/create'
        : v === 'scriptwriting'
          ? 'docs:deliverables/getSingle'
          : 'docs:categories/getAll',
    ...(v === 'post-production'
      ? { note: 'the docs name a post-production service in audio ads; the id is the interface spec’s' }
      : {}),
  })),
  {
    field: 'create.purpose',
    value: DEFAULT_PURPOSE,
    name: 'default',
    source: CREATE,
    note: 'other purposes come from the attribute values of the account',
  },
  { field: 'create.fake', value: false, name: 'default', source: CREATE },
  { field: 'create.fake', value: true, source: CREATE },
  { field: 'create.test', value: false, name: 'default', source: CREATE },
  { field: 'create.test', value: true, source: CREATE },
  {
    field: 'create.limit',
    name: 'titleMax',
    value: TITLE_MAX,
    source: 'interface:TITLE_TOO_LONG',
    note: "the interface's own 422; checked on every account",
  },
  // The sandbox's bounds: the create page states no limit on seconds, services, parts, words or characters.
  ...Object.entries(PROJECT_LIMITS).map(([name, value]): LiveValue => ({
    field: 'create.limit',
    name,
    value,
    source: 'sandbox-only',
    note: 'what the sandbox can deliver; checked only for the sandbox',
  })),
  // Search.
  { field: 'search.currency', value: 'USD', name: 'default', source: SEARCH },
  { field: 'search.currency', value: 'USD', source: SEARCH },
  ...['EUR', 'GBP', 'CAD', 'AUD'].map((v): LiveValue => ({
    field: 'search.currency',
    value: v,
    source: 'sandbox-only',
    note: 'the docs give USD as the default and no other currency',
  })),
  ...UNIT_TYPES.map((v): LiveValue => ({ field: 'search.unitType', value: v, source: SEARCH })),
  { field: 'search.unitType', value: 'units', name: 'default', source: SEARCH },
  {
    field: 'search.purpose',
    value: 'number',
    source: SEARCH,
    note: 'typed as a number: a purpose is sent as its numeric id, and left out on a live account when it has none',
  },
];

/** The values of a field a live account may be sent: those with a documented source (limits and defaults aside). */
export function liveValuesOf(field: LiveField): ReadonlySet<string | number | boolean> {
  return new Set(
    LIVE_VALUES.filter((row) => row.field === field && row.name === undefined && documented(row)).map(
      (row) => row.value,
    ),
  );
}

/** Whether a value of a field is the sandbox's own: listed only as `sandbox-only`, or not listed at all. */
export function isSandboxOnly(field: LiveField, value: string | number | boolean): boolean {
  return !liveValuesOf(field).has(value);
}

/** Currencies the sample search offers: USD (the documented default) on a live account, more on the sandbox. */
export function searchCurrenciesFor(kind: AccountKind | undefined): readonly string[] {
  const rows = LIVE_VALUES.filter((row) => row.field === 'search.currency' && row.name === undefined);
  return rows.filter((row) => !isLiveAccount(kind) || documented(row)).map((row) => String(row.value));
}

/** One value in a request body that a live account must not be sent. */
export interface SandboxValueFound {
  field: LiveField;
  value: unknown;
}

/** Where each governed field sits in each request body. */
const BODY_FIELDS = {
  reject: { reasonCode: 'reject.reasonCode' },
  cancel: { reasonCode: 'cancel.reasonCode' },
  revision: {
    revisionCode: 'revision.revisionCode',
    reason: 'revision.reason',
    checkTalent: 'revision.checkTalent',
  },
  create: { mainService: 'create.mainService', fulfillmentType: 'create.fulfillmentType' },
  search: { currency: 'search.currency', unitType: 'search.unitType' },
} as const satisfies Record<string, Record<string, LiveField>>;
export type LiveRequest = keyof typeof BODY_FIELDS;

/**
 * The sandbox-only values a request body carries (empty when it may go to a live account): each governed field
 * that is present must hold a documented value; a create's services their documented subcategories; a search's
 * purpose a number.
 */
export function sandboxValuesIn(
  request: LiveRequest,
  body: Readonly<Record<string, unknown>>,
): SandboxValueFound[] {
  const found: SandboxValueFound[] = [];
  const fields: Readonly<Record<string, LiveField>> = BODY_FIELDS[request];
  for (const [key, field] of Object.entries(fields)) {
    const value = body[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      found.push({ field, value });
    } else if (isSandboxOnly(field, value)) found.push({ field, value });
  }
  if (request === 'create' && Array.isArray(body.services)) {
    for (const service of body.services as Array<Record<string, unknown>>) {
      const sub = service?.subCategory;
      if (typeof sub !== 'string' || isSandboxOnly('create.subCategory', sub))
        found.push({ field: 'create.subCategory', value: sub });
    }
  }
  if (request === 'search' && body.purpose !== undefined && typeof body.purpose !== 'number') {
    found.push({ field: 'search.purpose', value: body.purpose });
  }
  return found;
}
