export * from './watcher';
