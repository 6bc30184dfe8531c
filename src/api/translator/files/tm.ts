// The translation memory as vx translate file|sync uses it. Units are sent as HTML with their
// placeholders protected (protect.ts), and stored so; a memory also holds plain texts, from
// vx translate runs and from the TMX of other tools (a vendor's `Hello <ph>{{name}}</ph>` is
// imported as the plain `Hello {{name}}`). A unit the memory lacks as HTML is looked up as that
// plain text too, and a plain answer whose placeholders are the unit's is taken, protected as the
// unit was: what a vendor translated is not paid for again.
import { keyOptions, type TranslationMemory } from '../memory/index.js';
import type { TranslateParams } from '../options.js';
import type { FilesMemory } from './engine.js';
import { placeholderProblem, plainOfHtml, tokenize, toHtml, type ProtectOptions } from './protect.js';
import type { TranslateResult, Translation } from '../../../model/translator.js';

/** A plain answer to a unit's plain `text`, protected as the unit was; undefined when it lost or changed a placeholder. */
function fromPlain(text: string, answer: TranslateResult, protect: ProtectOptions): TranslateResult | undefined {
  const source = tokenize(text, protect);
  const translations: Translation[] = [];
  for (const t of answer.translations) {
    const pieces = tokenize(t.text, protect);
    // another tool's answer that lost or changed a placeholder is not taken: the unit is sent
    if (placeholderProblem(source, pieces)) return undefined;
    translations.push({ ...t, text: toHtml(pieces) });
  }
  return { ...answer, translations } satisfies TranslateResult;
}

/**
 * `params(langs)`: the parameters of the requests of a group of languages (textType html).
 * `accept(html, text)`: whether a translation of a unit passes the unit's placeholder check; one
 * that does not is neither stored nor taken from the memory (the next run sends the unit again,
 * instead of failing it from the memory on every run).
 */
export function filesMemory(memory: TranslationMemory, params: (langs: string[]) => TranslateParams, protect: ProtectOptions, accept: (html: string, text: string) => boolean): FilesMemory {
  /** the options id of each HTML target -> the id of the same target for plain text */
  const plainIds = new Map<string, string>();
  return {
    ids(langs) {
      const p = params(langs);
      const ids = memory.idsFor(keyOptions(p));
      const plain = memory.idsFor(keyOptions({ ...p, textType: 'plain' }));
      ids.forEach((id, i) => plainIds.set(id, plain[i]));
      return ids;
    },
    async lookupMany(ids, htmls) {
      const hits = await memory.lookupMany(ids, htmls);
      const out = hits.map((hit, i) => (hit && hit.translations.every((t) => accept(htmls[i], t.text)) ? hit : undefined));
      const plain = ids.map((id) => plainIds.get(id));
      if (plain.some((id) => id === undefined)) return out;
      // what the memory lacks as HTML is looked up as plain text, in one more round trip
      const rest = out.flatMap((r, i) => (r ? [] : [i]));
      if (!rest.length) return out;
      const texts = rest.map((i) => plainOfHtml(htmls[i]));
      const answers = await memory.lookupMany(plain as string[], texts);
      rest.forEach((i, j) => (out[i] = answers[j] && fromPlain(texts[j], answers[j]!, protect)));
      return out;
    },
    async claim(ids, htmls) {
      const states = await memory.claim(ids, htmls);
      // a stored answer that fails the unit's check is sent again (and the answer replaces it)
      return states.map((c, i) => (c === 'held' ? c : 'result' in c && c.result.translations.every((t) => accept(htmls[i], t.text)) ? c.result : 'claimed'));
    },
    // a translation that fails the check leaves a hole: store() keeps the others
    store: (ids, html, result) => memory.store(ids, html, { ...result, translations: result.translations.map((t) => (typeof t?.text === 'string' && accept(html, t.text) ? t : (undefined as unknown as Translation))) }),
  };
}
