// The service's value lists (categories, fulfilment types, statuses, unit types, tone keys, defaults) and the
// enum schemas built from them: closed where the client writes a value, open where it reads one.
import { z } from 'zod';
import { openEnum } from './builders';

/** Project categories the spec names (`mainService`). */
export const MAIN_SERVICES = ['voice_over', 'audio_ads'] as const;
/** Fulfilment types (docs/service.md#project). */
export const FULFILLMENT_TYPES = ['speedy', 'booking', 'contest'] as const;
/** Project statuses of the interface plus the live list (docs/service.md#project-statuses). */
export const PROJECT_STATUSES = [
  'paid',
  'canceled',
  'pendingInternalReview',
  'pendingPayment',
  'completed',
] as const;
/** Deliverable statuses of the interface plus the live list (docs/service.md#deliverable-statuses). */
export const DELIVERABLE_STATUSES = [
  'reviewable',
  'approved',
  'rejected',
  'revisionRequested',
  'winner',
  'unassigned',
  'assigned',
] as const;
/** Service subcategory ids seen in the spec. */
export const SUB_CATEGORIES = ['voice_over', 'scriptwriting', 'post-production'] as const;
/** Allowed search `unitType` values; anything else is UNITTYPE_NOT_ALLOWED (a service error, not a parse error). */
export const UNIT_TYPES = ['seconds', 'minutes', 'hours', 'units'] as const;
/** The five tone sliders of a script writing service, in spec order. */
export const TONE_KEYS = [
  'seriousHumorous',
  'conciseWordy',
  'objectiveOpinionated',
  'sincereSarcastic',
  'journalisticCreative',
] as const;
/** `unitType` values a project service reports. */
export const SERVICE_UNIT_TYPES = ['words', 'characters', 'seconds'] as const;
/** Default `purpose` of a voice over service (docs/service.md#services). */
export const DEFAULT_PURPOSE = 'radioTvAds';
/**
 * Default `voicePerspective` of a script writing service (the interface's name wins over the live
 * `bunny-pro-choice`; docs/service.md#allowed-values).
 */
export const DEFAULT_VOICE_PERSPECTIVE = 'service-pro-choice';
/** The only `backgroundMusic` option the spec names for post production. */
export const BACKGROUND_MUSIC_LIBRARY = 'audioads-music-library';

export const MainService = z.enum(MAIN_SERVICES);
export type MainService = z.infer<typeof MainService>;
/** Read-time mainService: known values typed, unknown strings accepted. */
export const MainServiceRead = openEnum(MAIN_SERVICES);
export type MainServiceRead = z.infer<typeof MainServiceRead>;
export const FulfillmentType = z.enum(FULFILLMENT_TYPES);
export type FulfillmentType = z.infer<typeof FulfillmentType>;
export const FulfillmentTypeRead = openEnum(FULFILLMENT_TYPES);
export type FulfillmentTypeRead = z.infer<typeof FulfillmentTypeRead>;
/** Project status; the full live list is not known, so any string is accepted. */
export const ProjectStatus = openEnum(PROJECT_STATUSES);
export type ProjectStatus = z.infer<typeof ProjectStatus>;
export const DeliverableStatus = openEnum(DELIVERABLE_STATUSES);
export type DeliverableStatus = z.infer<typeof DeliverableStatus>;
export const SubCategory = z.enum(SUB_CATEGORIES);
export type SubCategory = z.infer<typeof SubCategory>;
export const UnitType = z.enum(UNIT_TYPES);
export type UnitType = z.infer<typeof UnitType>;

/**
 * Service statuses: the interface's (the project's) plus the live list (docs/service.md#service-statuses).
 */
export const SERVICE_STATUSES = [
  'paid',
  'canceled',
  'unassigned',
  'assigned',
  'approved',
  'rejected',
] as const;
export const ServiceStatus = openEnum(SERVICE_STATUSES);
export type ServiceStatus = z.infer<typeof ServiceStatus>;
