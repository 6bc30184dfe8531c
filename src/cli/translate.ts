import type { Command } from 'commander';

export function registerTranslate(program: Command): void {
  void program;
}
