export * from './profiles';
export * from './settings-store';
export * from './token-claims';
export * from './settings';
export * from './sandbox-launcher';
export * from './live-guard';
export * from './handlers';
export * from './sandbox-child-process';
