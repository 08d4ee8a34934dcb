export * from './downloads';
export * from './errors';
export * from './http';
export * from './rate';
export * from './transfer';
