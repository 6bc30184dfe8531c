import type { Command } from 'commander';

export function registerErp(program: Command): void {
  void program;
}
