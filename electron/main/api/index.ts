export * from './client';
export * from './errors';
export * from './fallbacks';
export * from './retry';
