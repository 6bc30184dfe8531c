// `vx completion [shell]`: the completion script of a shell, generated from the command tree
// (`--write <dir>`: all four, as completions/ holds them).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { Ctx } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { bash } from './bash.js';
import { fish } from './fish.js';
import { commandNodes, type Node } from './nodes.js';
import type { CompletionOptions, Shell } from './options.js';
import { powershell } from './powershell.js';
import { zsh } from './zsh.js';

/** per shell: the file `--write` puts its script in, and the script */
const SHELL_SCRIPTS: Record<Shell, { file: string; script: (nodes: Node[]) => string }> = {
  bash: { file: 'vx.bash', script: bash },
  zsh: { file: '_vx', script: zsh },
  fish: { file: 'vx.fish', script: fish },
  powershell: { file: 'vx.ps1', script: powershell },
};

export async function run(ctx: Ctx, opts: CompletionOptions, shell: Shell | undefined, tree: Command): Promise<void> {
  ctx.noQuery('completion (it writes a shell script)');
  const nodes = commandNodes(tree);
  if (opts.write !== undefined) {
    if (shell) throw new UsageError('--write writes the scripts of all four shells: give a shell or --write <dir>, not both');
    const dir = opts.write;
    const cannot = (e: unknown): never => {
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === 'EEXIST' || code === 'ENOTDIR' ? 'it is not a directory' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EROFS' ? 'read-only file system' : (e as Error).message;
      throw new UsageError(`cannot write completions to ${dir}: ${why}`);
    };
    await mkdir(dir, { recursive: true }).catch(cannot);
    for (const { file, script } of Object.values(SHELL_SCRIPTS)) await writeFile(join(dir, file), script(nodes)).catch(cannot);
    ctx.info(`wrote ${Object.values(SHELL_SCRIPTS).map((s) => s.file).join(', ')} to ${dir}`);
    return;
  }
  if (!shell) throw new UsageError('name a shell: bash, zsh, fish or powershell');
  const chosen = SHELL_SCRIPTS[shell];
  if (!chosen) throw new UsageError(`unknown shell "${shell}"; use bash, zsh, fish or powershell`);
  await ctx.write(chosen.script(nodes));
}
