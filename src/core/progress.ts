// Progress on stderr, drawn only when stderr is a terminal: a one-line spinner (elsewhere it does
// nothing; callers print plain lines with --verbose instead), and a counting progress bar redrawn
// at most every 100 ms, cleared before results are written to the same terminal and at the end.
// Knows nothing of any API.
import type { Env } from './env.js';
import { terminalText } from './errors.js';
import { truncateToWidth } from './output/width.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Spinner {
  /** changes the text next to the spinner */
  update(text: string): void;
  /** clears the spinner line; prints `final` in its place when given */
  stop(final?: string): void;
}

export function startSpinner(stream: NodeJS.WriteStream, text: string, opts: { intervalMs?: number; env?: Env } = {}): Spinner {
  if (!stream.isTTY) return { update: () => undefined, stop: (final) => void (final !== undefined && stream.write(`${terminalText(final)}\n`)) };
  let i = 0;
  // the text may hold a service's words (a request state): no control character reaches the terminal
  let current = terminalText(text);
  let stopped = false;
  // one terminal line, the last column left free: a line that wraps cannot be redrawn in place
  // with \r, so a long text on a narrow terminal would add a line at every frame
  const draw = () => stream.write(`\r${FRAMES[i++ % FRAMES.length]} ${truncateToWidth(current, width(stream, opts.env) - 3)}\u001b[K`);
  draw();
  const timer = setInterval(draw, opts.intervalMs ?? 100);
  timer.unref();
  return {
    update(t) {
      current = terminalText(t);
      if (!stopped) draw();
    },
    stop(final) {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      stream.write(`\r\u001b[K${final !== undefined ? `${terminalText(final)}\n` : ''}`);
    },
  };
}

/** COLUMNS of `env`, else the terminal's width, else 80 */
function width(stream: NodeJS.WriteStream, env: Env = {}): number {
  const cols = Number(env.COLUMNS);
  return Number.isInteger(cols) && cols > 0 ? cols : stream.columns || 80;
}

export interface ProgressOptions {
  /** the unit counted, e.g. "lines" */
  unit: string;
  /** the total when known (a file read twice), else the bar shows counts only */
  total?: number;
  /** for tests: the clock */
  now?: () => number;
  /** the environment (its COLUMNS wins over the terminal's width) */
  env?: Env;
}

function compact(n: number): string {
  const short = (x: number, digits: number) => x.toFixed(digits).replace(/\.0$/, '');
  if (n >= 1e6) return `${short(n / 1e6, n >= 1e7 ? 0 : 1)}M`;
  if (n >= 1e4) return `${short(n / 1e3, n >= 1e5 ? 0 : 1)}k`;
  return String(n);
}

/** how long a run of unknown length goes before its bar is drawn */
const FIRST_DRAW_MS = 300;

export class Progress {
  private done = 0;
  private extra = '';
  private lastDraw = 0;
  private shown = false;
  private readonly started: number;
  private readonly now: () => number;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly opts: ProgressOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.started = this.now();
  }

  /**
   * Sets the count (and an extra note such as the retries so far); redraws when due. A count that
   * completes a known total is not drawn, nor is one in the run's first FIRST_DRAW_MS when the total
   * is unknown: the bar would be cleared at once, a flash (one phrase, one short batch).
   */
  update(done: number, extra = ''): void {
    this.done = done;
    this.extra = extra;
    const t = this.now();
    const { total } = this.opts;
    if (total !== undefined ? done >= total : t - this.started < FIRST_DRAW_MS) return;
    if (t - this.lastDraw >= 100) this.draw(t);
  }

  /** The bar's text for a width (pure; tested). */
  line(width: number, t = this.now()): string {
    const secs = Math.max(0.001, (t - this.started) / 1000);
    const rate = `${compact(Math.round(this.done / secs))} ${this.opts.unit}/s`;
    const { total } = this.opts;
    let counts = total !== undefined ? `${compact(this.done)}/${compact(total)} ${this.opts.unit}` : `${compact(this.done)} ${this.opts.unit}`;
    if (this.extra) counts += `, ${this.extra}`;
    if (total === undefined || total <= 0) return `${counts}  ${rate}`.slice(0, width - 1);
    const pct = Math.min(100, Math.floor((this.done / total) * 100));
    const tail = ` ${String(pct).padStart(3)}%  ${counts}  ${rate}`;
    const barWidth = Math.max(0, Math.min(40, width - 1 - tail.length - 2));
    if (barWidth < 5) return tail.trim().slice(0, width - 1);
    const filled = Math.round((barWidth * pct) / 100);
    return `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]${tail}`;
  }

  private draw(t: number): void {
    this.lastDraw = t;
    this.shown = true;
    this.stream.write(`\r\u001b[K${this.line(width(this.stream, this.opts.env), t)}`);
  }

  /** Removes the bar (before other output on the same terminal); the next update draws it again. */
  clear(): void {
    if (!this.shown) return;
    this.stream.write('\r\u001b[K');
    this.shown = false;
    this.lastDraw = 0;
  }

  /** Leaves the terminal clean. */
  stop(): void {
    this.clear();
  }
}

/**
 * A block of lines redrawn in place on a terminal (a live status table): each draw moves the
 * cursor back over the previous block and overwrites it, at most every 100 ms unless forced.
 * Elsewhere it draws nothing.
 */
export class LiveBlock {
  private lines = 0;
  private last = 0;
  private pending: string | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly now: () => number = Date.now,
  ) {}

  get active(): boolean {
    return Boolean(this.stream.isTTY);
  }

  /** Draws `text` (lines ending in \n) in place of the previous block. */
  draw(text: string, force = false): void {
    if (!this.active) return;
    this.pending = text;
    const t = this.now();
    if (force || t - this.last >= 100) return this.flush();
    this.timer ??= setTimeout(() => this.flush(), 100 - (t - this.last));
    this.timer.unref?.();
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === undefined) return;
    const text = this.pending;
    this.pending = undefined;
    this.last = this.now();
    const up = this.lines ? `\u001b[${this.lines}F` : '\r';
    this.stream.write(`${up}\u001b[J${text}`);
    this.lines = (text.match(/\n/g) ?? []).length;
  }

  /** Removes the block (results follow on the same terminal). */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
    if (!this.active || !this.lines) return;
    this.stream.write(`\u001b[${this.lines}F\u001b[J`);
    this.lines = 0;
  }
}

/**
 * One line of status on a terminal (a retry, a long wait), replaced by the next and removed when
 * what it tells about is over; cut to the width so it never wraps (a wrapped line cannot be
 * cleared in place). Elsewhere it draws nothing.
 */
export class StatusLine {
  private shown = false;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    /** the environment (its COLUMNS wins over the terminal's width) */
    private readonly env: Env = {},
  ) {}

  get active(): boolean {
    return Boolean(this.stream.isTTY);
  }

  show(text: string): void {
    if (!this.active) return;
    const max = width(this.stream, this.env) - 1;
    this.stream.write(`\r\u001b[K${text.length > max ? `${text.slice(0, max - 1)}…` : text}`);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    this.stream.write('\r\u001b[K');
    this.shown = false;
  }
}

/** Time waited so far, in whole seconds ("0 s", "12 s", "2 min 5 s"). */
export function elapsed(ms: number): string {
  return ms < 1000 ? '0 s' : seconds(ms);
}

/** A delay or a duration as a person reads it in a progress line: "0.3 s", "2 s", "1 min 5 s". */
export function seconds(ms: number): string {
  if (ms < 1000) return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
}
