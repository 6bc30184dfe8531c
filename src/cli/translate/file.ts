// `vx translate file <source...>`: every unit of the locale files translated into one target per
// language (the work is shared with sync: files-run.ts).
import type { Ctx } from '../../core/context.js';
import type { FilesOptions } from './options.js';
import { runFiles } from './files-run.js';

export async function run(ctx: Ctx, opts: Omit<FilesOptions, 'check'>, sources: string[]): Promise<void> {
  await runFiles(ctx, opts, sources, 'file');
}
