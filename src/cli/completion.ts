import { Argument, type Command } from 'commander';
import { act, examples } from './runner.js';

export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script generated from the command tree')
    .addArgument(new Argument('[shell]', 'the shell').choices(SHELLS))
    .option('--write <dir>', 'write all four scripts into a directory (used to refresh completions/)')
    .addHelpText(
      'after',
      examples('vx completion bash > /etc/bash_completion.d/vx', 'vx completion zsh > "${fpath[1]}/_vx"', 'vx completion fish > ~/.config/fish/completions/vx.fish', 'vx completion powershell >> $PROFILE'),
    )
    .action(act(async (ctx, opts: { write?: string }, shell?: string) => (await import('./completion-run.js')).run(ctx, opts, shell), { profile: 'unused' }));
}
