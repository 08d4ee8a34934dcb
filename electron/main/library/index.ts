// The offline library: where downloaded files live, their manifest, analyses and QA (library-service.ts).
export * from './library';
export * from './library-service';
export * from './sanitize';
