// `vx translate check`: the checks every answer of the service passes (checks.ts: placeholders,
// printf by the entry's format, ICU skeletons, nesting, control characters and line breaks), run on
// translations whoever made them, as pofilter and Weblate's checks do. A bilingual file (a PO
// catalogue, an XLIFF file with targets) is checked against its own sources; a source with --to
// against its targets, found where vx translate sync finds them. Nothing is sent.
import { UsageError } from '../../../core/errors.js';
import { translationProblem } from './checks.js';
import { glossaryChecker } from '../glossary/files.js';
import type { Glossary } from '../glossary/types.js';
import { FORMATS, formatOf, loadFormat } from './formats.js';
import { formPairs } from './plurals.js';
import { planSources, skipKeys, type PlanOptions } from './plan.js';
import { syntaxOf, tokenize, toHtml, type ProtectOptions } from './protect.js';
import { readText } from './read.js';
import type { FileFormat, SourceDoc, SourceUnit, TargetDoc, TranslationPair } from './types.js';

/**
 * The exit code of a check that found something (units missing or stale, translations that fail
 * the checks): not 1, which says a request failed; 9, as `vx mgmt quota check` says "short".
 */
export const EXIT_CHECK = 9;

/** One translation that fails a check. */
export interface CheckProblem {
  /** the file that holds the translation, and its line there */
  file: string;
  line?: number;
  language: string;
  unit: string;
  problem: string;
  /** the file holds the translations of other languages too (a String Catalog) */
  shared?: boolean;
}

export interface CheckFilesOptions extends Omit<PlanOptions, 'to' | 'state' | 'fuzzy'> {
  /** the languages whose targets are checked; none: each file is a bilingual catalogue checked in itself */
  to?: readonly string[];
  protect: ProtectOptions;
  /** a glossary: each term translated as it says, none of its forbidden terms used */
  glossary?: Glossary;
}

type TermCheck = (source: string, translation: string, lang: string) => string[];

/** Every translation of the files that fails a check, in file order. */
export async function checkFiles(files: readonly string[], o: CheckFilesOptions): Promise<CheckProblem[]> {
  const problems: CheckProblem[] = [];
  if (o.to?.length) {
    const plans = await planSources(files, { ...o, to: o.to }, 'sync', () => undefined);
    for (const p of plans) {
      for (const l of p.langs) {
        if (!l.target) problems.push({ file: l.path, language: l.lang, unit: '', problem: `no such file (the ${l.lang} target of ${p.path})` });
        else checkDoc(p.format, p.doc, l.target, l.lang, l.path, o, problems);
      }
    }
    return problems;
  }
  for (const file of new Set(files)) {
    const name = formatOf(file, o.format);
    const format = FORMATS[name];
    if (name !== 'po' && name !== 'xliff') throw new UsageError(`${file} is ${articled(name)} file, which holds one language: give --to with the languages of its targets (found as vx translate sync finds them)`);
    await loadFormat(name, o.read);
    const read = await readText(file, file, name, format.decode);
    if (!read) throw new UsageError(`cannot read ${file}: no such file`);
    const doc = format.parseSource(read.text, file, { ...o.read, from: o.from });
    await skipKeys(doc, file, o.skipKeys ?? []);
    const lang = doc.targetLanguage;
    if (!lang) continue;
    checkDoc(format, doc, format.parseTarget(read.text, file, doc, lang), lang, file, o, problems);
  }
  return problems;
}

const articled = (name: string) => (/^[aeiou]/.test(name) ? `an ${name.toUpperCase()}` : `a ${name === 'md' ? 'Markdown' : name.toUpperCase()}`);

/** The translations a target holds of a source's units, checked. */
function checkDoc(format: FileFormat, doc: SourceDoc, target: TargetDoc, lang: string, file: string, o: CheckFilesOptions, out: CheckProblem[]): void {
  const protect = o.protect;
  // (a PO catalogue's Language is its translations', not its msgids')
  const terms = o.glossary && glossaryChecker(o.glossary, o.from ?? (doc.format === 'po' ? undefined : doc.language), doc.file);
  for (const u of doc.units) {
    // (what the file marks as not in use is for a translator to review: PO fuzzy, an XLIFF target in state new)
    if (!target.values.has(u.key) || target.unused?.has(u.key) || target.pending?.has(u.key)) continue;
    const problem = unitProblem(format, doc, target, u, lang, protect, terms);
    if (problem === undefined) continue;
    const line = target.lines?.get(u.key) ?? (file === doc.file ? u.line : undefined);
    out.push({ file, ...(line !== undefined ? { line } : {}), language: lang, unit: u.key, problem, ...(format.inPlace ? { shared: true } : {}) });
  }
}

/** What is wrong with a unit's translation (the first problem of its parts), or undefined. */
export function unitProblem(format: FileFormat, doc: SourceDoc, target: TargetDoc, u: SourceUnit, lang: string, protect: ProtectOptions, terms?: TermCheck): string | undefined {
  const value = target.values.get(u.key)!;
  const pairs: TranslationPair[] = format.translations
    ? format.translations(u, value, lang, doc, target)
    : formPairs(
        u.parts,
        value.split('\u0000').map((v) => [{ kind: 'text', value: v }]),
      );
  // (a PO catalogue's Language is its translations', not its msgids')
  const languages = { source: doc.format === 'po' ? undefined : doc.language, target: lang };
  for (const pair of pairs) {
    const source = tokenize(pair.source, protect);
    const translation = tokenize(pair.translation, { ...protect, syntax: syntaxOf(source) });
    const problem = translationProblem(source, translation, { ...protect, languages, mayOmit: pair.mayOmit }) ?? format.check?.(source, translation);
    if (problem) return problem;
    const unfit = terms?.(toHtml(source), toHtml(translation), lang);
    if (unfit?.length) return unfit.join('; ');
  }
  return undefined;
}
