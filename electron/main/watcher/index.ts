export * from './watcher';
export * from './memory-file';
export * from './poll-plan';
export * from './handlers';
