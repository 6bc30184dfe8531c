// The shells and options of `vx completion`, and the type its run function receives.
import { opt, type OptionsOf } from '../define.js';

export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type Shell = (typeof SHELLS)[number];

export const COMPLETION_OPTIONS = [opt('--write <dir>', 'write all four scripts into a directory (used to refresh completions/)')] as const;

export type CompletionOptions = OptionsOf<typeof COMPLETION_OPTIONS>;
