// -o table and -o wide: a table sized to the terminal, one record as FIELD/VALUE lines.
import { terminalText } from '../errors.js';
import { arrayColumns, cell, cellText, inferColumns, isPlainObject, isStructured, positional, rowsOf, scalarText } from './cells.js';
import type { Column, RenderOptions } from './formats.js';
import { displayWidth, truncateToWidth, wrapToWidth } from './width.js';

/** a table's header line, bold when colour is on */
function headerLine(text: string, color?: boolean): string {
  return color ? `\u001b[1m${text}\u001b[22m` : text;
}

/** a field with nothing in it: null, "", an empty list, an object of blank fields (an address never filled in) */
export function isBlank(v: unknown, blank: (v: unknown) => boolean = isBlank): boolean {
  if (v === null || v === undefined || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return isPlainObject(v) && Object.values(v).every((x) => blank(x));
}

/** the pairs `-o table` shows of one record (the blank ones left out, and counted), or every pair with -o wide */
function shownPairs<T>(pairs: T[], valueOf: (p: T) => unknown, opts: RenderOptions): { shown: T[]; hidden: number } {
  if (opts.wide) return { shown: pairs, hidden: 0 };
  const blank = opts.blank ?? isBlank;
  const shown = pairs.filter((p) => !blank(valueOf(p)));
  return { shown, hidden: pairs.length - shown.length };
}

/** One record as FIELD/VALUE lines; at a terminal long values wrap under their column (a detail view is read whole). */
function renderPairs(pairs: [string, string, boolean?][], opts: RenderOptions, hidden = 0): string {
  const fw = Math.max(displayWidth('FIELD'), ...pairs.map(([k]) => displayWidth(k)));
  const room = opts.width ? Math.max(20, opts.width - fw - 2) : 0;
  const lines = [headerLine(`${pad('FIELD', fw)}  VALUE`, opts.color)];
  for (const [k, v, structured] of pairs) {
    // text wraps; a structured value (compact JSON) is cut: wrapped at its spaces it reads as neither
    const parts = !room ? [v] : structured ? [truncateToWidth(v, room)] : wrapToWidth(v, room);
    lines.push(`${pad(k, fw)}  ${parts[0]}`.trimEnd());
    for (const more of parts.slice(1)) lines.push(`${' '.repeat(fw + 2)}${more}`);
  }
  if (hidden) lines.push(`(${hidden} empty field${hidden === 1 ? '' : 's'} not shown; -o wide shows every field)`);
  return `${lines.join('\n')}\n`;
}

function pad(s: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(s)));
  return align === 'right' ? fill + s : s + fill;
}

/** The columns of a table, the text of its cells and the width each column gets. */
interface Layout {
  rows: unknown[];
  cols: Column[];
  body: string[][];
  widths: number[];
}

const SEP = 2;

function texts(rows: unknown[], cols: Column[]): string[][] {
  const body = rows.map((r) => cols.map((c) => cellText(cell(r, c))));
  cols.forEach((c, i) => {
    if (c.unit !== undefined) withUnits(body, i, rows.map((r) => cellText(cell(r, { ...c, get: c.unit! }))));
  });
  return body;
}

/** each value of column i followed by its unit, the units padded alike so that the values stay aligned */
function withUnits(body: string[][], i: number, units: string[]): void {
  const w = Math.max(0, ...units.map(displayWidth));
  if (!w) return;
  body.forEach((row, r) => {
    if (row[i] !== '') row[i] = `${row[i]} ${units[r]}${' '.repeat(w - displayWidth(units[r]))}`;
  });
}

/** each column's width when nothing is cut: its longest cell or its header */
function natural(cols: Column[], body: string[][]): number[] {
  return cols.map((c, i) => Math.max(displayWidth(c.header.toUpperCase()), ...body.map((row) => displayWidth(row[i]))));
}

function total(widths: number[]): number {
  return widths.reduce((a, b) => a + b, 0) + SEP * (widths.length - 1);
}

function layoutOf(rows: unknown[], cols: Column[]): Layout {
  const body = texts(rows, cols);
  return { rows, cols, body, widths: natural(cols, body) };
}

/** the rightmost optional column goes */
function dropOptional(l: Layout): void {
  const idx = l.cols.map((c) => Boolean(c.optional)).lastIndexOf(true);
  l.cols = l.cols.filter((_, i) => i !== idx);
  l.body = texts(l.rows, l.cols);
  l.widths = natural(l.cols, l.body);
}

/**
 * Optional columns go while the table would not fit even with every cuttable column cut to 20
 * cells: a wide terminal keeps them and cuts a long title instead.
 */
function dropOptionalColumns(l: Layout, width: number): void {
  const fitted = (ws: number[]) => total(ws.map((w, i) => (l.cols[i].keep ? w : Math.min(w, 20))));
  while (fitted(l.widths) > width && l.cols.some((c) => c.optional)) dropOptional(l);
  // the column read first (an event's title) is not cut short to keep optional columns: they go
  // while it would get less than its natural width (at most 60 cells) beside the others
  const room = () => {
    const p = l.cols.findIndex((c) => c.primary);
    return p < 0 ? Infinity : width - (total(l.widths) - l.widths[p]) - Math.min(l.widths[p], 60);
  };
  while (room() < 0 && l.cols.some((c) => c.optional)) dropOptional(l);
}

/**
 * Shrinks the widest cuttable column one cell at a time, so the cut is shared out evenly instead of
 * leaving one column a stub; identifiers (keep) are never cut.
 */
function shrinkColumns(l: Layout, width: number): void {
  const min = 6;
  for (;;) {
    while (total(l.widths) > width) {
      let widest = -1;
      for (let i = 0; i < l.widths.length; i++) if (!l.cols[i].keep && l.widths[i] > min && (widest < 0 || l.widths[i] > l.widths[widest])) widest = i;
      if (widest < 0) break;
      l.widths[widest]--;
    }
    if (total(l.widths) <= width) break;
    // still too wide at the smallest widths: drop the rightmost droppable column rather than let
    // every line wrap (the first column and identifiers stay)
    let drop = -1;
    for (let i = l.cols.length - 1; i > 0; i--) if (!l.cols[i].keep) { drop = i; break; }
    if (drop < 0) break;
    l.cols = l.cols.filter((_, i) => i !== drop);
    l.body = l.body.map((row) => row.filter((_, i) => i !== drop));
    l.widths = natural(l.cols, l.body);
  }
}

/** The header and the rows at the widths of the layout. */
function drawTable(l: Layout, opts: RenderOptions): string {
  const { cols, widths } = l;
  const sep = ' '.repeat(SEP);
  const header = cols.map((c, i) => pad(truncateToWidth(c.header.toUpperCase(), widths[i]), widths[i], c.align)).join(sep).trimEnd();
  const lines = [headerLine(header, opts.color)];
  // the last column (a translation, a message, a description) wraps under itself rather than being
  // cut when it still has 20 cells or more: what it says is usually why the row is read (narrower,
  // a word a line reads worse than a cut)
  const last = cols.length - 1;
  const wrapLast = Boolean(opts.width) && last > 0 && !cols[last].keep && cols[last].align !== 'right' && widths[last] >= 20;
  const indent = ' '.repeat(widths.slice(0, last).reduce((a, b) => a + b + SEP, 0));
  const paint = (c: Column, text: string, r: number) => (opts.color && c.paint ? c.paint(text, l.rows[r]) : text);
  for (const [r, row] of l.body.entries()) {
    // a word longer than the column cannot wrap: then the cell is cut on one line as before
    const wrapped = wrapLast ? wrapToWidth(row[last], widths[last]) : [row[last]];
    const tail = wrapped.every((t) => displayWidth(t) <= widths[last]) ? wrapped : [truncateToWidth(row[last], widths[last])];
    const cells = cols.map((c, i) => paint(c, i === last && wrapLast ? tail[0] : pad(truncateToWidth(row[i], widths[i]), widths[i], c.align), r));
    lines.push(cells.join(sep).trimEnd());
    for (const more of tail.slice(1)) lines.push(`${indent}${more}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A table sized to the terminal: columns keep their natural width when they fit; otherwise optional
 * columns are dropped, then the widest columns are shrunk and their cells cut with …
 */
export function renderTable(value: unknown, opts: RenderOptions = {}): string {
  if (value === undefined || value === null) return '';
  const rows = rowsOf(value);
  if (rows.length === 0) return opts.empty ? `${opts.empty}\n` : '';
  if (!Array.isArray(value) && !isPlainObject(value)) return `${terminalText(scalarText(value))}\n`;
  const byPosition = positional(rows);
  // a list of scalars is one value a line; rows that are arrays get columns Column1, Column2, ...
  if (byPosition && !rows.some(Array.isArray)) return rows.map((r) => `${cellText(r)}\n`).join('');
  let cols = byPosition ? arrayColumns(rows) : (opts.columns ?? inferColumns(rows)).filter((c) => opts.wide || !c.wide);
  // -o wide: every column at its natural width (lines as long as they need, like kubectl -o wide)
  if (opts.wide) opts = { ...opts, width: undefined };
  if (!opts.columns && !Array.isArray(value) && isPlainObject(value)) {
    // one object: a two-column key/value table reads better than one wide row
    const { shown, hidden } = shownPairs(
      Object.entries(value).filter(([k]) => !k.startsWith('@odata')),
      ([, v]) => v,
      opts,
    );
    return renderPairs(
      shown.map(([k, v]): [string, string, boolean] => [k, cellText(v), isStructured(v)]),
      opts,
      hidden,
    );
  }
  if (cols.length === 0) cols = [{ header: 'VALUE', get: (r) => r }];
  const l = layoutOf(rows, cols);
  if (opts.width && rows.length === 1 && !Array.isArray(value) && total(l.widths) > opts.width) {
    // one record too wide for its row (quota request get: the message says why it failed): read it whole
    const { shown, hidden } = shownPairs(l.cols.map((c, i) => ({ c, i, v: cell(rows[0], c) })), (p) => p.v, opts);
    return renderPairs(shown.map(({ c, i, v }) => [c.header, l.body[0][i], isStructured(v)]), opts, hidden);
  }
  if (opts.width) {
    dropOptionalColumns(l, opts.width);
    shrinkColumns(l, opts.width);
  }
  return drawTable(l, opts);
}
