export * from './library';
export * from './sanitize';
