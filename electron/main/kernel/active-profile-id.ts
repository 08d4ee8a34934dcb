/** The active profile's id, read from the profiles service: what answers, jobs and files are filed under. */
import type { ProfilesState } from '../../../shared/ipc';

export async function activeProfileId(profiles: {
  state(): Promise<Pick<ProfilesState, 'activeId'>>;
}): Promise<string> {
  return (await profiles.state()).activeId;
}
