/**
 * The error catalog: every error code the sandbox returns, the client maps and the UI explains.
 * Sources: 'spec' (the interface text's codes), 'facts' (the live pages' codes and sandbox choices for
 * gaps; both in docs/service.md#error-codes), 'extension' (our audio-ads and body validation codes, same
 * style), 'client'
 * (failures on this side of the wire; no HTTP status).
 *
 * This front re-exports the parts in errors/: the entry types (types.ts), the catalog and its lookups
 * (catalog.ts, assembled from one data file per source: spec-codes.ts, facts-codes.ts, extension-codes.ts,
 * client-codes.ts), the producer-facing wording (describe.ts) and ServiceError (service-error.ts).
 */
export * from './errors/types';
export * from './errors/catalog';
export * from './errors/describe';
export * from './errors/service-error';
