// The business-data (ERP) model: the entity sets (sets.ts), the types and rules of their field
// values (fields.ts), the API's paths and limits (rules.ts).
export * from './fields.js';
export * from './rules.js';
export * from './sets.js';
