/**
 * Voice perspectives of audio-ads script writing. The default `service-pro-choice` is the
 * spec's name (the live service calls it `bunny-pro-choice`; the interface governs,
 * docs/service.md#allowed-values); the other options are sandbox choices (the live list was not found).
 */
export interface VoicePerspective {
  id: string;
  name: string;
}

/** All perspectives; the first is the default. */
export const VOICE_PERSPECTIVES: readonly VoicePerspective[] = [
  { id: 'service-pro-choice', name: "Pro's choice" },
  { id: 'firstPerson', name: 'First person (I, we)' },
  { id: 'secondPerson', name: 'Second person (you)' },
  { id: 'thirdPerson', name: 'Third person (they, the brand)' },
  { id: 'brandVoice', name: 'Brand voice' },
  { id: 'testimonial', name: 'Customer testimonial' },
  { id: 'dialogue', name: 'Dialogue between two voices' },
];

/** Default perspective (`service-pro-choice`, docs/service.md#allowed-values). */
export const DEFAULT_VOICE_PERSPECTIVE = 'service-pro-choice';

/** The perspective with this id, or undefined. */
export function findVoicePerspective(id: string): VoicePerspective | undefined {
  return VOICE_PERSPECTIVES.find((p) => p.id === id);
}
