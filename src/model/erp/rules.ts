// The rules of the business-data API that are not a set's own: where a set's collection is, and
// the platform's limits.
import type { ErpSet } from './sets.js';

/** The path below `{prefix}` of a set's collection: `/api/<v>/companies(<c>)/<name>`. */
export function collectionPath(set: ErpSet, company?: string): string {
  if (set.scope === 'root') return `/api/${set.apiVersion}/${set.name}`;
  return `/api/${set.apiVersion}/companies(${encodeURIComponent(company ?? '')})/${set.name}`;
}

// Limits of the business-data API (the platform's "API limits" / operational limits pages)
/** operations one `$batch` request may hold */
export const BATCH_MAX_OPERATIONS = 100;

/**
 * the longest the service works on one request: it ends one that runs 10 minutes with 504 Gateway
 * Timeout (the platform's "Current API limits"; an OData operation times out after 8)
 */
export const MAX_REQUEST_MS = 10 * 60_000;
/** added to it before a request is taken for over: the two machines' clocks, and the wait of a request queued behind the 5 a user may have running */
export const REQUEST_MARGIN_MS = 60_000;
