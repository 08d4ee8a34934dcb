import { config } from 'zod';

// Zod probes `new Function` to decide on its JIT; under our CSP (no 'unsafe-eval') the probe is caught but still
// reported as a securitypolicyviolation. Jitless parsing skips the probe. Imported first by main.ts so it runs
// before any schema is built (schemas read the flag at construction).
config({ jitless: true });
