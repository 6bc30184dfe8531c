// The `vx erp` tree, generated from the entity-set models in spec/erp.ts: one noun per set with
// the verbs its model allows, its bound actions and its navigation properties; plus `refresh`.
// Declarations only; every action loads erp-run.js when it runs.
import { Argument, Command, Option } from 'commander';
import { ERP_SETS, typeText, type ErpSet } from '../spec/erp.js';
import { act, collect, examples, selected } from './runner.js';

/** The help of a record argument: its id, or its human key where it has one. */
function idHelp(set: ErpSet): string {
  return set.humanKey ? `${set.singular} id, or its ${set.humanKey} (looked up with one read)` : `${set.singular} id`;
}

const run = () => import('./erp-run.js');
const bulkRun = () => import('./erp-bulk-run.js');

/** --batch-size, --concurrency and --atomic of the commands that work over $batch. */
function batchOptions(cmd: Command): Command {
  return cmd
    .option('--batch-size <n>', 'operations per $batch request, 1-100 (env VX_ERP_BATCH_SIZE, profile erp.batchSize; default 100)')
    .option('--concurrency <n>', '$batch requests in flight (env VX_ERP_CONCURRENCY, profile erp.concurrency; default 5)')
    .option('--atomic', 'send each batch with Isolation: snapshot: all of its operations are done, or none');
}

function bulkTargetOptions(cmd: Command): Command {
  return batchOptions(cmd)
    .option('--filter <odata>', 'every record this OData $filter matches (counted and confirmed first)')
    .option('--ids <file|->', 'the ids listed in a file, one per line (- reads standard input)');
}

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
not sent again unless --resend-unknown.
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

function companyOption(cmd: Command, set: ErpSet): Command {
  return set.scope === 'root' ? cmd : cmd.option('--company <id>', 'company id (env VX_ERP_COMPANY, profile erp.company)');
}

function listOptions(cmd: Command): Command {
  return cmd
    .option('--filter <odata>', "OData $filter, e.g. \"status eq 'Open'\"")
    .option('--select <fields>', 'OData $select: comma-separated fields')
    .option('--expand <navigation>', 'OData $expand, e.g. salesOrderLines')
    .option('--orderby <fields>', 'OData $orderby, e.g. "orderDate desc,number"')
    .option('--top <n>', 'at most n items in total ($top)')
    .option('--skip <n>', 'skip the first n items ($skip)')
    .option('--page-size <n>', 'items per page (Prefer: odata.maxpagesize=n); all pages are still read');
}

function bodyOptions(cmd: Command): Command {
  return cmd
    .option('-d, --data <json|@file|->', 'the fields as a JSON object: JSON text, @file, or - for stdin')
    .option('--set <field=value>', 'set one field, typed by the model (repeatable; wins over --data)', collect);
}

function etagOptions(cmd: Command): Command {
  return cmd
    .option('--if-match <etag>', 'the ETag the record must still have (default: the @odata.etag of a fresh read)')
    .option('--force', 'send If-Match: * (overwrite whatever changed since)');
}

/** ", read-only" for a set without writes; a set whose only write is an action names what it has. */
function readOnlyNote(set: ErpSet): string {
  if (set.operations.length > 2) return '';
  const actions = (set.actions ?? []).map((a) => a.command);
  if (!actions.length) return ', read-only';
  const all = [...set.operations, ...actions];
  return `: ${all.slice(0, -1).join(', ')} and ${all[all.length - 1]} only`;
}

/** Adds the commands of one entity set under `parent`. */
export function registerSet(parent: Command, set: ErpSet): Command {
  const shown = set.columns.map((c) => c.field);
  const sample = set.sampleField ?? shown.find((c) => set.fields[c]?.type === 'string' && !set.fields[c].readOnly) ?? shown.find((c) => c !== 'id') ?? 'id';
  const noun = parent
    .command(set.noun)
    .description(`${set.singular} records (${set.name}, API ${set.apiVersion})${readOnlyNote(set)}`);
  if (set.aliases?.length) noun.aliases([...set.aliases]);
  if (!selected(set.noun, set.aliases)) return noun; // its line in `vx erp --help` is all that is needed
  const help = fieldHelp(set);
  const p = `vx erp ${set.noun}`;
  noun.addHelpText('after', examples(...(['list', 'get'] as const).filter((o) => set.operations.includes(o)).map((o) => (o === 'get' ? `${p} get <id> -o json` : `${p} list`))));
  if (set.operations.includes('list')) {
    const c = companyOption(listOptions(noun.command('list').description(`list ${set.singular} records (every page)`)), set);
    c.addHelpText('after', examples(`${p} list`, `${p} list --filter "${sample} eq 'X'" --top 10 -o json`, `${p} list --select id,${sample} --page-size 100`, `${p} list --query "[].${sample}" -o tsv`) + help);
    c.action(act(async (ctx, opts) => (await run()).runList(ctx, set, opts)));
  }
  if (set.operations.includes('get')) {
    const c = companyOption(noun.command('get').argument('<id>', idHelp(set)).description(`show one ${set.singular}`), set)
      .option('--select <fields>', 'OData $select: comma-separated fields')
      .option('--expand <navigation>', 'OData $expand');
    c.addHelpText('after', examples(`${p} get <id>`, `${p} get <id> --select id,${sample} -o json`) + help);
    c.action(act(async (ctx, opts, id: string) => (await run()).runGet(ctx, set, opts, id)));
  }
  if (set.operations.includes('create')) {
    const c = companyOption(bodyOptions(noun.command('create').description(`create a ${set.singular}`)), set);
    c.addHelpText('after', examples(`${p} create --set ${sample}=${set.sampleValue ?? 'X'}`, `${p} create --data @${set.noun}.json`) + fieldHelp(set, true));
    c.action(act(async (ctx, opts) => (await run()).runCreate(ctx, set, opts)));
  }
  if (set.operations.includes('update')) {
    const c = companyOption(etagOptions(bodyOptions(noun.command('update').argument('<id>', idHelp(set)).description(`change fields of a ${set.singular} (PATCH; only the given fields are sent)`))), set);
    c.addHelpText('after', examples(`${p} update <id> --set ${sample}=Y`, `${p} update <id> --data '{"${sample}":"Y"}' --if-match 'W/"..."'`) + fieldHelp(set, true));
    c.action(act(async (ctx, opts, id: string) => (await run()).runUpdate(ctx, set, opts, id)));
  }
  if (set.operations.includes('delete')) {
    const c = companyOption(bulkTargetOptions(etagOptions(noun.command('delete').argument('[id]', `${idHelp(set)} (or --filter/--ids for many)`).description(`delete a ${set.singular}, or every one a filter or list names (asks first; --yes without a terminal)`))), set);
    c.addHelpText('after', examples(`${p} delete <id>`, `${p} delete <id> --yes --force`, `${p} delete --filter "<filter>" --yes -o ndjson`) + BULK_HELP);
    c.action(act(async (ctx, opts, id?: string) => {
      if (id === undefined) return (await bulkRun()).runBulk(ctx, set, 'delete', opts);
      if (opts.filter !== undefined || opts.ids !== undefined) throw new (await import('../core/errors.js')).UsageError('name the records with exactly one of <id>, --filter <odata> and --ids <file|->');
      return (await run()).runDelete(ctx, set, opts, id);
    }));
  }
  for (const a of set.actions ?? []) {
    const c = companyOption(bulkTargetOptions(noun.command(a.command).argument('[id]', `${idHelp(set)} (or --filter/--ids for many)`).description(`${a.description}, or of every one a filter or list names (bound action <namespace>.${a.action}; namespace from erp.actionNamespace)`)), set);
    const many = set.name === 'salesOrders' ? `vx erp sales-orders list --filter "status eq 'Draft'" --query "[].id" -o tsv | ${p} ${a.command} --ids - --yes` : `${p} ${a.command} --ids <file> --yes`;
    c.addHelpText('after', examples(`${p} ${a.command} <id>`, `${p} ${a.command} --filter "<filter>"`, many) + BULK_HELP);
    c.action(act(async (ctx, opts, id?: string) => {
      if (id === undefined) return (await bulkRun()).runBulk(ctx, set, a, opts);
      if (opts.filter !== undefined || opts.ids !== undefined) throw new (await import('../core/errors.js')).UsageError('name the records with exactly one of <id>, --filter <odata> and --ids <file|->');
      return (await run()).runAction(ctx, set, a, opts, id);
    }));
  }
  if (set.operations.includes('create') || set.operations.includes('update')) {
    const c = companyOption(batchOptions(noun.command('import').description(`create (or with --update change) one ${set.singular} per row of a CSV, NDJSON or JSON file, over $batch`)), set)
      .option('--file <path|->', 'the rows: a file, or - for standard input')
      .addOption(new Option('--format <format>', 'the file format (default: from the file name)').choices(['csv', 'ndjson', 'json']))
      .option('--update', `change existing records found by ${updateKeyText(set)} (If-Match: the row's @odata.etag or a fresh read)`)
      .option('--skip-invalid', 'send the valid rows when some are invalid (the invalid ones are reported and count as failed)')
      .option('--journal <file>', 'where each row\'s outcome is recorded, so a rerun skips what was done (default: <file>.vx-journal)')
      .option('--resend-unknown', 'send again the rows whose outcome an earlier run could not learn');
    c.addHelpText('after', examples(`${p} import --file <file>`, `${p} import --file <rows> --format ndjson -o ndjson > results.ndjson`, `${p} import --file <changes> --format csv --update --atomic`) + IMPORT_HELP + fieldHelp(set, true));
    c.action(act(async (ctx, opts) => (await bulkRun()).runImport(ctx, set, opts)));
  }
  if (set.operations.includes('list')) {
    const c = companyOption(noun.command('export').description(`write every ${set.singular} record (all pages, streamed) as CSV, NDJSON or JSON`), set)
      .option('--filter <odata>', "OData $filter, e.g. \"status eq 'Open'\"")
      .option('--select <fields>', 'OData $select: the fields (the CSV columns, in this order)')
      .option('--orderby <fields>', 'OData $orderby')
      .option('--top <n>', 'at most n records')
      .option('--page-size <n>', 'records per page (Prefer: odata.maxpagesize=n)')
      .option('--out <file>', 'write to this file (complete or not at all) instead of standard output');
    c.addHelpText('after', examples(`${p} export -o csv --out ${set.noun}.csv`, `${p} export --select id,${sample} -o ndjson`, `${p} export --filter "${sample} ne ''" -o json --out ${set.noun}.json`) + EXPORT_HELP);
    c.action(act(async (ctx, opts) => (await bulkRun()).runExport(ctx, set, opts)));
  }
  const navs = Object.entries(set.navigation ?? {});
  if (navs.length) {
    const c = companyOption(
      listOptions(
        noun
          .command('related')
          .argument('<id>', idHelp(set))
          .addArgument(new Argument('<navigation>', 'the navigation property').choices(navs.map(([n]) => n)))
          .description(`show what a ${set.singular} links to`),
      ),
      set,
    ).option('--out <file>', 'pdfDocument only: save the document content to this file');
    const navHelp = `\nNavigation properties:\n${navs.map(([n, d]) => `  ${n}${d.collection ? ' (list)' : ''}${d.description ? ` — ${d.description}` : ''}`).join('\n')}\n`;
    const many = navs.find(([, d]) => d.collection)?.[0];
    const one = navs.find(([, d]) => !d.collection)?.[0];
    const lines = [many && `${p} related <id> ${many}`, one && `${p} related <id> ${one} -o json`, set.navigation?.pdfDocument && `${p} related <id> pdfDocument --out document.pdf`];
    c.addHelpText('after', examples(...lines.filter((l): l is string => Boolean(l))) + navHelp);
    c.action(act(async (ctx, opts, id: string, nav: string) => (await run()).runRelated(ctx, set, opts, id, nav)));
  }
  return noun;
}

export function registerErpSets(erp: Command, sets: readonly ErpSet[] = ERP_SETS): void {
  for (const set of sets) registerSet(erp, set);
}

export function registerErp(program: Command): void {
  const erp = program
    .command('erp')
    .description('business data of a company (salespeople, currencies, job queue entries, sales orders and quotes) and the database refresh');
  erp.addHelpText('after', examples('vx erp companies list', "vx erp sales-orders list --filter \"status eq 'Open'\" --top 20", 'vx erp refresh --project 1234 --source <envId> --target <envId> --wait'));
  registerErpSets(erp);
  erp
    .command('refresh')
    .description("refresh the target environment's database from the source environment (overwrites the target; asks first)")
    .addOption(new Option('--project <id>', 'project id').makeOptionMandatory())
    .addOption(new Option('--source <envId>', 'source environment id').makeOptionMandatory())
    .addOption(new Option('--target <envId>', 'target environment id (its database is overwritten)').makeOptionMandatory())
    .option('--wait', 'poll the operation until it completes or fails (progress on stderr)')
    .option('--poll-interval <seconds>', 'seconds between status polls when the service sends no Retry-After (default 15)')
    .addHelpText(
      'after',
      examples('vx erp refresh --project 1234 --source <sourceEnvId> --target <targetEnvId>', 'vx erp refresh --project 1234 --source prod --target uat --yes --wait') +
        '\nThe service allows 3 refreshes per target in 24 hours; a refused refresh exits 1 with its ErrorMessage.\n',
    )
    .action(act(async (ctx, opts) => (await run()).runRefresh(ctx, opts)));
}
