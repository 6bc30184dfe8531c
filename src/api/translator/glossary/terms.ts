// A glossary for one run: its source terms in the run's source language (its forbidden ones too:
// a source that still uses one means the concept), each with the translation every target language
// is to get (the concept's preferred term in that language), and the terms each target must not
// use. A language of the glossary serves a run's language of the same code (any case), else one of
// the same primary language (de-DE for de; de for de-CH; never zh-Hant for zh-Hans).
import type { UsageError } from '../../../core/errors.js';
import { badGlossary, SOURCE, TARGET, type Glossary } from './types.js';

export interface TermEntry {
  /** the source term, as the text must hold it (case-sensitive, as the service's dictionary is) */
  term: string;
  /** the translation per target (in --to order); undefined where the glossary has none */
  to: (string | undefined)[];
}

export interface TermTable {
  /** the glossary's file */
  file: string;
  entries: TermEntry[];
  /** per target (in --to order): terms a translation into it must not use */
  forbidden: string[][];
}

/** The glossary language that serves `wanted` (lower case), or undefined. */
export function pickLanguage(available: ReadonlySet<string>, wanted: string): string | undefined {
  const w = wanted.toLowerCase();
  if (available.has(w)) return w;
  const primary = w.split('-')[0];
  const regional = [...available].filter((a) => a !== SOURCE && a.split('-')[0] === w).sort();
  if (regional.length) return regional[0];
  return available.has(primary) ? primary : undefined;
}

/** A glossary of term pairs that names no language (TARGET), used for two languages at once: refused, `how` saying what to do instead. */
export function unnamedPairs(file: string, how: string): UsageError {
  return badGlossary(file, `it pairs each term with one translation and names no language: ${how}`);
}

/** The run's table of terms: `from` the source language, `to` the targets in --to order. */
export function termTable(g: Glossary, from: string, to: readonly string[]): TermTable {
  const available = new Set<string>();
  for (const c of g.concepts) for (const l of [...c.terms.keys(), ...c.forbidden.keys()]) available.add(l);
  const src = pickLanguage(available, from);
  if (!src && !available.has(SOURCE) && g.concepts.length) throw badGlossary(g.file, `it has no terms in the source language ${from} (its languages: ${[...available].sort().join(', ')})`);
  const targets = to.map((t) => pickLanguage(available, t));
  // (a term and its translation a row, no language named: the translation is the run's one target's)
  if (available.has(TARGET)) {
    if (to.length > 1) throw unnamedPairs(g.file, `translate into one language at a time with it (this run: ${to.join(', ')}), or give it a header row of language codes (en,de)`);
    if (to.length === 1) targets[0] ??= TARGET;
  }
  const byTerm = new Map<string, TermEntry>();
  const forbidden = to.map(() => new Set<string>());
  for (const c of g.concepts) {
    // (a deprecated or superseded source term is still the concept's name in a source text: it asks for the same translation)
    const sources = [...((src && c.terms.get(src)) || c.terms.get(SOURCE) || []), ...((src && c.forbidden.get(src)) || [])];
    const translations = targets.map((l) => (l ? c.terms.get(l)?.[0] : undefined));
    targets.forEach((l, k) => {
      for (const f of (l && c.forbidden.get(l)) || []) forbidden[k].add(f);
    });
    if (translations.every((t) => t === undefined)) continue;
    // (a term in two concepts: the first one's translations, where it has them)
    for (const term of sources) {
      const had = byTerm.get(term);
      if (!had) byTerm.set(term, { term, to: [...translations] });
      else had.to = had.to.map((t, k) => t ?? translations[k]);
    }
  }
  return { file: g.file, entries: [...byTerm.values()], forbidden: forbidden.map((s) => [...s]) };
}
