import { createContestOps } from './engine/contests';
import { createCreatives } from './engine/creatives';
import { createDeliverableOps } from './engine/deliverables';
import { createDelivery } from './engine/delivery';
import { createProjectOps } from './engine/projects';
import { createStore } from './engine/store';
import type { EngineDeps } from './engine/types';
import { projectView, summary } from './engine/views';

export { CONTEST_ENTRIES } from './engine/creatives';
export type { EngineDeps, MediaDescriptor, SandboxCatalog, Talent } from './engine/types';

/**
 * The simulated service: every state transition of the spec, synchronous so each operation is atomic. A thin
 * front over the units of engine/: the state store, the simulated creatives, the project lifecycle, the
 * deliverable decisions, contests and delivery scheduling.
 */
export function createEngine(deps: EngineDeps) {
  const store = createStore(deps);
  const creatives = createCreatives(store);
  return {
    summary,
    projectView,
    ...createProjectOps(store, creatives),
    ...createDeliverableOps(store),
    ...createContestOps(store),
    ...createDelivery(store, creatives),
  };
}

export type Engine = ReturnType<typeof createEngine>;
