// `vx erp <set> import`: one record per row of a CSV, NDJSON or JSON file, over $batch, with a
// journal so that a rerun goes on where the last one stopped.
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { batchFor, bulkOptions, type BulkOptions } from '../../api/erp/bulk.js';
import { ErpClient } from '../../api/erp/client.js';
import { importRows, planImport, readImportFile, type ImportRun } from '../../api/erp/import.js';
import { Journal } from '../../api/erp/journal.js';
import type { ReadRows } from '../../api/erp/rows.js';
import type { Ctx } from '../../core/context.js';
import { oneLine, UsageError } from '../../core/errors.js';
import type { ErpSet } from '../../model/erp/index.js';
import type { ImportOpts } from './options.js';
import { finishRun, Results } from './results.js';
import { tellCreated } from '../created.js';

function checkFlags(opts: ImportOpts): void {
  if (opts.resendUnknown && opts.checkUnknown) throw new UsageError('--check-unknown and --resend-unknown do not go together: --check-unknown sends only the rows the service proves it does not have');
  for (const [given, flag] of [[opts.resendUnknown, '--resend-unknown'], [opts.checkUnknown, '--check-unknown']] as const) {
    if (given && opts.journal === undefined && opts.file === '-') throw new UsageError(`${flag} needs the journal of the earlier run (--journal <file>)`);
  }
}

/** The read-only columns left out, and the invalid rows (a usage error unless --skip-invalid). */
function tellProblems(ctx: Ctx, parsed: ReadRows, name: string, skipInvalid?: boolean): void {
  const n = parsed.ignored.length;
  if (n) ctx.info(`${name}: read-only column${n > 1 ? 's' : ''} ${parsed.ignored.map((c) => `"${c}"`).join(', ')} ${n > 1 ? 'are' : 'is'} not sent (the service sets ${n > 1 ? 'them' : 'it'})`);
  if (!parsed.badRows || skipInvalid) return;
  for (const p of parsed.allProblems()) ctx.info(oneLine(`${name} row ${p.row}: ${p.message}`));
  const bad = parsed.badRows;
  throw new UsageError(`${bad} of ${parsed.total} row${parsed.total === 1 ? ' is' : 's are'} invalid (listed above); nothing was sent (--skip-invalid sends the valid rows)`);
}

function openJournal(set: ErpSet, opts: ImportOpts, company: string | undefined): Journal {
  if (opts.file === '-' && opts.journal === undefined) throw new UsageError('reading standard input: name a journal with --journal <file>, so that a rerun knows what was already done');
  const path = opts.journal ?? `${opts.file}.vx-journal`;
  if (!path.trim()) throw new UsageError('--journal needs a file name');
  return Journal.open(path, {
    command: `erp ${set.noun} import${opts.update ? ' --update' : ''}`,
    company: company ?? '',
    input: opts.file === '-' ? '-' : resolve(opts.file!),
  });
}

export async function run(ctx: Ctx, set: ErpSet, opts: ImportOpts): Promise<void> {
  checkFlags(opts);
  const bulk = bulkOptions(ctx.config, opts, ctx.signal);
  const mode = opts.update ? 'update' : 'create';
  const { parsed, name, input } = await readImportFile(set, mode, opts.file, opts.format, () => ctx.io.stdin, ctx.envVar('TMPDIR') || tmpdir());
  try {
    await send(ctx, set, opts, bulk, parsed, name);
  } finally {
    input.close();
  }
}

async function send(ctx: Ctx, set: ErpSet, opts: ImportOpts, bulk: BulkOptions, parsed: ReadRows, name: string): Promise<void> {
  const mode = opts.update ? 'update' : 'create';
  tellProblems(ctx, parsed, name, opts.skipInvalid);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const r: ImportRun = { client, set, batch: batchFor(client, set, ctx.http, bulk.pacer), mode, bulk };
  if (ctx.http.dryRun) {
    if (!planImport(ctx.http, r, parsed.rows)) ctx.info('dry run: no rows to send');
    return;
  }
  const journal = openJournal(set, opts, client.company);
  for (const note of journal.notes) ctx.info(note);
  if (journal.created) tellCreated(ctx, `created ${journal.path}: the journal of this import (each row's outcome; a rerun goes on from it), and ${journal.path}.lock while it runs`);
  const results = new Results(ctx, parsed.total, set);
  // outcomes go to the journal as they come: a reader of the results that goes away (`| head`)
  // does not cut the run short with batches out (their rows would be left unknown) and exit 0
  ctx.host.keepOnOutputGone = true;
  try {
    const policy = opts.resendUnknown ? 'resend' : opts.checkUnknown ? 'check' : 'leave';
    const { interrupted, checks } = await importRows(r, journal, parsed, policy, results, (line) => ctx.info(line));
    await finishRun(ctx, results, mode === 'create' ? 'imported' : 'updated from', interrupted, checks, journal);
  } finally {
    journal.close();
    ctx.host.keepOnOutputGone = false;
  }
}
