// The targets and lock files of a vx translate file|sync run, all checked and rendered before the
// first is written: each unit's translation taken back from HTML with its placeholders checked (a
// unit whose placeholders did not survive is not written as translated, and is listed), units
// kept or edited by hand left as they are, and the lock file recording what each target now holds.
import { basename, dirname, relative, sep } from 'node:path';
import { serviceLanguage } from '../../../model/translator.js';
import type { EngineResult } from './engine.js';
import { dict, renderLock, type LockEntry, type LockFile, type LockLanguage } from './lock.js';
import { lockEntry, type LangPlan, type SourcePlan } from './plan.js';
import { fromHtml, placeholderProblem, toHtml, translatable, type Piece, type ProtectOptions } from './protect.js';
import { hash, type RenderOptions, type SourceUnit, type UnitValue } from './types.js';

/** What became of one target. */
export interface Summary {
  source: string;
  language: string;
  target: string;
  translated: number;
  unchanged: number;
  kept: number;
  untranslated: number;
  removed: number;
}

/** A file to write (all are written at once, see commit.ts). */
export interface FileWrite {
  path: string;
  text: string;
}

export interface Merged {
  writes: FileWrite[];
  summaries: Summary[];
  /** units not translated: one line each, for stderr */
  problems: string[];
}

interface MergeContext {
  result: Pick<EngineResult, 'translations' | 'tooLong'>;
  protect: ProtectOptions;
  render: RenderOptions;
  /** a note for stderr (kept manual edits) */
  info(message: string): void;
  problems: string[];
}

/** Renders every target and lock file with the run's translations (`render`: --state, --fuzzy). */
export function mergeTargets(plans: readonly SourcePlan[], result: MergeContext['result'], protect: ProtectOptions, render: RenderOptions, info: (message: string) => void): Merged {
  const merged: Merged = { writes: [], summaries: [], problems: [] };
  const mc: MergeContext = { result, protect, render, info, problems: merged.problems };
  for (const p of plans) {
    const lock: LockFile = { vx: 1, source: basename(p.path), format: p.format.name, languages: Object.assign(dict<LockLanguage>(), p.lock.languages) };
    for (const l of p.langs) {
      const { write, summary, language } = mergeLanguage(mc, p, l);
      lock.languages[l.lang] = language;
      if (write) merged.writes.push(write);
      merged.summaries.push(summary);
    }
    const lockText = renderLock(lock);
    if (lockText !== p.lockText) merged.writes.push({ path: p.lockPath, text: lockText });
  }
  return merged;
}

export function unitName(p: SourcePlan, u: SourceUnit): string {
  return p.format.name === 'md' ? `the block at line ${u.line} of ${p.path}` : `unit ${JSON.stringify(u.key.length > 80 ? `${u.key.slice(0, 77)}...` : u.key)} (line ${u.line} of ${p.path})`;
}

/** One target: its values, its text (written when it changed), its summary and its lock language. */
function mergeLanguage(mc: MergeContext, p: SourcePlan, l: LangPlan): { write?: FileWrite; summary: Summary; language: LockLanguage } {
  const values = new Map<string, UnitValue>();
  const origins = new Map<string, LockEntry[2]>();
  const sum: Summary = { source: p.path, language: l.lang, target: l.path, translated: 0, unchanged: 0, kept: 0, untranslated: 0, removed: 0 };
  for (const u of p.doc.units) {
    const status = l.statuses.get(u.key)!;
    if (status !== 'missing' && status !== 'stale') {
      values.set(u.key, { kind: 'keep' });
      if (status === 'manual' || status === 'manual-stale') {
        sum.kept++;
        if (status === 'manual' && lockEntry(p.lock.languages[l.lang]?.units, l.target, u.key)?.[2] === 'v') mc.info(`${l.path}: kept manual edit of ${unitName(p, u)}`);
        if (status === 'manual-stale') mc.info(`${l.path}: kept manual edit of ${unitName(p, u)}; its source changed since: review it`);
      } else sum.unchanged++;
      continue;
    }
    const parts = l.needed.get(u.key)!;
    const { out, problem } = translateUnit(mc, parts, l.lang);
    if (problem) {
      sum.untranslated++;
      const review = p.format.name === 'po' && out.length === parts.length;
      mc.problems.push(`${l.path}: ${unitName(p, u)}: ${problem}; ${review ? 'written as fuzzy (for review)' : 'left untranslated'}`);
      if (review) values.set(u.key, { kind: 'new', parts: out, review: true });
      origins.set(u.key, 'p');
    } else {
      sum.translated++;
      values.set(u.key, { kind: 'new', parts: out });
      origins.set(u.key, 'v');
    }
  }
  const body = p.format.render(p.doc, l.lang, values, l.target, mc.render);
  const text = (p.bom ? '\ufeff' : '') + body;
  const order = p.format.name === 'md' ? p.doc.units.map((u) => u.key) : undefined;
  const units = lockUnits(p, l, values, origins, body, order);
  const before = p.lock.languages[l.lang]?.units ?? dict<LockEntry>();
  // (entries under the keys of an earlier vx are the units' own, not removed units)
  const keys = new Set(p.doc.units.flatMap((u) => [u.key, l.target?.aliases?.get(u.key) ?? u.key]));
  sum.removed = Object.keys(before).filter((k) => !keys.has(k)).length;
  const language: LockLanguage = { target: relative(dirname(p.lockPath), l.path).split(sep).join('/'), units, ...(order ? { order } : {}) };
  const changed = !l.existing || l.existing.text !== body || l.existing.bom !== p.bom;
  return { write: changed ? { path: l.path, text } : undefined, summary: sum, language };
}

/** A unit's parts translated into `lang` and taken back from HTML, or why it cannot be. */
function translateUnit(mc: MergeContext, parts: readonly Piece[][], lang: string): { out: Piece[][]; problem?: string } {
  const out: Piece[][] = [];
  let problem: string | undefined;
  for (const pieces of parts) {
    if (!translatable(pieces)) {
      out.push(pieces);
      continue;
    }
    const html = toHtml(pieces);
    const why = mc.result.tooLong.get(html);
    if (why) return { out, problem: `too long to translate (${why})` };
    const translated = mc.result.translations.get(html)?.get(serviceLanguage(lang));
    if (translated === undefined) return { out, problem: 'the service gave no translation' };
    const back = fromHtml(translated, pieces, mc.protect);
    const pp = placeholderProblem(pieces, back);
    if (pp) problem = `placeholders changed (${pp})`;
    out.push(back);
  }
  return { out, problem };
}

/** The lock entries of a target: what it now holds, read back as the next run will read it. */
function lockUnits(p: SourcePlan, l: LangPlan, values: Map<string, UnitValue>, origins: Map<string, LockEntry[2]>, body: string, order: string[] | undefined): Record<string, LockEntry> {
  // (read back only when something new was written and the format cannot say what it wrote)
  const written = origins.size && !p.format.written ? p.format.parseTarget(body, l.path, p.doc, l.lang, order) : undefined;
  const units = dict<LockEntry>();
  for (const u of p.doc.units) {
    const origin = origins.get(u.key);
    const value = values.get(u.key);
    const v = value?.kind === 'new' && p.format.written ? p.format.written(p.doc, u, value, l.lang, l.target) : written?.values.get(u.key);
    if (origin !== undefined) {
      if (v !== undefined) units[u.key] = [u.hash, hash(v), origin];
    } else {
      const keep = l.keepEntries.get(u.key);
      if (keep) units[u.key] = keep;
    }
  }
  return units;
}
