/**
 * Schemas and inferred types for every resource and message of the Creative Audio Projects
 * service (docs/service.md: the interface and the live pages).
 *
 * Why zod: types are inferred from the schemas, `.loose()`/looseObject keeps responses tolerant
 * of fields the spec does not list, and z.toJSONSchema() generates the OpenAPI document the
 * sandbox serves.
 *
 * Request schemas type the body; the spec's 422 validation codes come from validate-project.ts.
 *
 * This front re-exports the schemas of schemas/, one file per resource (value lists, dates, create-time
 * shapes, projects, deliverables and versions, revisions, search, catalogue, quote, sign-in, the error
 * body), so importers name one module. The shared zod helpers (schemas/builders.ts) stay internal.
 */
export * from './schemas/values';
export * from './schemas/dates';
export * from './schemas/project-input';
export * from './schemas/projects';
export * from './schemas/deliverables';
export * from './schemas/revisions';
export * from './schemas/search';
export * from './schemas/catalogue';
export * from './schemas/quote';
export * from './schemas/auth';
export * from './schemas/error-body';
