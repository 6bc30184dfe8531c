// `vx translate check <file...>`: the translations of locale files checked, one line per problem,
// exit 9 when there is any (api/translator/files/check.ts holds the work).
import { checkFiles, EXIT_CHECK, type CheckProblem } from '../../api/translator/files/check.js';
import type { Ctx } from '../../core/context.js';
import { ExitStatus, UsageError } from '../../core/errors.js';
import { customPatterns } from '../../api/translator/files/protect.js';
import { parseParams } from '../../api/translator/options.js';
import { checkGlossary } from '../../api/translator/glossary/files.js';
import { glossaryPath } from '../../api/translator/run-settings.js';
import { readingOf } from './files-checks.js';
import type { CheckOptions } from './options.js';

/**
 * `de.po:12: unit "Delete %d files?": c-format: ...`, as compilers and msgfmt write theirs; a file
 * that holds every language (a String Catalog) names the language too
 */
const lineOf = (p: CheckProblem) => `${p.file}${p.line !== undefined ? `:${p.line}` : ''}: ${p.shared ? `${p.language}: ` : ''}${p.unit ? `unit ${JSON.stringify(p.unit)}: ` : ''}${p.problem}`;

export async function run(ctx: Ctx, opts: CheckOptions, files: string[]): Promise<void> {
  if (opts.out !== undefined && opts.outDir !== undefined) throw new UsageError('give --out <pattern> or --out-dir <dir>, not both');
  if ((opts.out !== undefined || opts.outDir !== undefined) && !opts.to) throw new UsageError(`${opts.out !== undefined ? '--out' : '--out-dir'} says where the targets of --to are: give --to`);
  let custom: RegExp[];
  try {
    custom = customPatterns(opts.protect ?? []);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const to = opts.to ? parseParams({ to: opts.to, from: opts.from }).to : undefined;
  const glossary = await checkGlossary(glossaryPath(ctx, opts.glossary), files);
  const problems = await checkFiles(files, { to, from: opts.from, format: opts.format, out: opts.out, outDir: opts.outDir, protect: { custom }, glossary, ...readingOf(ctx, opts) });
  await ctx.print(problems, {
    notTTY: 'text',
    text: (v) => (v as CheckProblem[]).map((p) => `${lineOf(p)}\n`).join(''),
    columns: [
      { header: 'file', get: 'file', keep: true },
      { header: 'line', get: 'line', align: 'right' },
      { header: 'language', get: 'language' },
      { header: 'unit', get: 'unit' },
      { header: 'problem', get: 'problem', primary: true },
    ],
    empty: 'every translation passes the checks',
  });
  if (!problems.length) return;
  const missing = problems.filter((p) => !p.unit).length;
  const failing = problems.length - missing;
  const said = [...(failing ? [`${failing} translation${failing === 1 ? ' fails' : 's fail'} the checks`] : []), ...(missing ? [`${missing} target${missing === 1 ? ' is' : 's are'} missing`] : [])];
  throw new ExitStatus(EXIT_CHECK, said.join('; '));
}
