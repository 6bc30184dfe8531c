// Streamed results: values rendered as they arrive, so that the chunks add up to what render() gives
// for the whole list.
import { stringifyExact } from '../json.js';
import type { Column, Format } from './formats.js';
import { csvHeaderLine, csvRows, renderText, renderTsv, rowColumns } from './plain.js';

/** The formats that can be written item by item; the others need the whole value. */
export const STREAMABLE: ReadonlySet<Format> = new Set<Format>(['json', 'ndjson', 'text', 'tsv', 'csv', 'none']);

export interface StreamOptions {
  /** how `text` renders one item */
  text?: (item: unknown) => string;
  /** how `text` renders consecutive items at once (default: each as `text` renders it); the same text */
  texts?: (items: readonly unknown[]) => string;
  /** the rows one item gives in `tsv` and `csv` (default: the item itself) */
  rows?: (item: unknown) => unknown[];
  /** the tsv and csv columns (default: the scalar fields of the first item's rows) */
  columns?: Column[];
}

/**
 * Renders a list item by item so that the concatenation of `items(...)` chunks and `end()` is
 * exactly what `render(list, format)` gives for the whole list (json: the same indented array).
 */
export class StreamRenderer {
  private count = 0;
  private csvCols?: Column[];

  constructor(
    readonly format: Format,
    private readonly opts: StreamOptions = {},
  ) {
    if (!STREAMABLE.has(format)) throw new Error(`${format} cannot be streamed`);
  }

  items(values: readonly unknown[]): string {
    let s = '';
    switch (this.format) {
      case 'json':
        for (const v of values) s += `${this.count++ ? ',\n  ' : '[\n  '}${stringifyExact(v, 2).replace(/\n/g, '\n  ')}`;
        return s;
      case 'ndjson':
        for (const v of values) s += `${stringifyExact(v)}\n`;
        return s;
      case 'text':
        if (this.opts.texts) return this.opts.texts(values);
        for (const v of values) s += this.opts.text ? this.opts.text(v) : renderText(v, this.opts.columns);
        return s;
      case 'tsv':
        for (const v of values) s += renderTsv(this.opts.rows ? this.opts.rows(v) : [v], this.opts.columns);
        return s;
      case 'csv':
        for (const v of values) {
          const rows = this.opts.rows ? this.opts.rows(v) : [v];
          if (!rows.length) continue;
          if (!this.csvCols) {
            // the header comes from the columns, or from the first rows (a later row's extra keys are not shown)
            this.csvCols = rowColumns(rows, this.opts.columns);
            s += csvHeaderLine(this.csvCols);
          }
          s += csvRows(rows, this.csvCols);
          this.count++;
        }
        return s;
      default:
        return '';
    }
  }

  end(): string {
    if (this.format === 'csv' && !this.csvCols && this.opts.columns) return csvHeaderLine(this.opts.columns);
    if (this.format !== 'json') return '';
    return this.count ? '\n]\n' : '[]\n';
  }
}
