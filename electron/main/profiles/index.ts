export * from './profiles';
export * from './settings-store';
export * from './token-claims';
