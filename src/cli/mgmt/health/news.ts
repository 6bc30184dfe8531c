// How `health watch` writes its news: a readable line each at a terminal (fitted to its width), an
// ndjson record each, one JSON array per poll (-o json), or nothing; and whether the reader of
// the output is still there (`| head -1`: the watch stops, quietly, its state saved).
import { trackingId, type EventChange } from '../../../api/mgmt/watch.js';
import type { Ctx } from '../../../core/context.js';
import { OutputError, terminalText, UsageError } from '../../../core/errors.js';
import { applyQuery, type Format } from '../../../core/output/index.js';
import { terminalWidth } from '../../../core/term.js';
import { changeLines } from './view.js';

type Mode = 'lines' | 'ndjson' | 'json' | 'none';

/** The mode of -o (or the default: lines at a terminal, ndjson elsewhere); -o yaml, csv or tsv refused. */
function modeOf(ctx: Ctx): { mode: Mode; text: boolean } {
  const explicit = ctx.explicitFormat();
  // yaml, csv and tsv have no form for a stream of news: refused from -o; from VX_OUTPUT or the
  // profile (a preference for every command) the default instead
  const unfit = (f: Format | undefined) => f === 'yaml' || f === 'csv' || f === 'tsv';
  if (ctx.globals.output !== undefined && unfit(explicit)) {
    throw new UsageError(
      `health watch prints a line per news (-o table or text), a JSON object per line (-o ndjson), a JSON array per poll (-o json), or nothing (-o none); -o ${explicit} is not one of them; nothing was sent`,
    );
  }
  const f = unfit(explicit) ? undefined : explicit;
  if (f === 'none' || f === 'json' || f === 'ndjson') return { mode: f, text: false };
  // --query shapes a record: each is then written as a JSON line (plain text with -o text)
  const readable = f === 'table' || f === 'wide' || f === 'text' || (!f && ctx.stdoutIsTTY);
  return { mode: readable && !ctx.globals.query ? 'lines' : 'ndjson', text: f === 'text' };
}

/** The record of one news in JSON: {change, trackingId, previous, event}. */
const recordOf = (ch: EventChange) => ({ change: ch.change, trackingId: trackingId(ch.event), previous: ch.previous, event: ch.event });

export class NewsOutput {
  private readonly mode: Mode;
  private readonly text: boolean;
  /** the records of this poll (-o json) */
  private poll: unknown[] = [];
  /** why standard output failed (its reader went away: EPIPE) */
  private failure?: NodeJS.ErrnoException;

  constructor(private readonly ctx: Ctx) {
    ({ mode: this.mode, text: this.text } = modeOf(ctx));
  }

  /** From here on a reader that goes away ends the watch (its state saved), not the process. */
  watchReader(): () => void {
    const out = this.ctx.io.stdout;
    const onError = (e: NodeJS.ErrnoException) => void (this.failure ??= e);
    out.on('error', onError);
    this.ctx.host.keepOnOutputGone = true;
    return () => {
      out.off('error', onError);
      this.ctx.host.keepOnOutputGone = false;
    };
  }

  /** whether the output can no longer be written (the watch stops) */
  get gone(): boolean {
    return this.failure !== undefined;
  }

  /** Writes one news (or keeps it for the poll's array); false when its line did not reach the reader. */
  async news(ch: EventChange): Promise<boolean> {
    if (this.gone) return false;
    if (this.mode === 'none') return true;
    if (this.mode === 'json') {
      this.poll.push(recordOf(ch));
      return true;
    }
    await this.ctx.write(await this.lineOf(ch));
    // a pipe whose reader is gone fails the write at once; its error event follows on the next turn
    await new Promise((r) => setImmediate(r));
    return !this.gone;
  }

  /** -o json: the array of the poll's news, [] when there were none. */
  async pollDone(): Promise<void> {
    if (this.mode !== 'json' || this.gone) return;
    const records = this.poll;
    this.poll = [];
    await this.ctx.write(await this.ctx.renderResult(records, 'json'));
  }

  /** Throws when standard output failed otherwise than by its reader going away (a full disk). */
  check(): void {
    if (this.failure && this.failure.code !== 'EPIPE') throw new OutputError(`cannot write to standard output: ${this.failure.message}; the watch stopped, its state saved`);
  }

  private async lineOf(ch: EventChange): Promise<string> {
    // the service's text is shown escaped (a terminal escape in a title cannot drive the
    // terminal, a line break cannot split one news into two), as in every table and text output
    if (this.mode === 'lines') return `${changeLines(ch, terminalWidth(this.ctx.io.stdout, this.ctx.env)).join('\n')}\n`;
    const query = this.ctx.globals.query;
    const value = query ? await applyQuery(recordOf(ch), query) : recordOf(ch);
    return `${this.text && typeof value === 'string' ? terminalText(value) : JSON.stringify(value)}\n`;
  }
}
