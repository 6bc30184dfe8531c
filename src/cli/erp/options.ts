// The options of `vx erp` and the types of the option objects its verbs receive. A leaf: it
// imports define.ts and model/ only, so declarations (index.ts) and verbs both import it.
import type { ErpSet } from '../../model/erp/index.js';
import { opt, type OptionsOf } from '../define.js';

export const COMPANY = opt('--company <id|name>', 'company id or name (env VX_ERP_COMPANY, profile erp.company)');
/** --company, for the sets below a company */
export const company = (set: ErpSet): readonly (typeof COMPANY)[] => (set.scope === 'root' ? [] : [COMPANY]);

const MAX_PAGES = opt('--max-pages <n>', "stop with exit 1 after n pages: a next-page chain that never ends (default 100000)");
export const LIST = [
  opt('--filter <odata>', "OData $filter, e.g. \"status eq 'Open'\""),
  opt('--select <fields>', 'OData $select: comma-separated fields'),
  opt('--expand <navigation>', 'OData $expand, e.g. salesOrderLines'),
  opt('--orderby <fields>', 'OData $orderby, e.g. "orderDate desc,number"'),
  opt('--top <n>', 'at most n items in total ($top)'),
  opt('--skip <n>', 'skip the first n items ($skip)'),
  opt('--page-size <n>', 'items per page (Prefer: odata.maxpagesize=n); all pages are still read'),
  MAX_PAGES,
] as const;
export const GET = [opt('--select <fields>', 'OData $select: comma-separated fields'), opt('--expand <navigation>', 'OData $expand')] as const;
export const BODY = [
  opt('-d, --data <json|@file|->', 'the fields as a JSON object: JSON text, @file, or - (or @-) for stdin'),
  opt('--set <field=value>', 'set one field, typed by the model (repeatable; wins over --data)', { repeat: true }),
] as const;
export const ETAG = [
  opt('--if-match <etag>', 'the ETag the record must still have (default: the @odata.etag of a fresh read)'),
  opt('--force', 'send If-Match: * (overwrite whatever changed since)'),
] as const;
/** --batch-size, --concurrency and --atomic of the commands that work over $batch */
export const BATCH = [
  opt('--batch-size <n>', 'operations per $batch request, 1-100 (env VX_ERP_BATCH_SIZE, profile erp.batchSize; default 100)'),
  opt('--concurrency <n>', '$batch requests in flight (env VX_ERP_CONCURRENCY, profile erp.concurrency; default 5)'),
  opt('--atomic', 'send each batch with Isolation: snapshot: all of its operations are done, or none'),
] as const;
export const BULK_TARGET = [
  ...BATCH,
  opt('--filter <odata>', 'every record this OData $filter matches (counted and confirmed first)'),
  opt('--ids <file|->', 'the ids listed in a file, one per line (- reads standard input)'),
] as const;

/** The keys by which `import --update` finds a record: id, then the set's human, number and natural keys. */
function updateKeyText(set: ErpSet): string {
  const keys = ['id'];
  for (const k of [set.humanKey, set.fields.number ? 'number' : undefined, set.naturalKey]) if (k && !keys.includes(k)) keys.push(k);
  return keys.join(' or ');
}

export const importOptions = (set: ErpSet) =>
  [
    opt('-f, --file <path|->', 'the rows: a file, or - for standard input'),
    opt('--format <format>', 'the file format (default: from the file name)', { choices: ['csv', 'ndjson', 'json'] }),
    opt('--update', `change existing records found by ${updateKeyText(set)} (If-Match: the row's @odata.etag or a fresh read)`),
    opt('--skip-invalid', 'send the valid rows when some are invalid (the invalid ones are reported and count as failed)'),
    opt('--journal <file>', "where each row's outcome is recorded, so a rerun skips what was done (default: <file>.vx-journal)"),
    opt('--check-unknown', 'look up the rows whose outcome an earlier run could not learn, once their request cannot be running on the service any more (11 minutes after it was sent): those found are journaled done, those the service shows it lacks are sent'),
    opt('--resend-unknown', 'send again the rows whose outcome an earlier run could not learn (on create, those it did are created twice: --check-unknown looks them up first)'),
  ] as const;
export const EXPORT = [
  opt('--filter <odata>', "OData $filter, e.g. \"status eq 'Open'\""),
  opt('--select <fields>', 'OData $select: the fields (the CSV columns, in this order)'),
  opt('--orderby <fields>', 'OData $orderby'),
  opt('--top <n>', 'at most n records'),
  opt('--page-size <n>', 'records per page (Prefer: odata.maxpagesize=n; default 500)'),
  MAX_PAGES,
  opt('--out <file>', 'write to this file (complete or not at all) instead of standard output (- is standard output)'),
] as const;
export const RELATED_OUT = opt('--out <file>', 'pdfDocument only: save the document content to this file (- writes it to standard output)');
// required to start a refresh, not to check one (`refresh status`): checked when the refresh itself runs
export const REFRESH_OPTIONS = [
  opt('--project <id>', 'project id (required)', { requiredToRun: true }),
  opt('--source <envId>', 'source environment id (required)', { requiredToRun: true }),
  opt('--target <envId>', 'target environment id, whose database is overwritten (required)', { requiredToRun: true }),
  opt('--wait', 'follow the operation until it completes or fails: a spinner with its state and the time waited at a terminal; the final status on stdout'),
  opt('--no-wait', 'print the start answer and return without following the operation (the default)'),
  opt('--poll-interval <seconds>', 'seconds between status polls when the service sends no Retry-After (default 15)'),
  opt('--wait-timeout <seconds>', 'with --wait: stop following the operation after this long, saying how to check it (it goes on; exit 1; default 86400, a day)'),
] as const;
// commander gives a --project written after `status` to refresh (it has one too): the action
// reads both (optsWithGlobals), and so does the check of a required option
export const REFRESH_STATUS_OPTIONS = [
  opt('--project <id>', 'project id (required)', { requiredToRun: true }),
  opt('--environment <envId>', 'the environment refreshed: the --target of the refresh (required)', { requiredToRun: true }),
] as const;

export type CompanyOpts = OptionsOf<readonly [typeof COMPANY]>;
export type ListOpts = OptionsOf<typeof LIST> & CompanyOpts;
export type GetOpts = OptionsOf<typeof GET> & CompanyOpts;
export type RelatedOpts = ListOpts & OptionsOf<readonly [typeof RELATED_OUT]>;
export type BodyOpts = OptionsOf<typeof BODY> & CompanyOpts;
export type EtagOpts = OptionsOf<typeof ETAG> & CompanyOpts;
export type BatchOpts = OptionsOf<typeof BATCH>;
export type BulkTargetOpts = OptionsOf<typeof BULK_TARGET>;
export type BulkActionOpts = BulkTargetOpts & Partial<OptionsOf<typeof ETAG>> & CompanyOpts;
export type ImportOpts = OptionsOf<ReturnType<typeof importOptions>> & BatchOpts & CompanyOpts;
export type ExportOpts = OptionsOf<typeof EXPORT> & CompanyOpts;
export type RefreshOpts = OptionsOf<typeof REFRESH_OPTIONS>;
export type RefreshStatusOpts = OptionsOf<typeof REFRESH_STATUS_OPTIONS>;
