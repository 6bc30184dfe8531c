// The plan of a vx translate file|sync run, made before anything is sent: every source read and
// parsed, its lock file and each language's target read (sources and targets checked), then the
// status of every unit in every target (new, changed, kept, edited by hand) and the distinct
// texts to send, each with the languages that need it.
import { basename, resolve } from 'node:path';
import { UsageError } from '../../../core/errors.js';
import { serviceLanguage } from '../../../model/translator.js';
import type { WorkItem } from './engine.js';
import { FORMATS, formatOf, loadFormat } from './formats.js';
import { dict, emptyLock, parseLock, unitStatus, type LockEntry, type LockFile, type UnitStatus } from './lock.js';
import { misaligned } from './markdown.js';
import { lockPath, targetPath, type TargetNaming } from './paths.js';
import { fromHtml, placeholderProblem, toHtml, tokenize, translatable, type Piece, type ProtectOptions } from './protect.js';
import { readText, type Text } from './read.js';
import { skipMatcher } from './skip.js';
import { hash, type FileFormat, type ReadOptions, type SourceDoc, type SourceUnit, type TargetDoc } from './types.js';
import { xliffVersion, XLIFF_STATES } from './xliff.js';

export type FilesMode = 'file' | 'sync';

/** What the plan reads of the options. */
export interface PlanOptions extends TargetNaming {
  /** the target languages, in --to order */
  to: readonly string[];
  /** --from (else the language each source names) */
  from?: string;
  format?: string;
  state?: string;
  fuzzy?: boolean;
  /** how sources are read (--i18next-format, --front-matter) */
  read?: ReadOptions;
  /** globs of keys never sent (--skip-keys and the translate.skipKeys setting; a .vxskip beside a source adds its own) */
  skipKeys?: readonly string[];
}

/** How the statuses are turned into what is sent. */
export interface NeedsOptions {
  /** sync --check: the units that need sending are listed, not planned */
  check?: boolean;
  protect: ProtectOptions;
  /**
   * --retranslate-changed: a translation by hand whose source changed is translated anew (else it
   * is kept, marked for review where the format can say so)
   */
  retranslateChanged?: boolean;
  /**
   * a glossary: the terms (and their translations) that apply to a text sent to a service
   * language; a unit's lock entry then records them with its source, so that a changed term makes
   * exactly the units that hold it stale
   */
  applied?(html: string, to: string): string | undefined;
}

export interface LangPlan {
  lang: string;
  path: string;
  existing?: Text;
  target?: TargetDoc;
  statuses: Map<string, UnitStatus>;
  keepEntries: Map<string, LockEntry>;
  /** `file`: units whose target value vx did not write (edited by hand, or there before vx), replaced */
  byHand: number;
  /** unit key -> the pieces of each part (needed units only) */
  needed: Map<string, Piece[][]>;
  /**
   * units the target lacks whose changed source it holds a translation by hand of, under another
   * key (PO: the entry msgmerge matches fuzzily): unit key -> that key
   */
  carried: Map<string, string>;
  /** units whose source hash, in this language, includes the glossary's terms that apply to them */
  hashes?: Map<string, string>;
}

/** A unit's source hash as this language's lock entry records it (with the glossary's terms that apply to it). */
export function unitHash(l: LangPlan, u: SourceUnit): string {
  return l.hashes?.get(u.key) ?? u.hash;
}

export interface SourcePlan {
  path: string;
  format: FileFormat;
  doc: SourceDoc;
  bom: boolean;
  lockPath: string;
  lock: LockFile;
  lockText?: string;
  langs: LangPlan[];
}

/** A unit sync --check lists. */
export interface StaleUnit {
  source: string;
  language: string;
  target: string;
  unit: string;
  line: number;
  status: string;
}

/** The texts to send, each once: its pieces (the placeholder check of an answer) and the languages that need it. */
export interface Needs {
  items: Map<string, WorkItem>;
  piecesOf: Map<string, Piece[]>;
  /** sync --check: what is missing or stale */
  stale: StaleUnit[];
}

/** Reads and checks every source, its lock file and its targets (`warn`: a note on stderr). */
export async function planSources(sources: readonly string[], o: PlanOptions, mode: FilesMode, warn: (message: string) => void): Promise<SourcePlan[]> {
  const plans: SourcePlan[] = [];
  const claimed = new Map<string, string>();
  // a file named twice (overlapping globs: locales/en/*.json locales/en/common.json) is one source
  const seen = new Set<string>();
  for (const src of sources) {
    if (seen.has(resolve(src))) continue;
    seen.add(resolve(src));
    const plan = await planSource(src, o);
    for (const lang of o.to) plan.langs.push(await planLanguage(plan, lang, o, mode, claimed, warn));
    plans.push(plan);
  }
  checkFormatFlags(plans, o);
  return plans;
}

/** One source read and parsed, with its lock file; its languages still to plan. */
async function planSource(src: string, o: PlanOptions): Promise<SourcePlan> {
  const name = formatOf(src, o.format);
  const format = FORMATS[name];
  await loadFormat(name, o.read);
  const read = await readText(src, src, name, format.decode);
  if (!read) throw new UsageError(`cannot read ${src}: no such file`);
  const doc = format.parseSource(read.text, src, { ...o.read, from: o.from });
  if (read.encoding) doc.encoding = read.encoding;
  await skipKeys(doc, src, o.skipKeys ?? []);
  const sourceLanguage = o.from ?? doc.language;
  if (o.state !== undefined && format.name === 'xliff') checkState(o.state, doc);
  const lp = lockPath(src, format, o, sourceLanguage);
  const lockRead = await readText(lp, lp);
  const lock = lockRead ? parseLock(lockRead.text, lp) : emptyLock(basename(src), name);
  return { path: src, format, doc, bom: read.bom, lockPath: lp, lock, lockText: lockRead?.text, langs: [] };
}

/** One target of a source: its path (never the source's, nor another source's target) and what it holds. */
async function planLanguage(plan: SourcePlan, lang: string, o: PlanOptions, mode: FilesMode, claimed: Map<string, string>, warn: (message: string) => void): Promise<LangPlan> {
  const { path: src, format, doc, lock } = plan;
  const path = targetPath(src, lang, format, o, o.from ?? doc.language);
  // a format whose file holds every language (a String Catalog) is its own target
  if (resolve(path) === resolve(src) && !format.inPlace) throw new UsageError(`the ${lang} target of ${src} would be the source itself: give --out or --out-dir, or leave ${lang} out of --to`);
  const other = claimed.get(resolve(path));
  if (other && !(format.inPlace && other.startsWith(`${src} (`))) throw new UsageError(`${path} would be the target of both ${other} and ${src} (${lang}): give --out with {name} or {dir}`);
  claimed.set(resolve(path), `${src} (${lang})`);
  const existing = await readText(path, path, format.name, format.decode);
  const lockLang = lock.languages[lang];
  const target = existing ? format.parseTarget(existing.text, path, doc, lang, lockLang?.order) : undefined;
  if (target && format.name === 'md' && misaligned(target) && mode === 'sync') {
    warn(`${path}: its paragraphs no longer line up with what vx wrote (changed by hand?): every block is translated again`);
  }
  return { lang, path, existing, target, statuses: new Map(), keepEntries: new Map(), byHand: 0, needed: new Map(), carried: new Map() };
}

/** Takes the units whose keys the user skips out of a source's units (into `skipped`). */
export async function skipKeys(doc: SourceDoc, src: string, globs: readonly string[]): Promise<void> {
  const skip = await skipMatcher(src, globs);
  if (!skip) return;
  doc.skipped = doc.units.filter((u) => skip(u.key));
  if (doc.skipped.length) doc.units = doc.units.filter((u) => !skip(u.key));
}

function checkState(state: string, doc: SourceDoc): void {
  const v = xliffVersion(doc);
  const allowed = XLIFF_STATES[v] as readonly string[];
  if (!allowed.includes(state)) throw new UsageError(`invalid value "${state}" for --state with XLIFF ${v} (${doc.file}): allowed ${allowed.join(', ')}`);
}

/** --state, --fuzzy, --i18next-format and --front-matter apply to the sources of their format (a run may mix formats); not to none. */
function checkFormatFlags(plans: readonly SourcePlan[], o: PlanOptions): void {
  const flags = [
    [o.state, '--state', 'xliff', 'XLIFF'],
    [o.fuzzy, '--fuzzy', 'po', 'PO'],
    [o.read?.i18next, '--i18next-format', 'json', 'JSON'],
    [o.read?.frontMatter, '--front-matter', 'md', 'Markdown'],
  ] as const;
  for (const [given, flag, format, name] of flags) {
    if (given !== undefined && !plans.some((p) => p.format.name === format)) throw new UsageError(`${flag} applies to ${name} files; ${plans.length === 1 ? `${plans[0].path} is ${plans[0].format.name}` : 'none of the sources is one'}`);
  }
}

/** A unit's lock entry, under its key or the key an earlier vx gave it in the target. */
export function lockEntry(entries: Record<string, LockEntry> | undefined, target: TargetDoc | undefined, key: string): LockEntry | undefined {
  const alias = target?.aliases?.get(key);
  return entries?.[key] ?? (alias !== undefined ? entries?.[alias] : undefined);
}

/** The status of a unit in a target: `file` replaces every unit (counting those vx did not write); `sync` goes by the lock file. */
function statusOf(l: LangPlan, entries: Record<string, LockEntry>, u: SourceUnit, mode: FilesMode, retranslateChanged?: boolean): UnitStatus {
  if (mode === 'file') {
    // what sync would keep as a translation by hand is replaced: counted, to be said
    const value = l.target?.values.get(u.key);
    if (value !== undefined && unitStatus(u, value, lockEntry(entries, l.target, u.key)).keep?.[2] === 'm') l.byHand++;
    return 'missing';
  }
  const entry = lockEntry(entries, l.target, u.key);
  if (l.hashes?.has(u.key)) u = { ...u, hash: unitHash(l, u) };
  // a value the target marks as not translated yet counts as one only when vx wrote it (with such a --state)
  const s = unitStatus(u, entry || !l.target?.pending?.has(u.key) ? l.target?.values.get(u.key) : undefined, entry);
  // --retranslate-changed: a translation by hand of an older source is not kept
  if (s.status === 'manual-stale' && retranslateChanged) return 'stale';
  if (s.keep) l.keepEntries.set(u.key, s.keep);
  return s.status;
}

/**
 * What each language needs: every unit's status recorded in its LangPlan, and the distinct texts
 * to send (or, with `check`, the units that would need sending).
 */
export function unitNeeds(plans: readonly SourcePlan[], mode: FilesMode, o: NeedsOptions): Needs {
  const needs: Needs = { items: new Map(), piecesOf: new Map(), stale: [] };
  const tokenized = new Map<SourceUnit, Piece[][]>();
  for (const p of plans) {
    for (const l of p.langs) {
      const entries = p.lock.languages[l.lang]?.units ?? dict<LockEntry>();
      if (o.applied) l.hashes = glossaryHashes(p.doc.units, l.lang, o, tokenized);
      for (const u of p.doc.units) l.statuses.set(u.key, statusOf(l, entries, u, mode, o.retranslateChanged));
      if (mode === 'sync' && !o.retranslateChanged) carryPrevious(p, l, entries);
      for (const u of p.doc.units) {
        const status = l.statuses.get(u.key)!;
        const stale = { source: p.path, language: l.lang, target: l.path, unit: u.key, line: u.line };
        if (status === 'missing' || status === 'stale') {
          if (o.check) {
            needs.stale.push({ ...stale, status });
            continue;
          }
          // tokenized once per unit, shared by its languages
          let parts = tokenized.get(u);
          if (!parts) tokenized.set(u, (parts = u.parts.map((part) => tokenize(part, o.protect))));
          l.needed.set(u.key, parts);
          addItems(needs, parts, l.lang);
        } else if (status === 'manual-stale' && o.check) {
          needs.stale.push({ ...stale, status: 'stale (translated by hand)' });
        }
      }
    }
  }
  return needs;
}

/**
 * Units the target lacks whose changed source the target holds a translation of under another
 * key (PO: the entry `msgmerge` matches fuzzily), made by a person (not by vx for that source):
 * kept for review (PO: fuzzy with the previous msgid as `#|`), not sent.
 */
function carryPrevious(p: SourcePlan, l: LangPlan, entries: Record<string, LockEntry>): void {
  if (!p.format.previous || !l.target) return;
  const missing = p.doc.units.filter((u) => l.statuses.get(u.key) === 'missing' && !l.target!.values.has(u.key));
  if (!missing.length) return;
  const byKey = new Map(missing.map((u) => [u.key, u]));
  for (const [key, from] of p.format.previous(p.doc, l.target, missing)) {
    const value = l.target.values.get(from);
    if (value === undefined) continue;
    // vx's own translation of the old source: translated again, as any stale unit
    const entry = entries[from];
    if (entry && entry[2] !== 'm' && entry[1] === hash(value)) continue;
    const u = byKey.get(key)!;
    l.statuses.set(key, 'manual-stale');
    l.carried.set(key, from);
    l.keepEntries.set(key, [unitHash(l, u), hash(value), 'm']);
  }
}

/** The source hashes of the units a glossary's terms apply to in `lang`, with those terms. */
function glossaryHashes(units: readonly SourceUnit[], lang: string, o: NeedsOptions, tokenized: Map<SourceUnit, Piece[][]>): Map<string, string> {
  const hashes = new Map<string, string>();
  const to = serviceLanguage(lang);
  for (const u of units) {
    let parts = tokenized.get(u);
    if (!parts) tokenized.set(u, (parts = u.parts.map((part) => tokenize(part, o.protect))));
    const applied = parts.map((pieces) => (translatable(pieces) ? (o.applied!(toHtml(pieces), to) ?? '') : ''));
    if (applied.some(Boolean)) hashes.set(u.key, hash(`${u.hash}\u0000${applied.join('\u0001')}`));
  }
  return hashes;
}

/** The translatable parts of a unit, as texts to send to `lang`. */
function addItems(needs: Needs, parts: readonly Piece[][], lang: string): void {
  for (const pieces of parts) {
    if (!translatable(pieces)) continue;
    const html = toHtml(pieces);
    let item = needs.items.get(html);
    if (!item) {
      needs.items.set(html, (item = { html, langs: new Map() }));
      needs.piecesOf.set(html, pieces);
    }
    // by the language the service is asked for: de-DE, de-AT and de-CH are one `to` (billed once)
    const to = serviceLanguage(lang);
    item.langs.set(to, (item.langs.get(to) ?? 0) + 1);
  }
}

/** Whether a translation of a text keeps the placeholders it was sent with. */
export function keepsPlaceholders(needs: Needs, protect: ProtectOptions): (html: string, text: string) => boolean {
  return (html, text) => {
    const pieces = needs.piecesOf.get(html);
    return !pieces || placeholderProblem(pieces, fromHtml(text, pieces, protect)) === undefined;
  };
}

/** The language the sources are in, when they all name the same one and --from does not say. */
export function sourcesLanguage(plans: readonly SourcePlan[], from: string | undefined): string | undefined {
  const named = new Set(plans.map((p) => p.doc.language?.trim()).filter((l): l is string => Boolean(l)));
  return from ?? (named.size === 1 && plans.every((p) => p.doc.language?.trim()) ? [...named][0] : undefined);
}
