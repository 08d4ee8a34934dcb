/**
 * The new-project form, as one module for its callers: its state (`form-model`), the bodies it sends and its own
 * checks (`form-body`), its field problems in plain words (`form-errors`), and a sample's order (`sample-order`).
 */
export * from './form-model';
export * from './form-body';
export * from './form-errors';
export * from './sample-order';
