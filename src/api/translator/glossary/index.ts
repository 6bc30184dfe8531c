// Glossaries: read (read.ts), resolved for a run's languages (terms.ts), found in texts (match.ts)
// and applied to a run's requests and answers (session.ts).
import { UsageError } from '../../../core/errors.js';
import { TermMatcher } from './match.js';
import { readGlossary } from './read.js';
import { GlossaryRun } from './session.js';
import { termTable } from './terms.js';

export { GlossaryRun } from './session.js';

/** The service applies a dynamic dictionary only with the source language named: a glossary needs it. */
export function glossarySource(from: string | undefined, how: string): string {
  if (!from) throw new UsageError(`--glossary needs the source language: ${how} (the service applies a glossary's terms only when the source language is given, and the terms are looked up in it)`);
  return from;
}

/** A run's glossary: the file read and its terms resolved for `from` and the targets `to`. */
export async function openGlossary(file: string, from: string, to: readonly string[], html: boolean): Promise<GlossaryRun> {
  const table = termTable(await readGlossary(file), from, to);
  return new GlossaryRun(new TermMatcher(table), html, to);
}
