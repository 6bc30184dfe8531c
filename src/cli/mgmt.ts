import type { Command } from 'commander';

export function registerMgmt(program: Command): void {
  void program;
}
