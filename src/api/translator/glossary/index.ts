// Glossaries: read (read.ts), resolved for a run's languages (terms.ts), found in texts (match.ts)
// and applied to a run's requests and answers (session.ts).
import { UsageError } from '../../../core/errors.js';
import { TermMatcher } from './match.js';
import { readGlossary } from './read.js';
import { GlossaryRun } from './session.js';
import { termTable, type TermTable } from './terms.js';

export { GlossaryRun } from './session.js';

/** The service applies a dynamic dictionary only with the source language named: a glossary needs it. */
export function glossarySource(from: string | undefined, how: string): string {
  if (!from) throw new UsageError(`--glossary needs the source language: ${how} (the service applies a glossary's terms only when the source language is given, and the terms are looked up in it)`);
  return from;
}

const english = (lang: string) => /^en(?:-|$)/i.test(lang);

/**
 * The service's documentation asks that "the From and To languages must include English and
 * another supported language" for the dynamic dictionary: the note for the targets of `to` a run
 * from `from` sends terms to without English on either side; undefined when there are none.
 */
export function englishPairNote(from: string, to: readonly string[]): string | undefined {
  if (english(from)) return undefined;
  const others = to.filter((t) => !english(t));
  if (!others.length) return undefined;
  return `--glossary: the service applies its dynamic dictionary between English and another language only; from ${from} to ${others.join(', ')} it may leave a term as it is (each term missing from a translation is named)`;
}

/** The note for the targets of `to` no term of `table` has a translation into (translated without the glossary); undefined when there are none. */
export function untranslatedNote(table: TermTable, to: readonly string[]): string | undefined {
  if (!table.entries.length) return undefined;
  const none = to.filter((_, k) => table.entries.every((e) => e.to[k] === undefined));
  if (!none.length) return undefined;
  return `--glossary: no term of ${table.file} has a translation into ${none.join(', ')}: ${none.length > 1 ? 'they are' : 'it is'} translated without the glossary`;
}

/** A run's glossary: the file read and its terms resolved for `from` and the targets `to`; `warn` gets the notes of a pair without English and of targets the glossary has nothing for. */
export async function openGlossary(file: string, from: string, to: readonly string[], html: boolean, warn?: (m: string) => void): Promise<GlossaryRun> {
  const table = termTable(await readGlossary(file), from, to);
  const note = englishPairNote(from, to);
  if (note) warn?.(note);
  const none = untranslatedNote(table, to);
  if (none) warn?.(none);
  return new GlossaryRun(new TermMatcher(table), html, to);
}
