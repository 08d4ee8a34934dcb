export * from './profiles';
export * from './settings-store';
