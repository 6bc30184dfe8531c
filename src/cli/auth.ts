import type { Command } from 'commander';

export function registerAuth(program: Command): void {
  void program;
}
