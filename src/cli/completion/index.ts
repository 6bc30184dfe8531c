// `vx completion`: a shell completion script. Declaration only; the action loads completion.js.
// The tree the scripts are generated from is handed in by the program that mounts the command
// (the tree holds this command: reaching it by import would be a cycle).
import type { Command } from 'commander';
import { arg, command } from '../define.js';
import { COMPLETION_OPTIONS, SHELLS } from './options.js';

export function completionCommand(tree: () => Command) {
  return command({
    name: 'completion',
    summary: 'print a shell completion script generated from the command tree',
    args: [arg('[shell]', 'the shell', SHELLS)],
    options: COMPLETION_OPTIONS,
    examples: ['vx completion bash > /etc/bash_completion.d/vx', 'vx completion zsh > "${fpath[1]}/_vx"', 'vx completion fish > ~/.config/fish/completions/vx.fish', 'vx completion powershell >> $PROFILE'],
    profile: 'unused',
    run: async (ctx, opts, shell) => (await import('./completion.js')).run(ctx, opts, shell, tree()),
  });
}
