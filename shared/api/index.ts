/** The service contract: schemas, error catalog, validators and reason codes (one import for all of it). */
export * from './schemas';
export * from './errors';
export * from './reasons';
export * from './validate-project';
export * from './ids';
export * from './read-answer';
export * from './ordered-seconds';
export * from './paging';
