/**
 * Tolerant reading of service answers (issue 14): a list is read item by item, so one item Takedesk cannot
 * read is skipped (and reported) instead of failing the whole answer. The response schemas stay as they are;
 * this module knows which of them hold a list and where.
 */
import { plural } from '../text/plural';
import type { z } from 'zod';
import {
  ApproveAllResponse,
  AttributeValue,
  AttributeValuesResponse,
  CategoriesResponse,
  Category,
  CategoryAttribute,
  CategoryAttributesResponse,
  Deliverable,
  DeliverableSummary,
  DeliverablesResponse,
  DeliverableVersion,
  ListProjectsResponse,
  Project,
  ProjectListItem,
  ProjectService,
  Sample,
  SearchResponse,
  Track,
  TracksResponse,
  VersionsResponse,
} from './schemas';

/** What a tolerant read adds to an answer: how many list items could not be read (absent when none). */
export interface Unreadable {
  unreadable?: number;
}
/** An answer as the client returns it: the schema's type, plus the count of skipped items. */
export type Read<T> = T & Unreadable;

/** A bare-array answer as the IPC contract carries it (JSON cannot hang a count on an array). */
export interface ItemList<T> {
  items: T[];
  /** Items of the service's answer that could not be read (skipped and logged in main). */
  unreadable: number;
}

/**
 * A read the service could not answer, given from what was loaded on this computer (main's read mirror): `asOf` is
 * the ISO time it was read from the service. Absent on an answer the service just gave.
 */
export interface AsOf {
  asOf?: string;
}

/** One skipped item, for the log: where it was and why, never its content. */
export interface SkippedItem {
  /** `projects[3]`, `[0]`, `services[1]`. */
  at: string;
  /** The item's `id` when it has a readable one. */
  id?: string;
  issues: string[];
}

export type ReadResult<T> =
  | { success: true; data: Read<T>; skipped: SkippedItem[] }
  | { success: false; issues: Array<{ path: string; message: string }> };

/** Where an answer keeps its list: the whole answer (`field` undefined) or one of its fields. */
interface ListPlace {
  field?: string;
  item: z.ZodType;
}

const LISTS = new Map<z.ZodType, ListPlace>([
  [ListProjectsResponse, { field: 'projects', item: ProjectListItem }],
  [Project, { field: 'services', item: ProjectService }],
  [DeliverablesResponse, { item: Deliverable }],
  [ApproveAllResponse, { item: DeliverableSummary }],
  [VersionsResponse, { field: 'versions', item: DeliverableVersion }],
  [SearchResponse, { field: 'samples', item: Sample }],
  [TracksResponse, { item: Track }],
  [CategoriesResponse, { item: Category }],
  [CategoryAttributesResponse, { item: CategoryAttribute }],
  [AttributeValuesResponse, { item: AttributeValue }],
]);

/** Reads the items of a list one by one: the readable ones, and what was skipped. */
export function readItems<T>(
  item: z.ZodType<T>,
  values: readonly unknown[],
  label = '',
): { items: T[]; skipped: SkippedItem[] } {
  const items: T[] = [];
  const skipped: SkippedItem[] = [];
  values.forEach((value, index) => {
    const parsed = item.safeParse(value);
    if (parsed.success) {
      items.push(parsed.data);
      return;
    }
    const id = (value as { id?: unknown } | null)?.id;
    skipped.push({
      at: `${label}[${index}]`,
      ...(typeof id === 'string' || typeof id === 'number' ? { id: String(id) } : {}),
      issues: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(item)'}: ${i.message}`),
    });
  });
  return { items, skipped };
}

/**
 * Reads an answer with its schema. When the schema holds a list, the list is read item by item: unreadable
 * items are left out and counted in `unreadable`; only the envelope itself (or a non-list) can fail.
 */
export function readAnswer<T>(schema: z.ZodType<T>, raw: unknown): ReadResult<T> {
  const place = LISTS.get(schema);
  const list = place
    ? place.field === undefined
      ? raw
      : raw && typeof raw === 'object'
        ? (raw as Record<string, unknown>)[place.field]
        : undefined
    : undefined;
  if (!place || !Array.isArray(list)) return whole(schema, raw);
  const { items, skipped } = readItems(place.item, list, place.field ?? '');
  if (place.field === undefined) {
    const data = items as Read<T>;
    if (skipped.length) Object.assign(data, { unreadable: skipped.length });
    return { success: true, data, skipped };
  }
  // The envelope is checked with an empty list, then given the items read one by one.
  const envelope = whole(schema, { ...(raw as Record<string, unknown>), [place.field]: [] });
  if (!envelope.success) return envelope;
  const data = { ...envelope.data, [place.field]: items } as Read<T>;
  if (skipped.length) data.unreadable = skipped.length;
  return { success: true, data, skipped };
}

function whole<T>(schema: z.ZodType<T>, raw: unknown): ReadResult<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { success: true, data: parsed.data as Read<T>, skipped: [] };
  return {
    success: false,
    issues: parsed.error.issues.slice(0, 10).map((i) => ({ path: i.path.join('.'), message: i.message })),
  };
}

/** "1 item could not be read" / "3 items could not be read"; empty when none. */
export function unreadableText(count: number | null | undefined): string {
  if (!count || count < 1) return '';
  return `${plural(count, 'item')} could not be read`;
}
