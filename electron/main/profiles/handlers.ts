/** The profiles' part of the handler map: service accounts, sign-in, and restarting the embedded sandbox. */
import type { ProfileSummary, ProfilesState } from '../../../shared/ipc';
import type { ApiClient } from '../api';
import type { HandlersIn } from '../kernel/handler-types';
import type { RenewProfileInput } from './profiles';

/** What the handlers need from the profiles service: the token stays inside it. */
export interface ProfilesPort {
  state(): Promise<ProfilesState>;
  add(input: { name: string; baseUrl: string; token: string }): Promise<ProfilesState>;
  signIn(input: { name: string; baseUrl: string; email: string; password: string }): Promise<ProfilesState>;
  renew(input: RenewProfileInput): Promise<ProfilesState>;
  activate(id: string): Promise<ProfilesState>;
  remove(id: string): Promise<ProfilesState>;
  restartSandbox(): Promise<ProfilesState>;
  /** The active profile's id with its client: answers are filed under the profile that gave them. */
  active(): Promise<{ profile: Pick<ProfileSummary, 'id' | 'name' | 'kind'>; client: ApiClient }>;
}

export function createProfilesHandlers(profiles: ProfilesPort): HandlersIn<'profiles' | 'sandbox'> {
  return {
    'profiles.list': () => profiles.state(),
    'profiles.add': (input) => profiles.add(input),
    'profiles.signIn': (input) => profiles.signIn(input),
    'profiles.renew': (input) => profiles.renew(input),
    'profiles.activate': ({ id }) => profiles.activate(id),
    'profiles.remove': ({ id }) => profiles.remove(id),
    'sandbox.restart': () => profiles.restartSandbox(),
  };
}
