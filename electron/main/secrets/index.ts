export * from './secret-store';
export * from './memory-secret-store';
export * from './safe-storage-secret-store';
export * from './file-secret-store';
