// The offline library: where downloaded files live, their manifest, analyses and QA (library-service.ts).
export * from './library';
export * from './library-service';
export * from './sanitize';
export * from './handlers';
export * from './qa-targets';
export * from './safe-fs';
