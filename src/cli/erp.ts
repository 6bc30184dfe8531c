// The `vx erp` tree, generated from the entity-set models in model/erp.ts: one noun per set with
// the verbs its model allows, its bound actions and its navigation properties; plus `refresh`.
// Declarations only; every action loads erp-run.js when it runs.
import type { Command } from 'commander';
import { ERP_SETS, typeText, type ErpSet } from '../model/erp.js';
import { arg, command, group, mount, opt, type OptionsOf, type Spec } from './define.js';

/** The help of a record argument: its id, or its human key where it has one. */
function idHelp(set: ErpSet): string {
  return set.humanKey ? `${set.singular} id, or its ${set.humanKey} (looked up with one read)` : `${set.singular} id`;
}

const run = () => import('./erp-run.js');
const bulkRun = () => import('./erp-bulk-run.js');

const COMPANY = opt('--company <id>', 'company id (env VX_ERP_COMPANY, profile erp.company)');
/** --company, for the sets below a company */
const company = (set: ErpSet): readonly (typeof COMPANY)[] => (set.scope === 'root' ? [] : [COMPANY]);

const LIST = [
  opt('--filter <odata>', "OData $filter, e.g. \"status eq 'Open'\""),
  opt('--select <fields>', 'OData $select: comma-separated fields'),
  opt('--expand <navigation>', 'OData $expand, e.g. salesOrderLines'),
  opt('--orderby <fields>', 'OData $orderby, e.g. "orderDate desc,number"'),
  opt('--top <n>', 'at most n items in total ($top)'),
  opt('--skip <n>', 'skip the first n items ($skip)'),
  opt('--page-size <n>', 'items per page (Prefer: odata.maxpagesize=n); all pages are still read'),
] as const;
const GET = [opt('--select <fields>', 'OData $select: comma-separated fields'), opt('--expand <navigation>', 'OData $expand')] as const;
const BODY = [
  opt('-d, --data <json|@file|->', 'the fields as a JSON object: JSON text, @file, or - (or @-) for stdin'),
  opt('--set <field=value>', 'set one field, typed by the model (repeatable; wins over --data)', { repeat: true }),
] as const;
const ETAG = [
  opt('--if-match <etag>', 'the ETag the record must still have (default: the @odata.etag of a fresh read)'),
  opt('--force', 'send If-Match: * (overwrite whatever changed since)'),
] as const;
/** --batch-size, --concurrency and --atomic of the commands that work over $batch */
const BATCH = [
  opt('--batch-size <n>', 'operations per $batch request, 1-100 (env VX_ERP_BATCH_SIZE, profile erp.batchSize; default 100)'),
  opt('--concurrency <n>', '$batch requests in flight (env VX_ERP_CONCURRENCY, profile erp.concurrency; default 5)'),
  opt('--atomic', 'send each batch with Isolation: snapshot: all of its operations are done, or none'),
] as const;
const BULK_TARGET = [
  ...BATCH,
  opt('--filter <odata>', 'every record this OData $filter matches (counted and confirmed first)'),
  opt('--ids <file|->', 'the ids listed in a file, one per line (- reads standard input)'),
] as const;
const importOptions = (set: ErpSet) =>
  [
    opt('--file <path|->', 'the rows: a file, or - for standard input'),
    opt('--format <format>', 'the file format (default: from the file name)', { choices: ['csv', 'ndjson', 'json'] }),
    opt('--update', `change existing records found by ${updateKeyText(set)} (If-Match: the row's @odata.etag or a fresh read)`),
    opt('--skip-invalid', 'send the valid rows when some are invalid (the invalid ones are reported and count as failed)'),
    opt('--journal <file>', "where each row's outcome is recorded, so a rerun skips what was done (default: <file>.vx-journal)"),
    opt('--check-unknown', 'look up the rows whose outcome an earlier run could not learn: those found are journaled done, those the service shows it lacks are sent'),
    opt('--resend-unknown', 'send again the rows whose outcome an earlier run could not learn (on create, those it did are created twice: --check-unknown is the safe way)'),
  ] as const;
const EXPORT = [
  opt('--filter <odata>', "OData $filter, e.g. \"status eq 'Open'\""),
  opt('--select <fields>', 'OData $select: the fields (the CSV columns, in this order)'),
  opt('--orderby <fields>', 'OData $orderby'),
  opt('--top <n>', 'at most n records'),
  opt('--page-size <n>', 'records per page (Prefer: odata.maxpagesize=n; default 500)'),
  opt('--out <file>', 'write to this file (complete or not at all) instead of standard output (- is standard output)'),
] as const;
const RELATED_OUT = opt('--out <file>', 'pdfDocument only: save the document content to this file (- writes it to standard output)');
// required to start a refresh, not to check one (`refresh status`): checked when the refresh itself runs
const REFRESH_OPTIONS = [
  opt('--project <id>', 'project id (required)', { requiredToRun: true }),
  opt('--source <envId>', 'source environment id (required)', { requiredToRun: true }),
  opt('--target <envId>', 'target environment id, whose database is overwritten (required)', { requiredToRun: true }),
  opt('--wait', 'follow the operation until it completes or fails: a spinner with its state and the time waited at a terminal; the final status on stdout'),
  opt('--poll-interval <seconds>', 'seconds between status polls when the service sends no Retry-After (default 15)'),
  opt('--wait-timeout <seconds>', 'with --wait: stop following the operation after this long, saying how to check it (it goes on; exit 1; default 86400, a day)'),
] as const;
// commander gives a --project written after `status` to refresh (it has one too): the action
// reads both (optsWithGlobals), and so does the check of a required option
const REFRESH_STATUS_OPTIONS = [
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
export type BulkActionOpts = OptionsOf<typeof BULK_TARGET> & Partial<OptionsOf<typeof ETAG>> & CompanyOpts;
export type ImportOpts = OptionsOf<ReturnType<typeof importOptions>> & BatchOpts & CompanyOpts;
export type ExportOpts = OptionsOf<typeof EXPORT> & CompanyOpts;
export type RefreshOpts = OptionsOf<typeof REFRESH_OPTIONS>;
export type RefreshStatusOpts = OptionsOf<typeof REFRESH_STATUS_OPTIONS>;

function updateKeyText(set: ErpSet): string {
  const keys = ['id'];
  for (const k of [set.humanKey, set.fields.number ? 'number' : undefined, set.naturalKey]) if (k && !keys.includes(k)) keys.push(k);
  return keys.join(' or ');
}

const BULK_HELP = `
With --filter or --ids the records are counted first and the command asks (--yes without a
terminal); each record is then handled in a $batch operation, and one result per record is
printed (-o ndjson: as they come). Exit 0 when every record succeeded, 1 when some did not.
`;

const IMPORT_HELP = `
CSV: the header names the fields; values are typed as with --set (an empty cell leaves the field
out, null clears it). NDJSON: one JSON object per line. JSON: an array of objects. Every row is
checked before anything is sent: problems are listed with their row (line) numbers, exit 2.
Rows go out in $batch requests; one result per row (row, status, id/number or the error); the
summary goes to stderr. Exit 0 when every row succeeded, 1 when some did not.
The journal records each row's outcome as it is learned: rerunning the same command skips rows
already done; rows whose outcome is unknown are listed with a command that checks them and are
not sent again unless --resend-unknown. --check-unknown asks the service about them by their key
(with --update: by id, and whether the row's values are in place): found, they count as done;
not there, they are sent (create); otherwise they stay unknown, with why.
`;

const EXPORT_HELP = `
The format is -o csv, ndjson, json or tsv (default: from the --out name, else ndjson). Pages are
written as they come, so memory stays flat whatever the number of records.
`;

/** The field list shown in the help of every verb of a set. */
export function fieldHelp(set: ErpSet, writableOnly = false): string {
  const rows = Object.entries(set.fields).filter(([, f]) => !writableOnly || !f.readOnly);
  const width = Math.max(...rows.map(([n]) => n.length));
  const lines = rows.map(([n, f]) => {
    const notes = [f.readOnly ? 'read-only' : '', f.required ? 'required on create' : '', f.description ?? ''].filter(Boolean).join('; ');
    return `  ${n.padEnd(width)}  ${typeText(f)}${notes ? ` (${notes})` : ''}`;
  });
  return `\nFields of a ${set.singular}:\n${lines.join('\n')}\n`;
}

/** ", read-only" for a set without writes; a set whose only write is an action names what it has. */
function readOnlyNote(set: ErpSet): string {
  if (set.operations.length > 2) return '';
  const actions = (set.actions ?? []).map((a) => a.command);
  if (!actions.length) return ', read-only';
  const all = [...set.operations, ...actions];
  return `: ${all.slice(0, -1).join(', ')} and ${all[all.length - 1]} only`;
}

/**
 * A delete or bound action given one <id>: --filter/--ids would name other records, and the $batch
 * options (--atomic, --batch-size, --concurrency) have nothing to act on (one record is one
 * request), so each is refused rather than accepted and ignored. Nothing is sent.
 */
async function oneRecord(opts: OptionsOf<typeof BULK_TARGET>): Promise<void> {
  const { UsageError } = await import('../core/errors.js');
  if (opts.filter !== undefined || opts.ids !== undefined) throw new UsageError('name the records with exactly one of <id>, --filter <odata> and --ids <file|->');
  const batch = (['atomic', 'batch-size', 'concurrency'] as const).filter((f) => (f === 'atomic' ? opts.atomic : f === 'batch-size' ? opts.batchSize : opts.concurrency) !== undefined);
  if (batch.length) throw new UsageError(`--${batch[0]} works with --filter or --ids only (one <id> is one request, not a $batch); nothing was sent`);
}

/** The noun of one entity set: the verbs its model allows, its bound actions, its navigation. */
export function setSpec(set: ErpSet): Spec {
  const shown = set.columns.map((c) => c.field);
  const sample = set.sampleField ?? shown.find((c) => set.fields[c]?.type === 'string' && !set.fields[c].readOnly) ?? shown.find((c) => c !== 'id') ?? 'id';
  const p = `vx erp ${set.noun}`;
  const id = arg('<id>', idHelp(set));
  const many = arg('[id]', `${idHelp(set)} (or --filter/--ids for many)`);
  const co = company(set);
  return group({
    name: set.noun,
    aliases: set.aliases,
    summary: `${set.singular} records (${set.name}, API ${set.apiVersion})${readOnlyNote(set)}`,
    examples: (['list', 'get'] as const).filter((o) => set.operations.includes(o)).map((o) => (o === 'get' ? `${p} get <id> -o json` : `${p} list`)),
    commands: () => {
      const help = fieldHelp(set);
      const out: Spec[] = [];
      if (set.operations.includes('list')) {
        out.push(
          command({
            name: 'list',
            summary: `list ${set.singular} records (every page)`,
            options: [...LIST, ...co],
            examples: [`${p} list`, `${p} list --filter "${sample} eq 'X'" --top 10 -o json`, `${p} list --select id,${sample} --page-size 100`, `${p} list --query "[].${sample}" -o tsv`],
            more: help,
            run: async (ctx, opts) => (await run()).runList(ctx, set, opts),
          }),
        );
      }
      if (set.operations.includes('get')) {
        out.push(
          command({
            name: 'get',
            summary: `show one ${set.singular}`,
            args: [id],
            options: [...co, ...GET],
            examples: [`${p} get <id>`, `${p} get <id> --select id,${sample} -o json`],
            more: help,
            run: async (ctx, opts, key) => (await run()).runGet(ctx, set, opts, key),
          }),
        );
      }
      if (set.operations.includes('create')) {
        out.push(
          command({
            name: 'create',
            summary: `create a ${set.singular}`,
            options: [...BODY, ...co],
            examples: [`${p} create --set ${sample}=${set.sampleValue ?? 'X'}`, `${p} create --data @${set.noun}.json`],
            more: fieldHelp(set, true),
            run: async (ctx, opts) => (await run()).runCreate(ctx, set, opts),
          }),
        );
      }
      if (set.operations.includes('update')) {
        out.push(
          command({
            name: 'update',
            summary: `change fields of a ${set.singular} (PATCH; only the given fields are sent)`,
            args: [id],
            options: [...BODY, ...ETAG, ...co],
            examples: [`${p} update <id> --set ${sample}=Y`, `${p} update <id> --data '{"${sample}":"Y"}' --if-match 'W/"..."'`],
            more: fieldHelp(set, true),
            run: async (ctx, opts, key) => (await run()).runUpdate(ctx, set, opts, key),
          }),
        );
      }
      if (set.operations.includes('delete')) {
        out.push(
          command({
            name: 'delete',
            summary: `delete a ${set.singular}, or every one a filter or list names (asks first; --yes without a terminal)`,
            args: [many],
            options: [...ETAG, ...BULK_TARGET, ...co],
            examples: [`${p} delete <id>`, `${p} delete <id> --yes --force`, `${p} delete --filter "<filter>" --yes -o ndjson`],
            more: BULK_HELP,
            run: async (ctx, opts, key) => {
              if (key === undefined) return (await bulkRun()).runBulk(ctx, set, 'delete', opts);
              await oneRecord(opts);
              return (await run()).runDelete(ctx, set, opts, key);
            },
          }),
        );
      }
      for (const a of set.actions ?? []) {
        const pipe = set.name === 'salesOrders' ? `vx erp sales-orders list --filter "status eq 'Draft'" --query "[].id" -o tsv | ${p} ${a.command} --ids - --yes` : `${p} ${a.command} --ids <file> --yes`;
        out.push(
          command({
            name: a.command,
            summary: `${a.description}, or of every one a filter or list names (bound action <namespace>.${a.action}; namespace from erp.actionNamespace)`,
            args: [many],
            options: [...BULK_TARGET, ...co],
            examples: [`${p} ${a.command} <id>`, `${p} ${a.command} --filter "<filter>"`, pipe],
            more: BULK_HELP,
            run: async (ctx, opts, key) => {
              if (key === undefined) return (await bulkRun()).runBulk(ctx, set, a, opts);
              await oneRecord(opts);
              return (await run()).runAction(ctx, set, a, opts, key);
            },
          }),
        );
      }
      if (set.operations.includes('create') || set.operations.includes('update')) {
        out.push(
          command({
            name: 'import',
            summary: `create (or with --update change) one ${set.singular} per row of a CSV, NDJSON or JSON file, over $batch`,
            options: [...BATCH, ...co, ...importOptions(set)],
            examples: [`${p} import --file <file>`, `${p} import --file <rows> --format ndjson -o ndjson > results.ndjson`, `${p} import --file <changes> --format csv --update --atomic`, `${p} import --file <file> --check-unknown`],
            more: IMPORT_HELP + fieldHelp(set, true),
            run: async (ctx, opts) => (await bulkRun()).runImport(ctx, set, opts),
          }),
        );
      }
      if (set.operations.includes('list')) {
        out.push(
          command({
            name: 'export',
            summary: `write every ${set.singular} record (all pages, streamed) as CSV, NDJSON or JSON`,
            options: [...co, ...EXPORT],
            examples: [`${p} export -o csv --out ${set.noun}.csv`, `${p} export --select id,${sample} -o ndjson`, `${p} export --filter "${sample} ne ''" -o json --out ${set.noun}.json`],
            more: EXPORT_HELP,
            run: async (ctx, opts) => (await bulkRun()).runExport(ctx, set, opts),
          }),
        );
      }
      const navs = Object.entries(set.navigation ?? {});
      if (navs.length) {
        const navHelp = `\nNavigation properties:\n${navs.map(([n, d]) => `  ${n}${d.collection ? ' (list)' : ''}${d.description ? ` — ${d.description}` : ''}`).join('\n')}\n`;
        const list = navs.find(([, d]) => d.collection)?.[0];
        const one = navs.find(([, d]) => !d.collection)?.[0];
        const lines = [list && `${p} related <id> ${list}`, one && `${p} related <id> ${one} -o json`, set.navigation?.pdfDocument && `${p} related <id> pdfDocument --out document.pdf`];
        out.push(
          command({
            name: 'related',
            summary: `show what a ${set.singular} links to`,
            args: [id, arg('<navigation>', 'the navigation property', navs.map(([n]) => n))],
            options: [...LIST, ...co, RELATED_OUT],
            examples: lines.filter((l): l is string => Boolean(l)),
            more: navHelp,
            run: async (ctx, opts, key, nav) => (await run()).runRelated(ctx, set, opts, key, nav),
          }),
        );
      }
      return out;
    },
  });
}

export function registerErpSets(erp: Command, sets: readonly ErpSet[] = ERP_SETS): void {
  for (const set of sets) mount(erp, setSpec(set));
}

const REFRESH = command({
  name: 'refresh',
  summary: "refresh the target environment's database from the source environment (overwrites the target; asks first)",
  options: REFRESH_OPTIONS,
  examples: ['vx erp refresh --project 1234 --source <sourceEnvId> --target <targetEnvId>', 'vx erp refresh --project 1234 --source prod --target uat --yes --wait', 'vx erp refresh status <operationId> --project 1234 --environment uat'],
  more: '\nThe service allows 3 refreshes per target in 24 hours; a refused refresh exits 1 with its ErrorMessage.\n' + 'The refresh goes on when vx stops waiting (Ctrl-C): `vx erp refresh status` reads its state.\n',
  run: async (ctx, opts) => (await run()).runRefresh(ctx, opts),
  commands: () => [
    command({
      name: 'status',
      summary: 'show the state of a database refresh operation (the id `refresh` printed), as the service returns it',
      args: [arg('<operationId>', 'the operation activity id a refresh printed')],
      options: REFRESH_STATUS_OPTIONS,
      examples: ['vx erp refresh status <operationId> --project 1234 --environment uat', 'vx erp refresh status <operationId> --project 1234 --environment uat --query OperationStatus -o tsv'],
      run: async (ctx, opts, id) => (await run()).runRefreshStatus(ctx, opts, id),
    }),
  ],
});

export const ERP = group({
  name: 'erp',
  summary: 'business data of a company (salespeople, currencies, job queue entries, sales orders and quotes) and the database refresh',
  examples: ['vx erp companies list', "vx erp sales-orders list --filter \"status eq 'Open'\" --top 20", 'vx erp refresh --project 1234 --source <envId> --target <envId> --wait'],
  commands: () => [...ERP_SETS.map(setSpec), REFRESH],
});
