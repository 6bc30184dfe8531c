// Colour and terminal decisions, in one place. chalk 5 does not honour NO_COLOR by itself.
import { Chalk, type ChalkInstance } from 'chalk';
import type { Env } from './env.js';

export function colorEnabled(stream: NodeJS.WriteStream, flagNoColor: boolean, env: Env): boolean {
  if (flagNoColor) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.TERM === 'dumb') return false;
  return Boolean(stream.isTTY);
}

export function makeChalk(enabled: boolean): ChalkInstance {
  return new Chalk({ level: enabled ? 1 : 0 });
}

export function terminalWidth(stream: NodeJS.WriteStream, env: Env): number | undefined {
  const cols = Number(env.COLUMNS);
  if (Number.isInteger(cols) && cols > 0) return cols;
  return stream.isTTY ? stream.columns : undefined;
}
