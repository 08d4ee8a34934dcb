export * from './channels';
export * from './contract';
export * from './types';
export * from './settings';
export * from './api';
export * from './project-downloads';
export * from './fetched-under';
