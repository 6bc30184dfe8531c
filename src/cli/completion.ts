import { arg, command, opt } from './define.js';

export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;

export const COMPLETION = command({
  name: 'completion',
  summary: 'print a shell completion script generated from the command tree',
  args: [arg('[shell]', 'the shell', SHELLS)],
  options: [opt('--write <dir>', 'write all four scripts into a directory (used to refresh completions/)')],
  examples: ['vx completion bash > /etc/bash_completion.d/vx', 'vx completion zsh > "${fpath[1]}/_vx"', 'vx completion fish > ~/.config/fish/completions/vx.fish', 'vx completion powershell >> $PROFILE'],
  profile: 'unused',
  run: async (ctx, opts, shell) => (await import('./completion-run.js')).run(ctx, opts, shell),
});
