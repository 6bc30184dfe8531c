// The targets and lock files of a vx translate file|sync run, all checked and rendered before the
// first is written: each unit's translation taken back from HTML with its placeholders checked (a
// unit whose placeholders did not survive is not written as translated, and is listed), units
// kept or edited by hand left as they are, and the lock file recording what each target now holds.
import { basename, dirname, relative, sep } from 'node:path';
import { serviceLanguage } from '../../../model/translator.js';
import type { EngineResult } from './engine.js';
import { dict, renderLock, type LockEntry, type LockFile, type LockLanguage } from './lock.js';
import { lockEntry, unitHash, type LangPlan, type SourcePlan } from './plan.js';
import { fromHtml, placeholderProblem, toHtml, translatable, type Piece, type ProtectOptions } from './protect.js';
import { hash, type RenderOptions, type SourceUnit, type FileFormat, type UnitValue } from './types.js';

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
  /** text (UTF-8), or the bytes of a format with its own charset */
  text: string | Uint8Array;
  /** the source whose permissions the file gets when it is new */
  modeFrom?: string;
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
  /** a glossary: what a translation of a text into a service language lacks of its terms */
  terms?(html: string, translated: string, to: string): string[];
}

/** Renders every target and lock file with the run's translations (`render`: --state, --fuzzy). */
export function mergeTargets(plans: readonly SourcePlan[], result: MergeContext['result'], protect: ProtectOptions, render: RenderOptions, info: (message: string) => void, terms?: MergeContext['terms']): Merged {
  const merged: Merged = { writes: [], summaries: [], problems: [] };
  const mc: MergeContext = { result, protect, render, info, problems: merged.problems, terms };
  for (const p of plans) {
    const lock: LockFile = { vx: 1, source: basename(p.path), format: p.format.name, languages: Object.assign(dict<LockLanguage>(), p.lock.languages) };
    // a file that holds every language (FileFormat.inPlace) gets them one after the other, written once
    let inPlace: string | undefined;
    for (const l of p.langs) {
      const { write, summary, language, body } = mergeLanguage(mc, p, l, inPlace);
      lock.languages[l.lang] = language;
      if (p.format.inPlace) inPlace = body;
      else if (write) merged.writes.push(write);
      merged.summaries.push(summary);
    }
    const first = p.langs[0];
    if (inPlace !== undefined && first.existing?.text !== inPlace) merged.writes.push({ path: first.path, text: encodeTarget(p, inPlace), modeFrom: p.path });
    const lockText = renderLock(lock);
    if (lockText !== p.lockText) merged.writes.push({ path: p.lockPath, text: lockText, modeFrom: p.path });
  }
  return merged;
}

export function unitName(p: SourcePlan, u: SourceUnit): string {
  return p.format.name === 'md' ? `the block at line ${u.line} of ${p.path}` : `unit ${JSON.stringify(u.key.length > 80 ? `${u.key.slice(0, 77)}...` : u.key)} (line ${u.line} of ${p.path})`;
}

/** What became of a translation by hand whose source changed (kept, and how it is marked for review). */
function keptForReview(p: SourcePlan, u: SourceUnit, from: string | undefined): string {
  const mark = p.format.name === 'po' ? 'marked fuzzy' : p.format.name === 'xliff' ? 'marked for review (its state)' : 'review it';
  if (from === undefined) return `kept manual edit of ${unitName(p, u)}; its source changed since: ${mark}`;
  const was = from.replace(/^[^\u0004]*\u0004/, '');
  return `kept the translation of ${JSON.stringify(was.length > 60 ? `${was.slice(0, 57)}...` : was)} for ${unitName(p, u)}, whose source it was before it changed: ${mark}, the previous source kept as #|`;
}

/** A target's bytes: the format's own charset, else UTF-8 (with the source's byte order mark). */
function encodeTarget(p: SourcePlan, body: string): string | Uint8Array {
  return p.format.encode ? p.format.encode(body, p.doc.encoding ?? 'utf8') : (p.bom ? '\ufeff' : '') + body;
}

/** One target: its values, its text (written when it changed), its summary and its lock language. */
function mergeLanguage(mc: MergeContext, p: SourcePlan, l: LangPlan, base?: string): { write?: FileWrite; summary: Summary; language: LockLanguage; body: string } {
  const values = new Map<string, UnitValue>();
  const origins = new Map<string, LockEntry[2]>();
  const sum: Summary = { source: p.path, language: l.lang, target: l.path, translated: 0, unchanged: 0, kept: 0, untranslated: 0, removed: 0 };
  for (const u of p.doc.units) {
    const status = l.statuses.get(u.key)!;
    if (status !== 'missing' && status !== 'stale') {
      // a translation by hand of an older source: kept, marked for review where the format can say so
      const from = l.carried.get(u.key);
      values.set(u.key, status === 'manual-stale' ? { kind: 'keep', review: true, ...(from !== undefined ? { from } : {}) } : { kind: 'keep' });
      if (status === 'manual' || status === 'manual-stale') {
        sum.kept++;
        if (status === 'manual' && lockEntry(p.lock.languages[l.lang]?.units, l.target, u.key)?.[2] === 'v') mc.info(`${l.path}: kept manual edit of ${unitName(p, u)}`);
        if (status === 'manual-stale') mc.info(`${l.path}: ${keptForReview(p, u, from)}`);
      } else sum.unchanged++;
      continue;
    }
    const parts = l.needed.get(u.key)!;
    const { out, problem } = translateUnit(mc, parts, l.lang, p.format);
    if (problem) {
      sum.untranslated++;
      const review = p.format.name === 'po' && out.length === parts.length;
      mc.problems.push(`${l.path}: ${unitName(p, u)}: ${problem}; ${review ? 'written as fuzzy (for review)' : p.format.keepsSource || p.format.leavesSource ? 'left in the source language' : 'left untranslated'}`);
      if (review) values.set(u.key, { kind: 'new', parts: out, review: true });
      // (the target keeps the source's text; the lock records it as not translated)
      else if (p.format.keepsSource) values.set(u.key, { kind: 'new', parts, review: true });
      origins.set(u.key, 'p');
    } else {
      sum.translated++;
      values.set(u.key, { kind: 'new', parts: out });
      origins.set(u.key, 'v');
    }
  }
  skippedValues(p, l, values);
  const target = base !== undefined ? p.format.parseTarget(base, l.path, p.doc, l.lang) : l.target;
  const body = p.format.render(p.doc, l.lang, values, target, mc.render);
  const order = p.format.name === 'md' ? p.doc.units.map((u) => u.key) : undefined;
  const units = lockUnits(p, { ...l, target }, values, origins, body, order);
  const before = p.lock.languages[l.lang]?.units ?? dict<LockEntry>();
  // (entries under the keys of an earlier vx are the units' own, not removed units)
  const keys = new Set(p.doc.units.flatMap((u) => [u.key, l.target?.aliases?.get(u.key) ?? u.key]));
  sum.removed = Object.keys(before).filter((k) => !keys.has(k)).length;
  const language: LockLanguage = { target: relative(dirname(p.lockPath), l.path).split(sep).join('/'), units, ...(order ? { order } : {}) };
  const changed = !l.existing || l.existing.text !== body || l.existing.bom !== p.bom;
  return { write: changed ? { path: l.path, text: encodeTarget(p, body), modeFrom: p.path } : undefined, summary: sum, language, body };
}

/**
 * The units the user skips: what the target has of them is kept; a target that lacks one gets the
 * source's value where the format holds one language (a JSON or YAML file, an app's resources:
 * the app needs it there), none where it pairs translations with their source (XLIFF, PO: the
 * source is read there) or holds every language (a String Catalog).
 */
function skippedValues(p: SourcePlan, l: LangPlan, values: Map<string, UnitValue>): void {
  const copies = p.format.name !== 'xliff' && p.format.name !== 'po' && !p.format.inPlace;
  for (const u of p.doc.skipped ?? []) {
    if (l.target?.values.has(u.key)) values.set(u.key, { kind: 'keep' });
    else if (copies) values.set(u.key, { kind: 'new', parts: u.parts });
  }
}

/** A unit's parts translated into `lang` and taken back from HTML, or why it cannot be. */
function translateUnit(mc: MergeContext, parts: readonly Piece[][], lang: string, format: FileFormat): { out: Piece[][]; problem?: string } {
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
    const unfit = pp === undefined ? (format.check?.(pieces, back) ?? mc.terms?.(html, translated, serviceLanguage(lang)).join('; ')) || undefined : undefined;
    // (a character the translation should not have is no placeholder's)
    if (pp) problem = pp.startsWith('the translation has') ? pp : `placeholders changed (${pp})`;
    else if (unfit) problem ??= unfit;
    out.push(back);
  }
  return { out, problem };
}

/** The lock entries of a target: what it now holds, read back as the next run will read it. */
function lockUnits(p: SourcePlan, l: LangPlan, values: Map<string, UnitValue>, origins: Map<string, LockEntry[2]>, body: string, order: string[] | undefined): Record<string, LockEntry> {
  // (read back only when something new was written and the format cannot say what it wrote)
  const readBack = !p.format.written || ((p.format.keepsSource || p.format.leavesSource) && [...origins.values()].includes('p'));
  const written = origins.size && readBack ? p.format.parseTarget(body, l.path, p.doc, l.lang, order) : undefined;
  const units = dict<LockEntry>();
  for (const u of p.doc.units) {
    const origin = origins.get(u.key);
    const value = values.get(u.key);
    const v = value?.kind === 'new' && !(value.review && p.format.keepsSource) && p.format.written ? p.format.written(p.doc, u, value, l.lang, l.target) : written?.values.get(u.key);
    if (origin !== undefined) {
      if (v !== undefined) units[u.key] = [unitHash(l, u), hash(v), origin];
    } else {
      const keep = l.keepEntries.get(u.key);
      if (keep) units[u.key] = keep;
    }
  }
  return units;
}
