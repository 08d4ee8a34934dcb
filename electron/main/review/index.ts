// The review feature's public front: other folders of main import review/ through this file only.
export * from './handlers';
export * from './mirrored-read';
export * from './database';
export * from './decisions';
export * from './migrations';
export * from './mirror';
export * from './names';
export * from './reachability';
export * from './reactions';
export * from './state-values';
export * from './migrate-outbox';
export * from './review-index';
