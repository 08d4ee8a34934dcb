// The catalogue endpoints of the live pages (docs/service.md#endpoints): categories, their attributes and values,
// and the music library's tracks with their query.
import { z } from 'zod';
import { asQueryString, requestText } from './builders';

export const SubCategoryInfo = z.looseObject({
  id: z.string(),
  brandName: z.string(),
  formats: z.array(z.string()),
});
export type SubCategoryInfo = z.infer<typeof SubCategoryInfo>;

/** Element of `GET /categories`. */
export const Category = z.looseObject({
  id: z.string(),
  name: z.string(),
  subCategories: z.array(SubCategoryInfo),
});
export type Category = z.infer<typeof Category>;
export const CategoriesResponse = z.array(Category);
export type CategoriesResponse = z.infer<typeof CategoriesResponse>;

/** Element of `GET /categories/{id}/attributes`. */
export const CategoryAttribute = z.looseObject({
  id: z.string(),
  name: z.string(),
  defaultValue: z.union([z.string(), z.number()]),
});
export type CategoryAttribute = z.infer<typeof CategoryAttribute>;
export const CategoryAttributesResponse = z.array(CategoryAttribute);
export type CategoryAttributesResponse = z.infer<typeof CategoryAttributesResponse>;

/** Element of `GET /categories/{id}/attribute/{attributeId}/values`. */
export const AttributeValue = z.looseObject({ id: z.string(), name: z.string() });
export type AttributeValue = z.infer<typeof AttributeValue>;
export const AttributeValuesResponse = z.array(AttributeValue);
export type AttributeValuesResponse = z.infer<typeof AttributeValuesResponse>;

/** A music library track (`GET /tracks`, `GET /tracks/{id}`). */
export const Track = z.looseObject({
  id: z.number(),
  fileName: z.string(),
  type: z.string(),
  typeLabel: z.string(),
  subType: z.string(),
  subTypeLabel: z.string(),
  url: z.looseObject({ wav: z.string(), mp3: z.string() }),
});
export type Track = z.infer<typeof Track>;
export const TracksResponse = z.array(Track);
export type TracksResponse = z.infer<typeof TracksResponse>;

/** What a caller asks of `GET /tracks`: a music type and subtype, both optional. */
export const TracksParams = z.object({
  typeId: requestText(100).optional(),
  subtypeId: requestText(100).optional(),
});
export type TracksParams = z.infer<typeof TracksParams>;

/** Query of `GET /tracks` as the service reads it: an empty value means absent. */
export const TracksQuery = asQueryString(TracksParams, {
  typeId: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  subtypeId: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
});
export type TracksQuery = z.infer<typeof TracksQuery>;
