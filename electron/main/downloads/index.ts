export * from './downloads';
export * from './errors';
export * from './fast-http';
export * from './follower';
export * from './http';
export * from './rate';
export * from './transfer';
export * from './worker-http';
