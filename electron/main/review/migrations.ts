/** Every migration of `takedesk.sqlite`, in order: the decisions (1), the read mirror (2), kept values (3). */
import type { Migration } from './database';
import { DECISIONS_MIGRATIONS } from './decisions';
import { MIRROR_MIGRATIONS } from './mirror';
import { STATE_VALUES_MIGRATIONS } from './state-values';

export const DATABASE_MIGRATIONS: Migration[] = [
  ...DECISIONS_MIGRATIONS,
  ...MIRROR_MIGRATIONS,
  ...STATE_VALUES_MIGRATIONS,
];
