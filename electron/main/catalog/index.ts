// The catalog feature's public front: other folders of main import catalog/ through this file only.
export * from './handlers';
