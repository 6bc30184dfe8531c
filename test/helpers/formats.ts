// A file format driven the way `vx translate file|sync` drives it, without the service: each
// part of each unit protected and sent through the emulator's pseudo-translation (or an answer
// given by the test), read back and checked as the run checks it, and the target rendered.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fromHtml, placeholderProblem, toHtml, tokenize, translatable, type Piece } from '../../src/api/translator/files/protect.js';
import type { FileFormat, SourceDoc, TargetDoc, UnitValue } from '../../src/api/translator/files/types.js';
import { translateHtml } from '../../src/emulator/translator/text.js';

export type Answer = (html: string, lang: string) => string;

/** The emulator's pseudo-translation (`[de] Ĥéļļö`). */
export const pseudoAnswer: Answer = (html, lang) => translateHtml(html, `[${lang}] `);

export interface Rendered {
  text: string;
  values: Map<string, UnitValue>;
  /** unit key -> why it was left untranslated */
  problems: Map<string, string>;
}

/** Translates every unit (or the keys given) of a source into `lang` and renders the target. */
export function translateDoc(format: FileFormat, source: SourceDoc, lang: string, o: { answer?: Answer; target?: TargetDoc; only?: Set<string> } = {}): Rendered {
  const answer = o.answer ?? pseudoAnswer;
  const values = new Map<string, UnitValue>();
  const problems = new Map<string, string>();
  for (const u of source.units) {
    if (o.only && !o.only.has(u.key)) {
      if (o.target?.values.has(u.key)) values.set(u.key, { kind: 'keep' });
      continue;
    }
    const out: Piece[][] = [];
    let problem: string | undefined;
    for (const part of u.parts) {
      const pieces = tokenize(part);
      if (!translatable(pieces)) {
        out.push(pieces);
        continue;
      }
      const back = fromHtml(answer(toHtml(pieces), lang), pieces);
      problem ??= placeholderProblem(pieces, back) ?? format.check?.(pieces, back);
      out.push(back);
    }
    if (problem) problems.set(u.key, problem);
    else values.set(u.key, { kind: 'new', parts: out });
  }
  return { text: format.render(source, lang, values, o.target, {}), values, problems };
}

/** Every file under a directory (relative paths), for fixtures kept in their app's layout. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

export const readText = (p: string) => readFileSync(p, 'utf8');
