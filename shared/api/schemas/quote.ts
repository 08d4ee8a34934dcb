// A price quote (`POST /quote`): the project body without title, flags and remarks, and its answer.
import { z } from 'zod';
import { AudioAdsProjectInput, VoiceOverProjectInput } from './project-input';
import { FulfillmentTypeRead, MainServiceRead } from './values';

/** Body of `POST /quote`: a project body without title, flags and remarks. */
export const QuoteBody = z.discriminatedUnion('mainService', [
  VoiceOverProjectInput.pick({ mainService: true, fulfillmentType: true, services: true }),
  AudioAdsProjectInput.pick({ mainService: true, fulfillmentType: true, services: true }),
]);
export type QuoteBody = z.infer<typeof QuoteBody>;

export const QuoteResponse = z.looseObject({
  mainService: MainServiceRead,
  fulfillmentType: FulfillmentTypeRead,
  price: z.number(),
  services: z.array(z.looseObject({ subCategory: z.string().optional(), price: z.number().optional() })),
});
export type QuoteResponse = z.infer<typeof QuoteResponse>;
