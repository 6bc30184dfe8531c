// The work behind `vx translate file` and `vx translate sync`: locale files (XLIFF, JSON, PO,
// Markdown) read and checked before anything is sent, the units each target language needs
// (all of them for `file`; new, changed or missing ones for `sync`, by the lock file), each
// distinct text sent once with its placeholders protected, translations checked and written into
// every target at once (temporary files renamed into place at the end: Ctrl-C or a failure leaves
// every target as it was), the lock file updated, a summary printed.
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { TranslatorClient } from '../../api/translator/client.js';
import { parseParams } from '../../api/translator/options.js';
import { translateItems, type WorkItem } from '../../api/translator/files/engine.js';
import { json, loadJson } from '../../api/translator/files/json.js';
import { loadYaml, yaml } from '../../api/translator/files/yaml.js';
import { dict, emptyLock, parseLock, renderLock, unitStatus, type LockEntry, type LockFile, type LockLanguage, type UnitStatus } from '../../api/translator/files/lock.js';
import { loadMarkdown, markdown, misaligned } from '../../api/translator/files/markdown.js';
import { declaredCharset, po } from '../../api/translator/files/po.js';
import { customPatterns, fromHtml, placeholderProblem, toHtml, tokenize, translatable, type Piece } from '../../api/translator/files/protect.js';
import { FORMAT_NAMES, hash, type FileFormat, type FormatName, type SourceDoc, type SourceUnit, type TargetDoc, type UnitValue } from '../../api/translator/files/types.js';
import { loadIcu } from '../../api/translator/files/icu.js';
import { loadXliff, xliff, xliffVersion, XLIFF_STATES } from '../../api/translator/files/xliff.js';
import { fmt } from '../../api/translator/batcher.js';
import type { Ctx } from '../../core/context.js';
import type { FilesOptions } from './options.js';
import { asVxError, InterruptedError, OutputError, UsageError, VxError } from '../../core/errors.js';
import { BatchFailure } from '../../api/translator/stream.js';
import { decodeUtf8 } from '../../core/input.js';
import { shellQuote } from '../../core/child.js';
import { serviceLanguage } from '../../model/translator.js';
import { parseConcurrency } from '../../api/translator/options.js';
import type { TranslationMemory } from '../../api/translator/memory/index.js';
import { filesMemory } from '../../api/translator/files/tm.js';
import { BudgetExceeded, MeteredSender } from '../../api/translator/metered.js';
import { Pacer } from '../../core/pacer.js';
import { isUtf8 } from 'node:buffer';
import { closeRunMemory, openRunMemory, runSettings } from '../../api/translator/run-settings.js';

const FORMATS: Record<FormatName, FileFormat> = { xliff, json, yaml, po, md: markdown };
const EXTENSIONS: Record<string, FormatName> = { '.xlf': 'xliff', '.xliff': 'xliff', '.xlf2': 'xliff', '.json': 'json', '.yml': 'yaml', '.yaml': 'yaml', '.po': 'po', '.pot': 'po', '.md': 'md', '.markdown': 'md', '.mdx': 'md' };

export function formatOf(file: string, flag: string | undefined): FormatName {
  if (flag !== undefined && flag.toLowerCase() !== 'auto') {
    const f = flag.toLowerCase() as FormatName;
    if (!FORMAT_NAMES.includes(f)) throw new UsageError(`invalid value "${flag}" for --format: allowed ${FORMAT_NAMES.join(', ')}, auto`);
    return f;
  }
  const f = EXTENSIONS[extname(file).toLowerCase()];
  if (!f) throw new UsageError(`cannot tell the format of ${file} from its extension: give --format ${FORMAT_NAMES.join('|')} (known extensions: ${Object.keys(EXTENSIONS).join(' ')})`);
  return f;
}

async function load(format: FormatName): Promise<void> {
  await loadIcu();
  if (format === 'xliff') await loadXliff();
  else if (format === 'json') await loadJson();
  else if (format === 'yaml') await loadYaml();
  else if (format === 'md') await loadMarkdown();
}

interface Text {
  text: string;
  bom: boolean;
}

async function readText(path: string, what: string, format?: FormatName): Promise<Text | undefined> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read ${what}: ${err.code === 'EISDIR' ? 'it is a directory' : err.code === 'EACCES' ? 'permission denied' : err.message}`);
  }
  const bom = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
  if (format === 'po' && !isUtf8(buf)) {
    // a PO file in another charset (its header says so): named, with gettext's own way to UTF-8
    const charset = declaredCharset(buf);
    if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
      throw new UsageError(`${what} is in ${charset} (its header says charset=${charset}), not UTF-8: vx reads and writes PO files in UTF-8 only; convert it first: msgconv --to-code=UTF-8 ${shellQuote(what)} -o ${shellQuote(what)}`);
    }
  }
  return { text: decodeUtf8(buf, what), bom };
}

/** Where the targets of a source go: --out pattern, --out-dir, or the format's convention beside the source. */
export function targetPath(source: string, lang: string, format: FileFormat, opts: FilesOptions, sourceLanguage?: string): string {
  if (opts.out !== undefined) {
    const file = basename(source);
    const ext = extname(file);
    return opts.out
      .replaceAll('{lang}', lang)
      .replaceAll('{dir}', dirname(source))
      .replaceAll('{name}', file.slice(0, file.length - ext.length))
      .replaceAll('{ext}', ext.replace(/^\./, ''));
  }
  const conventional = format.targetName(source.split(sep).join('/'), lang, sourceLanguage).split('/').join(sep);
  if (opts.outDir !== undefined) return join(opts.outDir, basename(format.targetName(basename(source), lang, sourceLanguage)));
  return conventional;
}

/** The lock file: in the directory that holds the targets (above a per-language directory), named after the source. */
export function lockPath(source: string, format: FileFormat, opts: FilesOptions, sourceLanguage?: string): string {
  const sentinel = 'xx-VXLOCK';
  const t = targetPath(source, sentinel, format, opts, sourceLanguage);
  const segs = t.split(sep);
  const i = segs.findIndex((s) => s.includes(sentinel));
  const dir = segs.slice(0, i).join(sep) || (t.startsWith(sep) ? sep : '.');
  // a pattern that puts the source's directory below the language (i18n/{lang}/{dir}/{name}.json)
  // gives each source directory its own lock (web/en.json and mobile/en.json would share one)
  if (opts.out !== undefined && opts.out.lastIndexOf('{dir}') > opts.out.indexOf('{lang}')) return join(dir, dirname(source), `${basename(source)}.vxlock`);
  return join(dir, `${basename(source)}.vxlock`);
}

interface LangPlan {
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
}

interface SourcePlan {
  path: string;
  format: FileFormat;
  doc: SourceDoc;
  bom: boolean;
  lockPath: string;
  lock: LockFile;
  lockText?: string;
  langs: LangPlan[];
}

interface Summary {
  source: string;
  language: string;
  target: string;
  translated: number;
  unchanged: number;
  kept: number;
  untranslated: number;
  removed: number;
}

/** translate's own options that mean nothing for files (translate parses them wherever they stand) */
const NOT_FOR_FILES: [keyof TranslateOnly, string][] = [
  ['textType', '--text-type'],
  ['profanityAction', '--profanity-action'],
  ['profanityMarker', '--profanity-marker'],
  ['alignment', '--alignment'],
  ['sentenceLength', '--sentence-length'],
  ['suggestedFrom', '--suggested-from'],
  ['fromScript', '--from-script'],
  ['toScript', '--to-script'],
  ['file', '--file'],
  ['whole', '--whole'],
  ['estimate', '--estimate'],
];

interface TranslateOnly {
  textType?: unknown;
  profanityAction?: unknown;
  profanityMarker?: unknown;
  alignment?: unknown;
  sentenceLength?: unknown;
  suggestedFrom?: unknown;
  fromScript?: unknown;
  toScript?: unknown;
  file?: unknown;
  whole?: unknown;
  estimate?: unknown;
  fallback?: boolean;
}

export async function runFiles(ctx: Ctx, opts: FilesOptions, sources: string[], mode: 'file' | 'sync'): Promise<void> {
  const only = opts as FilesOptions & TranslateOnly;
  for (const [key, flag] of NOT_FOR_FILES) {
    if (only[key] === undefined) continue;
    if (key === 'estimate') throw new UsageError(`--estimate does not apply to vx translate ${mode}: 'vx translate sync --check' lists what would be sent, --dry-run prints the requests`);
    throw new UsageError(`${flag} does not apply to vx translate ${mode} (locale files are sent as HTML with their placeholders protected)`);
  }
  if (only.fallback === false) throw new UsageError(`--no-fallback does not apply to vx translate ${mode}`);
  if (opts.check && mode === 'sync') refuseIgnoredByCheck(ctx, opts);
  const params = parseParams({ to: opts.to, from: opts.from, category: opts.category, traceId: opts.traceId });
  const concurrency = parseConcurrency(opts.concurrency);
  if (opts.out !== undefined && opts.outDir !== undefined) throw new UsageError('give --out <pattern> or --out-dir <dir>, not both');
  if (opts.out !== undefined && !opts.out.includes('{lang}')) throw new UsageError(`--out needs {lang} in its pattern (one target per language), e.g. --out 'locales/{lang}/{name}.json'`);
  if (opts.out !== undefined && sources.length > 1 && !/\{(name|dir)\}/.test(opts.out)) throw new UsageError('--out needs {name} or {dir} in its pattern when several sources are given (each gets its own targets)');
  if (opts.check && mode !== 'sync') throw new UsageError('--check applies to vx translate sync');
  let custom: RegExp[];
  try {
    custom = customPatterns(opts.protect ?? []);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const protect = { custom };

  // 1. read and check everything before anything is sent
  const plans: SourcePlan[] = [];
  const claimed = new Map<string, string>();
  // a file named twice (overlapping globs: locales/en/*.json locales/en/common.json) is one source
  const seen = new Set<string>();
  for (const src of sources) {
    if (seen.has(resolve(src))) continue;
    seen.add(resolve(src));
    const name = formatOf(src, opts.format);
    const format = FORMATS[name];
    await load(name);
    const read = await readText(src, src, name);
    if (!read) throw new UsageError(`cannot read ${src}: no such file`);
    const doc = format.parseSource(read.text, src);
    const sourceLanguage = params.from ?? doc.language;
    if (opts.state !== undefined && format.name === 'xliff') checkState(opts.state, doc);
    const lp = lockPath(src, format, opts, sourceLanguage);
    const lockRead = await readText(lp, lp);
    const lock = lockRead ? parseLock(lockRead.text, lp) : emptyLock(basename(src), name);
    const plan: SourcePlan = { path: src, format, doc, bom: read.bom, lockPath: lp, lock, lockText: lockRead?.text, langs: [] };
    for (const lang of params.to) {
      const path = targetPath(src, lang, format, opts, sourceLanguage);
      if (resolve(path) === resolve(src)) throw new UsageError(`the ${lang} target of ${src} would be the source itself: give --out or --out-dir, or leave ${lang} out of --to`);
      const other = claimed.get(resolve(path));
      if (other) throw new UsageError(`${path} would be the target of both ${other} and ${src} (${lang}): give --out with {name} or {dir}`);
      claimed.set(resolve(path), `${src} (${lang})`);
      const existing = await readText(path, path, name);
      const lockLang = lock.languages[lang];
      const target = existing ? format.parseTarget(existing.text, path, doc, lang, lockLang?.order) : undefined;
      if (target && name === 'md' && misaligned(target) && mode === 'sync') {
        ctx.warn(`${path}: its paragraphs no longer line up with what vx wrote (changed by hand?): every block is translated again`);
      }
      plan.langs.push({ lang, path, existing, target, statuses: new Map(), keepEntries: new Map(), byHand: 0, needed: new Map() });
    }
    plans.push(plan);
  }
  // --state and --fuzzy apply to the sources of their format (a run may mix formats); not to none
  for (const [given, flag, format, name] of [[opts.state, '--state', 'xliff', 'XLIFF'], [opts.fuzzy, '--fuzzy', 'po', 'PO']] as const) {
    if (given !== undefined && !plans.some((p) => p.format.name === format)) throw new UsageError(`${flag} applies to ${name} files; ${plans.length === 1 ? `${plans[0].path} is ${plans[0].format.name}` : 'none of the sources is one'}`);
  }

  // 2. what each language needs
  const items = new Map<string, WorkItem>();
  /** the pieces each distinct text was sent for (the placeholder check of an answer) */
  const piecesOf = new Map<string, Piece[]>();
  const accept = (html: string, text: string) => {
    const pieces = piecesOf.get(html);
    return !pieces || placeholderProblem(pieces, fromHtml(text, pieces, protect)) === undefined;
  };
  const tokenized = new Map<SourceUnit, Piece[][]>();
  const stale: { source: string; language: string; target: string; unit: string; line: number; status: string }[] = [];
  for (const p of plans) {
    for (const l of p.langs) {
      const entries = p.lock.languages[l.lang]?.units ?? dict<LockEntry>();
      for (const u of p.doc.units) {
        let status: UnitStatus;
        if (mode === 'file') {
          status = 'missing';
          // what sync would keep as a translation by hand is replaced: counted, to be said
          const value = l.target?.values.get(u.key);
          if (value !== undefined && unitStatus(u, value, lockEntry(entries, l.target, u.key)).keep?.[2] === 'm') l.byHand++;
        } else {
          const entry = lockEntry(entries, l.target, u.key);
          // a value the target marks as not translated yet counts as one only when vx wrote it (with such a --state)
          const s = unitStatus(u, entry || !l.target?.pending?.has(u.key) ? l.target?.values.get(u.key) : undefined, entry);
          status = s.status;
          if (s.keep) l.keepEntries.set(u.key, s.keep);
        }
        l.statuses.set(u.key, status);
        if (status === 'missing' || status === 'stale') {
          if (opts.check) {
            stale.push({ source: p.path, language: l.lang, target: l.path, unit: u.key, line: u.line, status });
            continue;
          }
          // tokenized once per unit, shared by its languages
          let parts = tokenized.get(u);
          if (!parts) tokenized.set(u, (parts = u.parts.map((part) => tokenize(part, protect))));
          l.needed.set(u.key, parts);
          for (const pieces of parts) {
            if (!translatable(pieces)) continue;
            const html = toHtml(pieces);
            let item = items.get(html);
            if (!item) {
              items.set(html, (item = { html, langs: new Map() }));
              piecesOf.set(html, pieces);
            }
            // by the language the service is asked for: de-DE, de-AT and de-CH are one `to` (billed once)
            const to = serviceLanguage(l.lang);
            item.langs.set(to, (item.langs.get(to) ?? 0) + 1);
          }
        } else if (status === 'manual-stale' && opts.check) {
          stale.push({ source: p.path, language: l.lang, target: l.path, unit: u.key, line: u.line, status: 'stale (translated by hand)' });
        }
      }
    }
  }

  if (opts.check) return check(ctx, stale);

  // 3. translate (from the language the sources name, when they agree and --from does not say)
  const named = new Set(plans.map((p) => p.doc.language?.trim()).filter((l): l is string => Boolean(l)));
  const from = params.from ?? (named.size === 1 && plans.every((p) => p.doc.language?.trim()) ? [...named][0] : undefined);
  const clients = new Map<string, TranslatorClient>();
  const totals = new Map<string, number>();
  for (const item of items.values()) for (const [l, n] of item.langs) totals.set(l, (totals.get(l) ?? 0) + n);
  // a bar per language of --to (languages the service knows as one share their progress)
  const perLang = (m: ReadonlyMap<string, number>) => new Map(params.to.map((l) => [l, m.get(serviceLanguage(l)) ?? 0]));
  const bars = ctx.stderrIsTTY && !ctx.globals.debug && !ctx.http.dryRun && items.size ? new LanguageBars(ctx.io.stderr, params.to, perLang(totals)) : undefined;
  let result;
  // the pay-once settings of vx translate: a translation memory, the pace, a budget
  const settings = runSettings(ctx, opts);
  let memory: TranslationMemory | undefined;
  let failed = false;
  let memoryFailure: unknown;
  const pacer = new Pacer({ perMinute: settings.perMinute });
  const groupParams = (langs: string[]) => ({ ...params, from: from && serviceLanguage(from), to: langs.map(serviceLanguage), textType: 'html' as const });
  const account = { spent: 0 };
  try {
    // --dry-run only reads the memory (one that does not exist yet holds nothing)
    if (items.size) memory = await openRunMemory(settings.memory, ctx.http.dryRun, ctx.env);
    if (!ctx.http.dryRun) ctx.http.opts.connections = concurrency;
    result = await translateItems([...items.values()], {
      memory: memory && filesMemory(memory, groupParams, protect, accept),
      // one budget for the whole run: each group's sender spends from the same account
      sender: (client, langs) => new MeteredSender(client, { targets: langs.length, pacer, budget: settings.budget, account }),
      concurrency,
      signal: ctx.signal,
      dryRun: ctx.http.dryRun,
      progress: (done) => bars?.update(perLang(done)),
      client: async (langs) => {
        const key = langs.join(',');
        let c = clients.get(key);
        if (!c) {
          c = await TranslatorClient.open(ctx.http, ctx.config, groupParams(langs));
          clients.set(key, c);
        }
        return c;
      },
    });
  } catch (e) {
    failed = true;
    // nothing is written when the translation fails: every target stays as it was
    const err = e instanceof BatchFailure ? asVxError(e.cause) : e;
    if (err instanceof VxError && !(err instanceof InterruptedError) && !err.hint) err.hint = 'no target was written (each stays as it was)';
    // --dry-run: the requests up to the budget's stop, then the stop, as the run would meet it
    if (err instanceof BudgetExceeded && ctx.http.planned.length) await ctx.writePlan();
    throw err;
  } finally {
    bars?.stop();
    // what was answered is kept in the memory even when the run fails (a rerun does not pay for it again)
    try {
      await closeRunMemory(memory, failed);
    } catch (e) {
      // the translations are in: the targets are written all the same, then the memory's failure is told
      memoryFailure = e;
    }
  }
  if (ctx.http.dryRun) return;

  // 4. targets and lock files, all checked and rendered before the first is written
  const writes: { path: string; text: string }[] = [];
  const summaries: Summary[] = [];
  const problems: string[] = [];
  for (const p of plans) {
    const lock: LockFile = { vx: 1, source: basename(p.path), format: p.format.name, languages: Object.assign(dict<LockLanguage>(), p.lock.languages) };
    for (const l of p.langs) {
      const values = new Map<string, UnitValue>();
      const origins = new Map<string, LockEntry[2]>();
      const sum: Summary = { source: p.path, language: l.lang, target: l.path, translated: 0, unchanged: 0, kept: 0, untranslated: 0, removed: 0 };
      for (const u of p.doc.units) {
        const status = l.statuses.get(u.key)!;
        if (status !== 'missing' && status !== 'stale') {
          values.set(u.key, { kind: 'keep' });
          if (status === 'manual' || status === 'manual-stale') {
            sum.kept++;
            if (status === 'manual' && lockEntry(p.lock.languages[l.lang]?.units, l.target, u.key)?.[2] === 'v') ctx.info(`${l.path}: kept manual edit of ${unitName(p, u)}`);
            if (status === 'manual-stale') ctx.info(`${l.path}: kept manual edit of ${unitName(p, u)}; its source changed since: review it`);
          } else sum.unchanged++;
          continue;
        }
        const parts = l.needed.get(u.key)!;
        const out: Piece[][] = [];
        let problem: string | undefined;
        for (const pieces of parts) {
          if (!translatable(pieces)) {
            out.push(pieces);
            continue;
          }
          const html = toHtml(pieces);
          const why = result.tooLong.get(html);
          if (why) {
            problem = `too long to translate (${why})`;
            break;
          }
          const translated = result.translations.get(html)?.get(serviceLanguage(l.lang));
          if (translated === undefined) {
            problem = 'the service gave no translation';
            break;
          }
          const back = fromHtml(translated, pieces, protect);
          const pp = placeholderProblem(pieces, back);
          if (pp) problem = `placeholders changed (${pp})`;
          out.push(back);
        }
        if (problem) {
          sum.untranslated++;
          const review = p.format.name === 'po' && out.length === parts.length;
          problems.push(`${l.path}: ${unitName(p, u)}: ${problem}; ${review ? 'written as fuzzy (for review)' : 'left untranslated'}`);
          if (review) values.set(u.key, { kind: 'new', parts: out, review: true });
          origins.set(u.key, 'p');
        } else {
          sum.translated++;
          values.set(u.key, { kind: 'new', parts: out });
          origins.set(u.key, 'v');
        }
      }
      const body = p.format.render(p.doc, l.lang, values, l.target, { state: opts.state, fuzzy: opts.fuzzy });
      const text = (p.bom ? '\ufeff' : '') + body;
      // the lock records what the target now holds, read back as the next run will read it
      const order = p.format.name === 'md' ? p.doc.units.map((u) => u.key) : undefined;
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
      const before = p.lock.languages[l.lang]?.units ?? dict<LockEntry>();
      // (entries under the keys of an earlier vx are the units' own, not removed units)
      const keys = new Set(p.doc.units.flatMap((u) => [u.key, l.target?.aliases?.get(u.key) ?? u.key]));
      sum.removed = Object.keys(before).filter((k) => !keys.has(k)).length;
      lock.languages[l.lang] = { target: relative(dirname(p.lockPath), l.path).split(sep).join('/'), units, ...(order ? { order } : {}) };
      if (!l.existing || l.existing.text !== body || l.existing.bom !== p.bom) writes.push({ path: l.path, text });
      summaries.push(sum);
    }
    const lockText = renderLock(lock);
    if (lockText !== p.lockText) writes.push({ path: p.lockPath, text: lockText });
  }

  // 5. write: every file to a temporary name first, then all renamed into place
  if (ctx.signal.aborted) throw new InterruptedError();
  await commit(writes, ctx.signal).catch((e: unknown) => {
    // after the requests (exit 1, not 2: something was sent), and what became of the answers
    if (e instanceof OutputError) e.hint = `no target was written (each stays as it was); the translations were sent${memory && memoryFailure === undefined ? ' and are in the translation memory: a rerun sends none of them again' : ''}`;
    throw e;
  });
  for (const m of problems) ctx.warn(m);
  for (const p of plans) {
    for (const l of p.langs) {
      if (l.byHand) ctx.warn(`${l.path}: ${fmt(l.byHand)} translation${l.byHand === 1 ? '' : 's'} not written by vx (edited by hand, or there before vx) ${l.byHand === 1 ? 'was' : 'were'} replaced by machine translation${l.byHand === 1 ? '' : 's'}; vx translate sync keeps them`);
    }
  }
  await ctx.print(summaries, {
    columns: [
      { header: 'source', get: 'source' },
      { header: 'language', get: 'language' },
      { header: 'target', get: 'target' },
      { header: 'translated', get: 'translated', align: 'right' },
      { header: 'unchanged', get: 'unchanged', align: 'right' },
      { header: 'kept', get: 'kept', align: 'right' },
      { header: 'untranslated', get: 'untranslated', align: 'right' },
      { header: 'removed', get: 'removed', align: 'right' },
    ],
  });
  if (ctx.globals.verbose) {
    // the summary comes last, after each request's line
    ctx.verboseExchanges();
    const billed = result.billed === undefined ? 'billed characters: not reported' : `billed characters: ${fmt(result.billed)}`;
    const sent = items.size - result.memoryHits - result.tooLong.size;
    ctx.verbose(`sent ${fmt(sent)} distinct text${sent === 1 ? '' : 's'} in ${fmt(result.requests)} request${result.requests === 1 ? '' : 's'}; ${billed}${memory ? `; memory hits: ${fmt(result.memoryHits)}${result.partialHits ? ` (and ${fmt(result.partialHits)} for some languages, sent for the others only)` : ''}` : ''}`);
  }
  if (memoryFailure !== undefined) {
    if (memoryFailure instanceof VxError) memoryFailure.hint = 'the targets were written; the translations the memory could not store are sent again by the next run';
    throw memoryFailure;
  }
  if (problems.length) {
    throw new VxError(`${problems.length} unit${problems.length === 1 ? ' was' : 's were'} not translated (listed above); everything else was written`);
  }
}

/** A unit's lock entry, under its key or the key an earlier vx gave it in the target. */
function lockEntry(entries: Record<string, LockEntry> | undefined, target: TargetDoc | undefined, key: string): LockEntry | undefined {
  const alias = target?.aliases?.get(key);
  return entries?.[key] ?? (alias !== undefined ? entries?.[alias] : undefined);
}

function unitName(p: SourcePlan, u: SourceUnit): string {
  return p.format.name === 'md' ? `the block at line ${u.line} of ${p.path}` : `unit ${JSON.stringify(u.key.length > 80 ? `${u.key.slice(0, 77)}...` : u.key)} (line ${u.line} of ${p.path})`;
}

/** what only shapes the requests or the files written: `sync --check` sends nothing and writes nothing */
const IGNORED_BY_CHECK = [
  ['protect', '--protect'],
  ['state', '--state'],
  ['fuzzy', '--fuzzy'],
  ['category', '--category'],
  ['concurrency', '--concurrency'],
  ['traceId', '--trace-id'],
  ['memory', '--memory'],
  ['maxCharsPerMinute', '--max-chars-per-minute'],
  ['budget', '--budget'],
] as const satisfies readonly (readonly [keyof FilesOptions, string])[];

/** Options that `--check` would accept and ignore are refused (exit 2), as everywhere in vx, rather than seem to matter. */
function refuseIgnoredByCheck(ctx: Ctx, opts: FilesOptions): void {
  const given: string[] = IGNORED_BY_CHECK.filter(([key]) => opts[key] !== undefined).map(([, flag]) => flag);
  if (ctx.globals.dryRun) given.push('--dry-run');
  if (!given.length) return;
  const one = given.length === 1;
  throw new UsageError(`${given.join(', ')} ${one ? 'has' : 'have'} no effect with --check, which sends nothing and writes nothing: leave ${one ? 'it' : 'them'} out`);
}

function checkState(state: string, doc: SourceDoc): void {
  const v = xliffVersion(doc);
  const allowed = XLIFF_STATES[v] as readonly string[];
  if (!allowed.includes(state)) throw new UsageError(`invalid value "${state}" for --state with XLIFF ${v} (${doc.file}): allowed ${allowed.join(', ')}`);
}

async function check(ctx: Ctx, stale: { source: string; language: string; target: string; unit: string; line: number; status: string }[]): Promise<void> {
  await ctx.print(stale, {
    columns: [
      { header: 'language', get: 'language' },
      { header: 'target', get: 'target' },
      { header: 'status', get: 'status' },
      { header: 'line', get: 'line', align: 'right' },
      { header: 'unit', get: 'unit' },
    ],
    empty: 'every unit is translated and current',
  });
  if (!stale.length) return;
  const per = new Map<string, number>();
  for (const s of stale) per.set(s.language, (per.get(s.language) ?? 0) + 1);
  const langs = [...per].map(([l, n]) => `${l}: ${n}`).join(', ');
  throw new VxError(`${stale.length} unit${stale.length === 1 ? ' is' : 's are'} missing or stale (${langs}); run vx translate sync to translate them`);
}

/**
 * Writes every file as `.<name>.<random>.tmp` beside it, then renames them all into place. An
 * interruption or a failure before the renames removes the temporary files (no target changed);
 * the renames themselves run without yielding, so Ctrl-C cannot stop them half way. As --out's
 * atomicFileSink (core/output.ts): the temporary file is created with O_EXCL (never through a link
 * planted at its name), a target that is a symbolic link keeps pointing at its file (the new
 * content replaces that file) and an existing file keeps its mode.
 */
async function commit(writes: { path: string; text: string }[], signal: AbortSignal): Promise<void> {
  const { renameSync, unlinkSync } = await import('node:fs');
  const { open, mkdir, realpath, stat } = await import('node:fs/promises');
  const { randomBytes } = await import('node:crypto');
  const temps: { tmp: string; path: string }[] = [];
  const cleanup = () => {
    for (const t of temps) {
      try {
        unlinkSync(t.tmp);
      } catch {
        /* gone */
      }
    }
  };
  process.once('exit', cleanup);
  try {
    for (const w of writes) {
      const dir = dirname(w.path);
      await mkdir(dir, { recursive: true }).catch((e: NodeJS.ErrnoException) => {
        throw new OutputError(`cannot create ${dir}: ${e.code === 'EACCES' ? 'permission denied' : e.code === 'EEXIST' || e.code === 'ENOTDIR' ? 'a file is in the way' : e.message}`);
      });
      const cannot = (e: NodeJS.ErrnoException) => new OutputError(`cannot write ${w.path}: ${e.code === 'EACCES' ? 'permission denied' : e.code === 'ENOSPC' ? 'no space left on the device' : e.message}`);
      const existing = await stat(w.path).catch(() => undefined);
      const path = existing ? await realpath(w.path) : w.path;
      // (its permissions; never set-user-ID, set-group-ID or sticky, as atomicFileSink)
      const mode = existing ? existing.mode & 0o777 : undefined;
      let file: import('node:fs/promises').FileHandle | undefined;
      let tmp = '';
      for (let attempt = 0; !file; attempt++) {
        tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
        file = await open(tmp, 'wx', mode ?? 0o666).catch((e: NodeJS.ErrnoException) => {
          // a name taken meanwhile (or a planted link): another random name
          if (e.code !== 'EEXIST' || attempt >= 8) throw cannot(e);
          return undefined;
        });
      }
      temps.push({ tmp, path });
      try {
        // the umask does not narrow a kept mode
        if (mode !== undefined) await file.chmod(mode).catch(() => undefined);
        await file.writeFile(w.text);
      } catch (e) {
        throw cannot(e as NodeJS.ErrnoException);
      } finally {
        await file.close();
      }
      if (signal.aborted) throw new InterruptedError();
    }
    for (const t of temps) renameSync(t.tmp, t.path);
    temps.length = 0;
  } catch (e) {
    cleanup();
    throw e;
  } finally {
    process.removeListener('exit', cleanup);
  }
}

/** One progress bar per language (stderr at a terminal), redrawn in place. */
class LanguageBars {
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
