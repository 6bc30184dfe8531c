// Colour and terminal decisions, in one place.
import type { Env } from './env.js';

export function colorEnabled(stream: NodeJS.WriteStream, flagNoColor: boolean, env: Env): boolean {
  if (flagNoColor) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.TERM === 'dumb') return false;
  return Boolean(stream.isTTY);
}

/** The few styles vx writes, as functions of a string (callable unbound: `const red = p.red`). */
export interface Palette {
  /** 1 when it colours, 0 when every style returns its text as given */
  readonly level: 0 | 1;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly cyan: (text: string) => string;
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
}

const plain = (text: string) => text;

/**
 * One style in the basic 16 colours, written as chalk writes it: a closing code inside the text
 * reopens the style, and each line is closed and reopened, so that nested styles and a pager's
 * lines keep their colour. (chalk itself would load its colour detection, node:tty and its tables
 * of styles at every start, for the six styles vx uses.)
 */
function style(open: number, close: number): (text: string) => string {
  const on = `\u001b[${open}m`;
  const off = `\u001b[${close}m`;
  return (text) => {
    if (!text) return text;
    let s = text.includes('\u001b') ? text.replaceAll(off, off + on) : text;
    if (s.includes('\n')) s = s.replace(/\r?\n/g, (eol) => off + eol + on);
    return on + s + off;
  };
}

const COLOURED: Palette = { level: 1, red: style(31, 39), green: style(32, 39), yellow: style(33, 39), cyan: style(36, 39), bold: style(1, 22), dim: style(2, 22) };
const PLAIN: Palette = { level: 0, red: plain, green: plain, yellow: plain, cyan: plain, bold: plain, dim: plain };

/** The palette of a stream whose colour colorEnabled decided. */
export function makePalette(enabled: boolean): Palette {
  return enabled ? COLOURED : PLAIN;
}

export function terminalWidth(stream: NodeJS.WriteStream, env: Env): number | undefined {
  const cols = Number(env.COLUMNS);
  if (Number.isInteger(cols) && cols > 0) return cols;
  return stream.isTTY ? stream.columns : undefined;
}
