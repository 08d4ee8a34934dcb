// Search: a pro's voice sample, the query as a caller sends it and as the service reads it, and the answer.
import { z } from 'zod';
import { Id } from '../ids';
import {
  asQueryString,
  queryNumber,
  queryPage,
  queryText,
  requestPage,
  requestPageSize,
  requestText,
} from './builders';

/** A pro's voice sample; open-ended beyond the listed fields. */
export const Sample = z.looseObject({
  publicId: z.string(),
  fullName: z.string(),
  currency: z.string(),
  price: z.number(),
  listPrice: z.number(),
  language: z.string(),
  genderAndAge: z.string(),
  url: z.string(),
});
export type Sample = z.infer<typeof Sample>;

/**
 * What a caller asks of `GET /search`; absent fields take the service's defaults. `unitType` accepts any
 * string: a value outside UNIT_TYPES is the service error UNITTYPE_NOT_ALLOWED, not a parse failure.
 * `purpose` is typed number in the spec but create uses string ids (a docs error; docs/service.md#search).
 */
export const SearchParams = z.object({
  categoryId: Id,
  currency: requestText(10).optional(),
  page: requestPage.optional(),
  pageSize: requestPageSize.optional(),
  language: requestText(100).optional(),
  genderAndAge: requestText(100).optional(),
  /** Maximum turnaround in days. */
  turnAroundTimeDays: z.number().int().min(0).max(365).optional(),
  minimumPrice: z.number().min(0).max(1e9).optional(),
  maximumPrice: z.number().min(0).max(1e9).optional(),
  units: z.number().min(0).max(1e9).optional(),
  unitType: requestText(20).optional(),
  purpose: z.union([z.number(), requestText(100)]).optional(),
});
export type SearchParams = z.infer<typeof SearchParams>;

/** Query of `GET /search` as the service reads it: numbers from text, the spec's defaults filled in. */
export const SearchQuery = asQueryString(SearchParams, {
  categoryId: z.string().min(1),
  currency: queryText('USD'),
  page: queryPage(1),
  pageSize: queryPage(20),
  turnAroundTimeDays: queryNumber(),
  minimumPrice: queryNumber(),
  maximumPrice: queryNumber(),
  units: queryNumber(),
  unitType: queryText('units'),
  // The service bounds its own text fields; the caller's limits above are main's, not the service's.
  language: z.string().optional(),
  genderAndAge: z.string().optional(),
  purpose: z.string().optional(),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

export const SearchResponse = z.looseObject({
  page: z.number(),
  totalPages: z.number(),
  total: z.number(),
  samples: z.array(Sample),
});
export type SearchResponse = z.infer<typeof SearchResponse>;
