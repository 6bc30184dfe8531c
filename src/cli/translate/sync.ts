// `vx translate sync <source...>`: only the new and changed units of the locale files sent, edits
// by hand kept; with --check, what is missing or stale listed (the work is shared with file: files-run.ts).
import type { Ctx } from '../../core/context.js';
import type { FilesOptions } from './options.js';
import { runFiles } from './files-run.js';

export async function run(ctx: Ctx, opts: FilesOptions, sources: string[]): Promise<void> {
  await runFiles(ctx, opts, sources, 'sync');
}
