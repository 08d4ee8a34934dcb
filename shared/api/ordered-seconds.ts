import type { Project } from './schemas';

/**
 * The ordered length of an audio ad's deliverable, for the duration QA check: the `seconds` of the service
 * that made it, or its `units` when they count seconds (the spec's answer; the live one may omit `seconds`).
 * Null for other projects, for services not ordered by length, and for anything not a positive number.
 */
export function orderedSecondsOf(
  project: Pick<Project, 'mainService' | 'services'> | null | undefined,
  serviceSubCategory: string | null | undefined,
): number | null {
  if (!project || project.mainService !== 'audio_ads' || !serviceSubCategory) return null;
  const service = project.services.find((s) => s.subCategory === serviceSubCategory);
  if (!service) return null;
  const seconds = service.seconds ?? (service.unitType === 'seconds' ? service.units : undefined);
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}
