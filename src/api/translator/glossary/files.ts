// Glossaries of locale files (vx translate file|sync|check): the glossary given (--glossary, the
// translate.glossary setting), else the one beside the sources, found by name (GLOSSARY_NAMES:
// `.vxglossary.tbx`, `.csv`, `.tsv`, `.yaml`, `.yml` or `.json`, the first found); and the checker
// of vx translate check, whose target languages are the files' own.
import { access } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../../../core/errors.js';
import { forbiddenTerms, missingTerms, TermMatcher } from './match.js';
import { serviceLanguage } from '../../../model/translator.js';
import { glossarySource, openGlossary } from './index.js';
import { readGlossary } from './read.js';
import type { GlossaryRun } from './session.js';
import { termTable, unnamedPairs } from './terms.js';
import { TARGET, type Glossary } from './types.js';

/** the names of the glossary beside locale sources, in the order they are looked for */
export const GLOSSARY_NAMES = ['.vxglossary.tbx', '.vxglossary.csv', '.vxglossary.tsv', '.vxglossary.yaml', '.vxglossary.yml', '.vxglossary.json'] as const;

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** The glossary beside a source, if any. */
async function besides(source: string): Promise<string | undefined> {
  for (const name of GLOSSARY_NAMES) {
    const path = join(dirname(source), name);
    if (await exists(path)) return path;
  }
  return undefined;
}

/** The glossary of a files run: `given` (flag or setting), else the one beside the sources (they must share it). */
export async function filesGlossary(given: string | undefined, sources: readonly string[]): Promise<string | undefined> {
  if (given !== undefined) return given;
  const found = new Map<string, string>();
  for (const s of sources) {
    const g = await besides(s);
    found.set(g === undefined ? '' : resolve(g), s);
  }
  if (found.size > 1) {
    const [a, b] = [...found.entries()];
    const name = (g: string) => (g ? `${g}` : 'none');
    throw new UsageError(`the sources have different glossaries beside them (${a[1]}: ${name(a[0])}; ${b[1]}: ${name(b[0])}): give --glossary <file> for the run, or translate them apart`);
  }
  const only = [...found.keys()][0];
  return only || undefined;
}

/** The glossary vx translate check reads (`given`: --glossary or the setting, else the one beside the files), or undefined. */
export async function checkGlossary(given: string | undefined, files: readonly string[]): Promise<Glossary | undefined> {
  const file = await filesGlossary(given, files);
  return file === undefined ? undefined : readGlossary(file);
}

/** the catalogue languages a glossary of term pairs (no language named) was checked against: one at most */
const paired = new WeakMap<Glossary, Set<string>>();

/** Term pairs that name no language are one language's: a check of a second is refused, as a run to two targets is. */
function pairedWith(g: Glossary, lang: string): void {
  let langs = paired.get(g);
  if (!langs) paired.set(g, (langs = new Set()));
  langs.add(lang);
  if (langs.size > 1) throw unnamedPairs(g.file, `check one language at a time with it (this check: ${[...langs].join(', ')})`);
}

/** vx translate check's glossary (texts as HTML, placeholders protected): what a translation into `lang` lacks of its source's terms, and the forbidden terms it uses. */
export function glossaryChecker(g: Glossary, from: string | undefined, file: string): (source: string, translation: string, lang: string) => string[] {
  const src = glossarySource(from, `give --from <lang> (${file} does not name the language of its sources)`);
  const matchers = new Map<string, TermMatcher>();
  const pairs = g.concepts.some((c) => c.terms.has(TARGET));
  return (source, translation, lang) => {
    let m = matchers.get(lang);
    if (!m && pairs) pairedWith(g, lang);
    if (!m) matchers.set(lang, (m = new TermMatcher(termTable(g, src, [lang]))));
    return [...missingTerms(m.find(source, true), 0, translation), ...forbiddenTerms(m.table, 0, translation)];
  };
}

/**
 * The glossary of a vx translate file|sync run (`given`: --glossary or the setting, else the one
 * beside the sources), its terms for the service languages of `to`; undefined without one.
 */
export async function openFilesGlossary(given: string | undefined, sources: readonly string[], from: string | undefined, to: readonly string[], warn?: (m: string) => void): Promise<GlossaryRun | undefined> {
  const file = await filesGlossary(given, sources);
  if (file === undefined) return undefined;
  const source = glossarySource(from, `give --from <lang> (the sources name no language, or not the same one)${given === undefined ? `; ${file} is the glossary beside them` : ''}`);
  return openGlossary(file, source, [...new Set(to.map(serviceLanguage))], true, warn);
}
