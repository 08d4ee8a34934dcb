import type { ProfilesState } from './types';

/**
 * Whether the screens of the active profile show a file or download job fetched under `profileId`: its own, and
 * those of a profile since removed (the files are still the producer's; hiding them would lose them).
 */
export function showsFilesOf(
  state: Pick<ProfilesState, 'activeId' | 'profiles'>,
  profileId?: string,
): boolean {
  return profileId === state.activeId || !state.profiles.some((p) => p.id === profileId);
}
