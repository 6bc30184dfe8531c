// vx translate file|sync's progress: one bar per language (stderr at a terminal), redrawn in place.
import { fmt } from '../../api/translator/batcher.js';

export class LanguageBars {
  private readonly langs: string[];
  private readonly done = new Map<string, number>();
  private readonly pad: number;
  private drawn = 0;
  private last = 0;
  private readonly started = Date.now();

  constructor(
    private readonly stream: NodeJS.WriteStream,
    langs: string[],
    private readonly totals: Map<string, number>,
  ) {
    this.langs = langs.filter((l) => totals.get(l));
    this.pad = Math.max(...this.langs.map((l) => l.length));
  }

  update(done: ReadonlyMap<string, number>): void {
    for (const [l, n] of done) this.done.set(l, n);
    const t = Date.now();
    const finished = this.langs.every((l) => (this.done.get(l) ?? 0) >= this.totals.get(l)!);
    if (t - this.last < 100 && !finished) return;
    this.last = t;
    this.draw(t);
  }

  /** The bar of one language for a width (pure). */
  line(lang: string, width: number, t = Date.now()): string {
    const total = this.totals.get(lang)!;
    const done = Math.min(total, this.done.get(lang) ?? 0);
    const pct = Math.floor((done / total) * 100);
    const rate = Math.round(done / Math.max(0.001, (t - this.started) / 1000));
    const tail = ` ${String(pct).padStart(3)}%  ${fmt(done)}/${fmt(total)} units  ${fmt(rate)} units/s`;
    const barWidth = Math.max(0, Math.min(40, width - this.pad - 2 - tail.length - 3));
    const filled = Math.round((barWidth * pct) / 100);
    const bar = barWidth >= 5 ? `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]` : '';
    return `${lang.padEnd(this.pad)}  ${bar}${tail}`.slice(0, width - 1);
  }

  private draw(t: number): void {
    const cols = this.stream.columns || 80;
    let s = this.drawn > 1 ? `\u001b[${this.drawn - 1}A` : '';
    this.langs.forEach((l, i) => {
      s += `\r\u001b[K${this.line(l, cols, t)}${i < this.langs.length - 1 ? '\n' : ''}`;
    });
    this.drawn = this.langs.length;
    this.stream.write(s);
  }

  stop(): void {
    if (!this.drawn) return;
    let s = '';
    for (let i = 0; i < this.drawn; i++) s += `\r\u001b[K${i < this.drawn - 1 ? '\u001b[1A' : ''}`;
    this.stream.write(s);
    this.drawn = 0;
  }
}
