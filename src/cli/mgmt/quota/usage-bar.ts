// The Used column of quota tables at a terminal: a bar and the percentage, coloured by how full the
// quota is when colour is on (as htop and ncdu draw usage); piped or in another format the
// percentage alone, so scripts read what they always read.
import { usageLevel } from '../../../api/mgmt/fleet.js';
import type { Ctx } from '../../../core/context.js';
import { isTable, type Column } from '../../../core/output/index.js';

const CELLS = 10;
const FULL = '█';
const EMPTY = '░';

/** `████░░░░░░  42%`: one cell a tenth of the limit (a used quota shows at least one), the percentage after it */
export function usageBar(percent: number, text: string): string {
  const filled = percent <= 0 ? 0 : Math.min(CELLS, Math.max(1, Math.round(percent / (100 / CELLS))));
  return `${FULL.repeat(filled)}${EMPTY.repeat(CELLS - filled)} ${text.padStart(6)}`;
}

/** whether the result is a table shown at a terminal (the one place a bar is drawn) */
export function showsBars(ctx: Ctx): boolean {
  return ctx.stdoutIsTTY && isTable(ctx.format()) && !ctx.globals.query;
}

/**
 * The columns with their Used column (the percentage as text) drawn after a bar at a terminal, the
 * bar green, yellow from USAGE_LEVELS.warning, red from USAGE_LEVELS.critical where colour is on
 * (not with --no-color, NO_COLOR). Elsewhere (a pipe, another format, --query) the columns as they are.
 */
export function usageBars<T>(ctx: Ctx, columns: Column[], percent: (row: T) => number | undefined, text: (row: T) => string): Column[] {
  if (!showsBars(ctx)) return columns;
  const colour = { ok: ctx.chalk.green, warning: ctx.chalk.yellow, critical: ctx.chalk.red };
  const bar: Partial<Column> = {
    get: (row: T) => {
      const p = percent(row);
      return p === undefined ? '' : usageBar(p, text(row));
    },
    keep: true,
    paint: (cell, row) => {
      const p = percent(row as T);
      if (p === undefined) return cell;
      return cell.replace(/█+/, (full) => colour[usageLevel(p)](full)).replace(/░+/, (empty) => ctx.chalk.dim(empty));
    },
  };
  return columns.map((c) => (c.header === 'Used' ? { ...c, ...bar } : c));
}
