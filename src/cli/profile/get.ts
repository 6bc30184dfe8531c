// `vx profile get <key>`: the effective value of one setting, for scripts (`--show-source`: and where it comes from).
import type { Ctx } from '../../core/context.js';
import { ExitStatus } from '../../core/errors.js';
import { isTable } from '../../core/output/index.js';
import type { ProfileGetOpts } from './options.js';
import { settable } from './set.js';
import { settingRow } from './show.js';

export async function run(ctx: Ctx, opts: ProfileGetOpts, key: string): Promise<void> {
  const def = settable(ctx, key);
  const row = settingRow(ctx, key);
  // no value from anywhere: nothing on stdout and exit 1, as `git config --get` and `aws configure get`
  if (row.value === null) {
    throw new ExitStatus(1, `${key} has no value in profile "${ctx.config.profileName()}"${def.env ? ` nor from ${def.env}` : ''}; set it with \`vx profile set ${key} <value>\``);
  }
  const fmt = ctx.explicitFormat();
  // the value alone on a line (a tab and its source with --show-source), whatever stdout is;
  // -o json|yaml|ndjson and --query take the value as JSON ({key, value, source} with --show-source)
  if (!ctx.globals.query && (!fmt || fmt === 'text' || fmt === 'tsv' || isTable(fmt))) {
    await ctx.write(`${opts.showSource ? `${row.value}\t${row.source}` : row.value}\n`);
    return;
  }
  await ctx.print(opts.showSource ? row : row.value);
}
