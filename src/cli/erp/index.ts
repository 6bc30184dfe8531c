// The `vx erp` tree, generated from the entity-set models in model/erp/sets.ts: one noun per set with
// the verbs its model allows, its bound actions and its navigation properties; plus `refresh`.
// Declarations only; every action loads its verb's module when it runs.
import type { Command } from 'commander';
import { erpSets, typeText, type ErpSet } from '../../model/erp/index.js';
import { arg, command, group, mount, type Spec } from '../define.js';
import { BATCH, BODY, BULK_TARGET, company, ETAG, EXPORT, GET, importOptions, LIST, REFRESH_OPTIONS, REFRESH_STATUS_OPTIONS, RELATED_OUT } from './options.js';

/** The help of a record argument: its id, or its human key where it has one. */
function idHelp(set: ErpSet): string {
  return set.humanKey ? `${set.singular} id, or its ${set.humanKey} (looked up with one read)` : `${set.singular} id`;
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

/** What the verbs of one set share: its command prefix, a sample field, its arguments and --company. */
function setParts(set: ErpSet) {
  const shown = set.columns.map((c) => c.field);
  const sample = set.sampleField ?? shown.find((c) => set.fields[c]?.type === 'string' && !set.fields[c].readOnly) ?? shown.find((c) => c !== 'id') ?? 'id';
  return { p: `vx erp ${set.noun}`, sample, id: arg('<id>', idHelp(set)), many: arg('[id]', `${idHelp(set)} (or --filter/--ids for many)`), co: company(set) };
}

/** list and get, as far as the model allows them. */
function readSpecs(set: ErpSet): Spec[] {
  const { p, sample, id, co } = setParts(set);
  const help = fieldHelp(set);
  const has = (o: (typeof set.operations)[number]) => set.operations.includes(o);
  const out: Spec[] = [];
  if (has('list')) {
    out.push(
      command({
        name: 'list',
        summary: `list ${set.singular} records (every page)`,
        options: [...LIST, ...co],
        examples: [`${p} list`, `${p} list --filter "${sample} eq 'X'" --top 10 -o json`, `${p} list --select id,${sample} --page-size 100`, `${p} list --query "[].${sample}" -o tsv`],
        more: help,
        run: async (ctx, opts) => (await import('./list.js')).run(ctx, set, opts),
      }),
    );
  }
  if (has('get')) {
    out.push(
      command({
        name: 'get',
        summary: `show one ${set.singular}`,
        args: [id],
        options: [...co, ...GET],
        examples: [`${p} get <id>`, `${p} get <id> --select id,${sample} -o json`],
        more: help,
        run: async (ctx, opts, key) => (await import('./get.js')).run(ctx, set, opts, key),
      }),
    );
  }
  return out;
}

/** create, update and delete, as far as the model allows them. */
function writeSpecs(set: ErpSet): Spec[] {
  const { p, sample, id, many, co } = setParts(set);
  const has = (o: (typeof set.operations)[number]) => set.operations.includes(o);
  const out: Spec[] = [];
  if (has('create')) {
    out.push(
      command({
        name: 'create',
        summary: `create a ${set.singular}`,
        options: [...BODY, ...co],
        examples: [`${p} create --set ${sample}=${set.sampleValue ?? 'X'}`, `${p} create --data @${set.noun}.json`],
        more: fieldHelp(set, true),
        run: async (ctx, opts) => (await import('./create.js')).run(ctx, set, opts),
      }),
    );
  }
  if (has('update')) {
    out.push(
      command({
        name: 'update',
        summary: `change fields of a ${set.singular} (PATCH; only the given fields are sent)`,
        args: [id],
        options: [...BODY, ...ETAG, ...co],
        examples: [`${p} update <id> --set ${sample}=Y`, `${p} update <id> --data '{"${sample}":"Y"}' --if-match 'W/"..."'`],
        more: fieldHelp(set, true),
        run: async (ctx, opts, key) => (await import('./update.js')).run(ctx, set, opts, key),
      }),
    );
  }
  if (has('delete')) {
    out.push(
      command({
        name: 'delete',
        summary: `delete a ${set.singular}, or every one a filter or list names (asks first; --yes without a terminal)`,
        args: [many],
        options: [...ETAG, ...BULK_TARGET, ...co],
        examples: [`${p} delete <id>`, `${p} delete <id> --yes --force`, `${p} delete --filter "<filter>" --yes -o ndjson`],
        more: BULK_HELP,
        run: async (ctx, opts, key) => (await import('./delete.js')).run(ctx, set, opts, key),
      }),
    );
  }
  return out;
}

/** One command per bound action of the set. */
function actionSpecs(set: ErpSet): Spec[] {
  const { p, many, co } = setParts(set);
  return (set.actions ?? []).map((a) => {
    const pipe = set.name === 'salesOrders' ? `vx erp sales-orders list --filter "status eq 'Draft'" --query "[].id" -o tsv | ${p} ${a.command} --ids - --yes` : `${p} ${a.command} --ids <file> --yes`;
    return command({
      name: a.command,
      summary: `${a.description}, or of every one a filter or list names (bound action <namespace>.${a.action}; namespace from erp.actionNamespace)${a.irreversible ? '; cannot be undone: asks first, --yes without a terminal' : ''}`,
      args: [many],
      options: [...BULK_TARGET, ...co],
      examples: [`${p} ${a.command} <id>`, `${p} ${a.command} --filter "<filter>"`, pipe],
      more: BULK_HELP,
      run: async (ctx, opts, key) => (await import('./action.js')).run(ctx, set, a, opts, key),
    });
  });
}

/** import and export, where the model allows writes and lists. */
function fileSpecs(set: ErpSet): Spec[] {
  const { p, sample, co } = setParts(set);
  const out: Spec[] = [];
  if (set.operations.includes('create') || set.operations.includes('update')) {
    out.push(
      command({
        name: 'import',
        summary: `create (or with --update change) one ${set.singular} per row of a CSV, NDJSON or JSON file, over $batch`,
        options: [...BATCH, ...co, ...importOptions(set)],
        examples: [`${p} import --file <file>`, `${p} import --file <rows> --format ndjson -o ndjson > results.ndjson`, `${p} import --file <changes> --format csv --update --atomic`, `${p} import --file <file> --check-unknown`],
        more: IMPORT_HELP + fieldHelp(set, true),
        run: async (ctx, opts) => (await import('./import.js')).run(ctx, set, opts),
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
        run: async (ctx, opts) => (await import('./export.js')).run(ctx, set, opts),
      }),
    );
  }
  return out;
}

/** `related`, for a set with navigation properties. */
function relatedSpecs(set: ErpSet): Spec[] {
  const navs = Object.entries(set.navigation ?? {});
  if (!navs.length) return [];
  const { p, id, co } = setParts(set);
  const navHelp = `\nNavigation properties:\n${navs.map(([n, d]) => `  ${n}${d.collection ? ' (list)' : ''}${d.description ? ` — ${d.description}` : ''}`).join('\n')}\n`;
  const list = navs.find(([, d]) => d.collection)?.[0];
  const one = navs.find(([, d]) => !d.collection)?.[0];
  const lines = [list && `${p} related <id> ${list}`, one && `${p} related <id> ${one} -o json`, set.navigation?.pdfDocument && `${p} related <id> pdfDocument --out document.pdf`];
  return [
    command({
      name: 'related',
      summary: `show what a ${set.singular} links to`,
      args: [id, arg('<navigation>', 'the navigation property', navs.map(([n]) => n))],
      options: [...LIST, ...co, RELATED_OUT],
      examples: lines.filter((l): l is string => Boolean(l)),
      more: navHelp,
      run: async (ctx, opts, key, nav) => (await import('./related.js')).run(ctx, set, opts, key, nav),
    }),
  ];
}

/** The noun of one entity set: the verbs its model allows, its bound actions, its navigation. */
export function setSpec(set: ErpSet): Spec {
  const p = `vx erp ${set.noun}`;
  return group({
    name: set.noun,
    aliases: set.aliases,
    summary: `${set.singular} records (${set.name}, API ${set.apiVersion})${readOnlyNote(set)}`,
    examples: (['list', 'get'] as const).filter((o) => set.operations.includes(o)).map((o) => (o === 'get' ? `${p} get <id> -o json` : `${p} list`)),
    commands: () => [...readSpecs(set), ...writeSpecs(set), ...actionSpecs(set), ...fileSpecs(set), ...relatedSpecs(set)],
  });
}

export function registerErpSets(erp: Command, sets: readonly ErpSet[] = erpSets()): void {
  for (const set of sets) mount(erp, setSpec(set));
}

const REFRESH = command({
  name: 'refresh',
  summary: "refresh the target environment's database from the source environment (overwrites the target; asks first)",
  options: REFRESH_OPTIONS,
  examples: ['vx erp refresh --project 1234 --source <sourceEnvId> --target <targetEnvId>', 'vx erp refresh --project 1234 --source prod --target uat --yes --wait', 'vx erp refresh status <operationId> --project 1234 --environment uat'],
  more: '\nThe service allows 3 refreshes per target in 24 hours; a refused refresh exits 1 with its ErrorMessage.\n' + 'The refresh goes on when vx stops waiting (Ctrl-C): `vx erp refresh status` reads its state.\n',
  run: async (ctx, opts) => (await import('./refresh.js')).run(ctx, opts),
  commands: () => [
    command({
      name: 'status',
      summary: 'show the state of a database refresh operation (the id `refresh` printed), as the service returns it',
      args: [arg('<operationId>', 'the operation activity id a refresh printed')],
      options: REFRESH_STATUS_OPTIONS,
      examples: ['vx erp refresh status <operationId> --project 1234 --environment uat', 'vx erp refresh status <operationId> --project 1234 --environment uat --query OperationStatus -o tsv'],
      run: async (ctx, opts, id) => (await import('./refresh-status.js')).run(ctx, opts, id),
    }),
  ],
});

export const ERP = group({
  name: 'erp',
  summary: 'business data of a company (salespeople, currencies, job queue entries, sales orders and quotes) and the database refresh',
  examples: ['vx erp companies list', "vx erp sales-orders list --filter \"status eq 'Open'\" --top 20", 'vx erp refresh --project 1234 --source <envId> --target <envId> --wait'],
  commands: () => [...erpSets().map(setSpec), REFRESH],
});
