// A glossary as vx reads it, whatever its file's format: concepts, each with its terms per
// language (the preferred one first) and the terms a language must not use (TBX's deprecated and
// superseded terms). A map file's keys are in the source language, whichever it is: their language
// is SOURCE until a run names it.
import { UsageError } from '../../../core/errors.js';

/** the language of a map file's keys: the run's source language */
export const SOURCE = '*';
/** the language of a bilingual file's translations that names none (two columns): the run's one target */
export const TARGET = '+';

export interface Concept {
  /** language code (lower case, or SOURCE or TARGET) -> terms, the preferred one first */
  terms: Map<string, string[]>;
  /** language code (lower case) -> terms a translation must not use */
  forbidden: Map<string, string[]>;
}

export interface Glossary {
  /** the file it was read from */
  file: string;
  concepts: Concept[];
}

/** A glossary file vx cannot use: one line naming it (exit 2). */
export function badGlossary(file: string, why: string): UsageError {
  return new UsageError(`glossary ${file}: ${why}`);
}

/** Adds `term` for `lang` to a concept (blank terms are none). */
export function addTerm(c: Concept, lang: string, term: string, forbidden = false): void {
  const t = term.trim();
  if (!t) return;
  const m = forbidden ? c.forbidden : c.terms;
  const key = lang === SOURCE || lang === TARGET ? lang : lang.toLowerCase();
  const list = m.get(key);
  if (!list) m.set(key, [t]);
  else if (!list.includes(t)) list.push(t);
}

export const newConcept = (): Concept => ({ terms: new Map(), forbidden: new Map() });
