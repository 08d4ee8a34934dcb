export * from './watcher';
export * from './memory-file';
