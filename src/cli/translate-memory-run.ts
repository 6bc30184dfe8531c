// `vx translate memory stats|export|import|prune`: the translation memory (see
// api/translator/memory.ts) looked at, exchanged as TMX 1.4 (streamed both ways) and trimmed.
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, sep } from 'node:path';
import { fmt } from '../api/translator/batcher.js';
import { TranslationMemory, type MemoryEntry } from '../api/translator/memory.js';
import { language } from '../api/translator/options.js';
import { readTmx, TmxError, tmxHeader, tmxUnit, TMX_FOOTER, type TmxSkipped } from '../api/translator/tmx.js';
import type { Ctx } from '../core/context.js';
import { InterruptedError, UsageError } from '../core/errors.js';
import { VERSION } from '../core/http.js';
import { characterCount } from '../model/families.js';
import { serviceLanguage } from '../model/translator.js';
import { readError, sameFile } from '../core/input.js';
import { atomicFileSink, outFile, streamSink } from '../core/output/index.js';
import { confirmDestructive } from '../core/prompt.js';

export interface MemoryFlags {
  memory?: string;
}

/**
 * --memory, else the profile's translate.memory (VX_TRANSLATE_MEMORY); undefined when neither is
 * set, or when VX_TRANSLATE_MEMORY is set empty or blank (a run without the profile's memory)
 */
export function memoryPath(ctx: Ctx, flag: string | undefined): string | undefined {
  if (flag !== undefined && !flag.trim()) throw new UsageError('--memory needs a file name');
  if (flag !== undefined) return home(flag);
  if (process.env.VX_TRANSLATE_MEMORY?.trim() === '') return undefined;
  const setting = ctx.config.get('translate.memory');
  return setting ? home(setting) : undefined;
}

/** `~` and `~/…` name the home directory: no shell expands a profile setting, nor `--memory=~/…` */
function home(path: string): string {
  return path === '~' || path.startsWith('~/') || (sep === '\\' && path.startsWith('~\\')) ? join(homedir(), path.slice(1)) : path;
}

/** a whole number of characters from `min` (commas and underscores allowed: 2,000,000) */
function characters(flag: string, v: string | undefined, min = 1): number | undefined {
  if (v === undefined) return undefined;
  const n = characterCount(v);
  if (n === 'too large') throw new UsageError(`invalid value "${v}" for ${flag}: at most ${Number.MAX_SAFE_INTEGER.toLocaleString('en-US')} characters`);
  if (n === undefined || n < min) throw new UsageError(`invalid value "${v}" for ${flag}: expected a whole number of characters from ${min}, e.g. 2000000`);
  return n;
}

/** The run's pay-once settings: the memory file (flag, else profile), the known rate, the budget (also vx translate file|sync's). */
export function runSettings(ctx: Ctx, opts: { memory?: string; maxCharsPerMinute?: string; budget?: string; out?: string }) {
  const memory = memoryPath(ctx, opts.memory);
  if (memory !== undefined) notOverMemory(opts.out, memory);
  const fromProfile = opts.maxCharsPerMinute === undefined ? ctx.config.resolve('translate.maxRate') : undefined;
  // a bad value names where it came from: the variable, or the profile
  const where = !fromProfile ? '--max-chars-per-minute' : ctx.config.originOf('translate.maxRate');
  const perMinute = characters(where, opts.maxCharsPerMinute ?? fromProfile?.value);
  // (--budget 0: nothing billed, only what the memory holds)
  const budget = characters('--budget', opts.budget, 0);
  return { memory, perMinute, budget };
}

/**
 * Refuses an --out that names the memory (also through a link): the output, renamed over it when
 * complete, would take the memory's place (`--out notes.tm` for notes.tmx or notes.de.txt).
 */
function notOverMemory(out: string | undefined, memory: string): void {
  if (out === undefined || !sameFile(out, memory)) return;
  throw new UsageError(`--out ${out} is the translation memory itself: name another file (nothing was written)`);
}

function requirePath(ctx: Ctx, flag: string | undefined): string {
  const path = memoryPath(ctx, flag);
  if (!path) throw new UsageError('no translation memory: give --memory <path> or set one with `vx profile set translate.memory <path>`');
  return path;
}

const iso = (s: number | undefined) => (s === undefined ? undefined : new Date(s * 1000).toISOString());

/**
 * Closes a run's memory (what was answered stays in it). When the run itself failed, its error is
 * the one to tell (it says what was translated): a memory that failed mid-run (a full disk) fails
 * again as it closes, and that second error is dropped.
 */
export async function closeRunMemory(memory: TranslationMemory | undefined, runFailed: boolean): Promise<void> {
  try {
    await memory?.close();
  } catch (e) {
    if (!runFailed) throw e;
  }
}

export async function stats(ctx: Ctx, opts: MemoryFlags): Promise<void> {
  const mem = await TranslationMemory.open(requirePath(ctx, opts.memory), { readOnly: true });
  try {
    const s = mem.stats();
    await ctx.print({ path: s.path, entries: s.entries, bytes: s.bytes, oldest: iso(s.oldest), newest: iso(s.newest), pairs: s.pairs });
  } finally {
    await mem.close();
  }
}

export async function exportTmx(ctx: Ctx, given: MemoryFlags & { out?: string }): Promise<void> {
  ctx.noQuery('memory export (it writes TMX)');
  const opts = { ...given, out: outFile(given.out) };
  const path = requirePath(ctx, opts.memory);
  notOverMemory(opts.out, path);
  const mem = await TranslationMemory.open(path, { readOnly: true });
  const sink = opts.out !== undefined ? await atomicFileSink(opts.out) : streamSink(ctx.io.stdout);
  let n = 0;
  try {
    await sink.write(tmxHeader(VERSION));
    // written in pieces of about 64 KiB, each with back-pressure
    let buf = '';
    for (const e of mem.entries()) {
      if (ctx.signal.aborted) throw new InterruptedError();
      buf += tmxUnit(e);
      n++;
      if (buf.length >= 65_536) {
        await sink.write(buf);
        buf = '';
        // stdout redirected to a file is written synchronously: without a turn of the event loop
        // Ctrl-C would not be seen before the end (and lmdb would not renew its read transaction)
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    await sink.write(buf + TMX_FOOTER);
    await sink.commit();
  } catch (e) {
    await sink.abort();
    throw e;
  } finally {
    await mem.close();
  }
  ctx.verbose(`exported ${fmt(n)} entr${n === 1 ? 'y' : 'ies'}`);
}

export async function importTmx(ctx: Ctx, opts: MemoryFlags & { from?: string }, file: string): Promise<void> {
  const path = requirePath(ctx, opts.memory);
  let st;
  try {
    st = statSync(file);
  } catch (e) {
    throw readError(file, e);
  }
  if (st.isDirectory()) throw readError(file, { code: 'EISDIR' });
  if (!st.isFile()) throw new UsageError(`cannot read ${file}: not a regular file (an import reads the file twice, checking it whole first, and a pipe cannot be read twice)`);
  // the whole file is checked first: a problem anywhere imports nothing
  // the source language of units the file names none for (srclang="*all*"): a code, as vx translate --from takes it
  const from = language('--from', opts.from);
  let total = 0;
  const skipped: TmxSkipped = { emptyTargets: 0 };
  try {
    total = await readTmx(
      file,
      () => {
        if (ctx.signal.aborted) throw new InterruptedError('interrupted; nothing was imported');
      },
      { skipped, from },
    );
  } catch (e) {
    if (e instanceof TmxError) throw new UsageError(`${file}: ${e.message}; nothing was imported`);
    throw (e as NodeJS.ErrnoException).code ? readError(file, e) : e;
  }
  if (skipped.emptyTargets) {
    const n = skipped.emptyTargets;
    ctx.warn(`${file}: ${fmt(n)} target segment${n === 1 ? ' is' : 's are'} empty (not translated yet): skipped, so that ${n === 1 ? 'its text is' : 'their texts are'} translated, not answered with nothing`);
  }
  if (ctx.globals.dryRun) {
    ctx.info(`dry run: ${file} holds ${fmt(total)} entr${total === 1 ? 'y' : 'ies'}; nothing was imported`);
    return;
  }
  const mem = await TranslationMemory.open(path);
  let n = 0;
  try {
    await readTmx(file, async (e: MemoryEntry) => {
      // what was added before Ctrl-C is committed (by close): an import stops between entries
      if (ctx.signal.aborted) throw new InterruptedError(`interrupted; ${fmt(n)} of the ${fmt(total)} entries were imported (importing the file again is safe)`);
      mem.add(e);
      n++;
      if (mem.queued >= 10_000) await mem.flush();
    }, { from });
    await mem.flush();
  } finally {
    await mem.close();
  }
  await ctx.print({ imported: n, memory: path }, { notTTY: 'json' });
}

/** `30d`, `12h`, `90m`, `2w` -> seconds */
export function parseAge(v: string): number {
  const m = /^\s*(\d+)\s*([mhdw])\s*$/i.exec(v);
  if (!m) throw new UsageError(`invalid value "${v}" for --older-than: expected a whole number with m, h, d or w, e.g. 30d`);
  const unit = { m: 60, h: 3600, d: 86_400, w: 604_800 }[m[2].toLowerCase() as 'm' | 'h' | 'd' | 'w'];
  return Number(m[1]) * unit;
}

/**
 * The codes entries of one language given to an option `translate` itself also declares (repeatable
 * there: it may arrive as a list) are stored under: the code as vx translate sends it, and the
 * service's language for a file's locale, as translate file and a TMX import key it (de-DE -> de,
 * zh-CN -> zh-Hans). Lower case.
 */
function single(flag: string, v: string | string[] | undefined): string[] | undefined {
  const all = v === undefined ? [] : ([] as string[]).concat(v).flatMap((x) => x.split(',')).map((x) => x.trim());
  if (all.length > 1) throw new UsageError(`${flag} takes one language here: ${all.join(', ')}`);
  if (all[0]?.toLowerCase() === 'auto' && flag === '--from') return ['auto'];
  // a code that is not one would match nothing: refused, as vx translate refuses it
  const code = language(flag, all[0]);
  return code === undefined ? undefined : [...new Set([code.toLowerCase(), serviceLanguage(code).toLowerCase()])];
}

export async function prune(ctx: Ctx, opts: MemoryFlags & { olderThan?: string; to?: string | string[]; from?: string; all?: boolean }): Promise<void> {
  const path = requirePath(ctx, opts.memory);
  if (opts.olderThan === undefined && opts.to === undefined && opts.from === undefined && !opts.all) {
    throw new UsageError('say what to remove: --older-than <age>, --to <lang>, --from <lang> (together: entries matching all), or --all');
  }
  const cutoff = opts.olderThan !== undefined ? Math.floor(Date.now() / 1000) - parseAge(opts.olderThan) : undefined;
  const to = single('--to', opts.to);
  const from = single('--from', opts.from);
  const drop = (e: MemoryEntry) =>
    (cutoff === undefined || e.stored < cutoff) && (to === undefined || to.includes(e.options.to)) && (from === undefined || from.includes(e.options.from || 'auto'));
  const mem = await TranslationMemory.open(path, { readOnly: ctx.globals.dryRun, create: false });
  try {
    let matching = 0;
    for (const e of mem.entries()) if (drop(e)) matching++;
    if (ctx.globals.dryRun) {
      ctx.dryRunNote(`would remove ${fmt(matching)} entr${matching === 1 ? 'y' : 'ies'} from ${mem.path}`);
      return;
    }
    if (matching) await confirmDestructive(ctx.prompter, ctx.globals.yes, `remove ${fmt(matching)} entr${matching === 1 ? 'y' : 'ies'} from the translation memory ${mem.path}?`, 'nothing was changed');
    let removed = 0;
    if (matching) {
      await mem.prune((e) => {
        // what was removed before Ctrl-C stays removed (committed by close)
        if (ctx.signal.aborted) throw new InterruptedError(`interrupted; ${fmt(removed)} of the ${fmt(matching)} entries were removed`);
        if (!drop(e)) return false;
        removed++;
        return true;
      });
    }
    await ctx.print({ removed, remaining: mem.stats().entries, memory: mem.path }, { notTTY: 'json' });
  } finally {
    await mem.close();
  }
}
