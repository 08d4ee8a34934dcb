export * from './channels';
export * from './contract';
export * from './types';
export * from './api';
export * from './project-downloads';
