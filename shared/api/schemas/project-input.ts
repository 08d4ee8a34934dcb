// Create-time shapes: the services of each project category and the body of `POST /projects`.
import { z } from 'zod';
import { DEFAULT_PURPOSE, DEFAULT_VOICE_PERSPECTIVE, FulfillmentType } from './values';

/** A script: one plain string, or an array of objects mapping a part key to its text. */
export const Script = z.union([z.string(), z.array(z.record(z.string(), z.string()))]);
export type Script = z.infer<typeof Script>;

/** Attachments: http(s) URLs. */
export const AssetsFiles = z.array(z.httpUrl());
export type AssetsFiles = z.infer<typeof AssetsFiles>;

/** Tone sliders; the numeric range is not shown in the spec, so any number is allowed. */
export const Tone = z.object({
  seriousHumorous: z.number().optional(),
  conciseWordy: z.number().optional(),
  objectiveOpinionated: z.number().optional(),
  sincereSarcastic: z.number().optional(),
  journalisticCreative: z.number().optional(),
});
export type Tone = z.infer<typeof Tone>;

/** The single service of a `voice_over` project. */
export const VoiceOverServiceInput = z.object({
  subCategory: z.literal('voice_over'),
  language: z.string(),
  genderAndAge: z.string(),
  purpose: z.string().default(DEFAULT_PURPOSE),
  script: Script,
});
export type VoiceOverServiceInput = z.infer<typeof VoiceOverServiceInput>;

/** Script writing service of an `audio_ads` project. */
export const ScriptwritingServiceInput = z.object({
  subCategory: z.literal('scriptwriting'),
  seconds: z.number().positive(),
  language: z.string(),
  voicePerspective: z.string().default(DEFAULT_VOICE_PERSPECTIVE),
  topic: z.string(),
  purpose: z.string(),
  targetAudience: z.string(),
  keywords: z.string().optional(),
  remarks: z.string().optional(),
  tone: Tone.optional(),
  assetsFiles: AssetsFiles.optional(),
});
export type ScriptwritingServiceInput = z.infer<typeof ScriptwritingServiceInput>;

/**
 * Voice over service inside an `audio_ads` project. Its script comes from script writing; an ad ordered without
 * script writing carries the producer's own, as a voice over project does.
 */
export const AudioAdsVoiceOverServiceInput = z.object({
  subCategory: z.literal('voice_over'),
  language: z.string(),
  genderAndAge: z.string(),
  purpose: z.string().default(DEFAULT_PURPOSE),
  remarks: z.string().optional(),
  script: Script.optional(),
  assetsFiles: AssetsFiles.optional(),
});
export type AudioAdsVoiceOverServiceInput = z.infer<typeof AudioAdsVoiceOverServiceInput>;

/** Post production service of an `audio_ads` project. */
export const PostProductionServiceInput = z.object({
  subCategory: z.literal('post-production'),
  seconds: z.number().positive(),
  remarks: z.string().optional(),
  trackId: z.number().int().optional(),
  ownMusicFile: z.httpUrl().optional(),
  ownMusicFileRights: z.boolean().optional(),
  proSelectsMusic: z.boolean().default(false),
  assetsFiles: AssetsFiles.optional(),
});
export type PostProductionServiceInput = z.infer<typeof PostProductionServiceInput>;

/** Any service of an `audio_ads` project, told apart by subCategory. */
export const AudioAdsServiceInput = z.discriminatedUnion('subCategory', [
  ScriptwritingServiceInput,
  AudioAdsVoiceOverServiceInput,
  PostProductionServiceInput,
]);
export type AudioAdsServiceInput = z.infer<typeof AudioAdsServiceInput>;

const projectInputCommon = {
  title: z.string(),
  fulfillmentType: FulfillmentType.default('speedy'),
  fake: z.boolean().default(false),
  test: z.boolean().default(false),
  // The client always sends remarks ("" when none) because the service may answer REMARKS_REQUIRED.
  remarks: z.string().default(''),
};

export const VoiceOverProjectInput = z.object({
  ...projectInputCommon,
  mainService: z.literal('voice_over'),
  services: z.array(VoiceOverServiceInput).min(1),
});
export type VoiceOverProjectInput = z.infer<typeof VoiceOverProjectInput>;

export const AudioAdsProjectInput = z.object({
  ...projectInputCommon,
  mainService: z.literal('audio_ads'),
  services: z.array(AudioAdsServiceInput).min(1),
});
export type AudioAdsProjectInput = z.infer<typeof AudioAdsProjectInput>;

/** Body of `POST /projects`, told apart by mainService. */
export const CreateProjectBody = z.discriminatedUnion('mainService', [
  VoiceOverProjectInput,
  AudioAdsProjectInput,
]);
export type CreateProjectBody = z.infer<typeof CreateProjectBody>;
/** The body as a caller writes it (defaults may be left out). */
export type CreateProjectBodyInput = z.input<typeof CreateProjectBody>;
