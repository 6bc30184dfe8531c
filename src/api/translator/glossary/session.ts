// A run with a glossary: each text's terms found once (bounded cache), the text sent to each
// target with that target's terms in the dictionary markup, one `to` per request that carries
// markup (the targets a batch carries none for together, and a batch without any to all its
// targets at once, as without a glossary), the markup never handed on (an element the service left
// is replaced by its translation), and each answer checked for the translations the glossary asks
// for.
import { countChars, LIMITS, type TranslateResult, type Translation } from '../../../model/translator.js';
import type { BatchOutcome, TranslatorClient } from '../client.js';
import type { HttpRequest } from '../../../core/http/index.js';
import { Recent } from './recent.js';
import { billedChars } from '../metered.js';
import { appliedTerms, markupChars, markText, missingTerms, NO_PROBLEMS, NONE, stripMarkup, type Hit, type TermMatcher } from './match.js';

type Inner = Pick<TranslatorClient, 'translate' | 'plan' | 'forTargets'>;
type Pace = HttpRequest['pace'];

/** texts whose terms are kept found (a text is found, weighed, sent and checked within a few batches; finding one again is cheap) */
const CACHE = 32_768;

/**
 * the texts measured lately that weighing, requests and checks find by their order: half as many
 * again as a run has out at once (see window), 2^14 by default
 */
const RECENT_BITS = 14;

/** the readers of the texts measured lately, each where it last stopped */
const WEIGH = 0;
const CHECK = 1;

/**
 * A text that holds terms: its terms (found once), and per run target whether it is sent with them
 * in the markup (not where none has a translation into that target, or where the markup makes it
 * longer than an item may be) and its billed characters as sent. A text without terms is null
 * wherever one of these stands. (The marked text itself is made when its batch is weighed, just
 * before its request: kept from the batcher to the answer's check, it would outlive the young
 * generation's collections.)
 */
class Marked {
  constructor(
    readonly hits: readonly Hit[],
    /** whether it is sent to the target with its terms in the markup */
    readonly marks: boolean,
    /** its billed characters as sent */
    readonly chars: number,
    /** the same for the next target of the run, if any */
    readonly next: Marked | undefined,
  ) {}

  /** the form for target `k` */
  at(k: number): Marked {
    return k === 0 ? this : this.next!.at(k - 1);
  }

  /** `text` (whose Marked this is) as sent to target `k` */
  sent(text: string, k: number): string {
    return this.at(k).marks ? markText(text, this.hits, k)! : text;
  }
}

/**
 * `text` (which holds `hits`) for each of the run's targets from `k` on (`targets` in all), as a
 * chain, the first target's first (no array per text)
 */
function marked(text: string, hits: readonly Hit[], targets: number, k = 0): Marked {
  const next = k + 1 < targets ? marked(text, hits, targets, k + 1) : undefined;
  const own = countChars(text);
  const markup = markupChars(hits, k);
  return markup > 0 && own + markup <= LIMITS.maxItemChars ? new Marked(hits, true, own + markup, next) : new Marked(hits, false, own, next);
}

export class GlossaryRun {
  /** the texts found lately: emptied when full (one lookup a text; a text let go is found again, as it was) */
  private cache = new Map<string, Marked | null>();
  private readonly lower: string[];
  /** the target indexes of the `to` array resolved last (each batch passes the same one) */
  private lastTo?: { to: readonly string[]; ks: number[] };
  /** the texts measured lately, in order, and where each reader of them last stopped */
  private ring?: Recent<Marked | null>;
  /** its size (2^bits texts), set by window */
  private bits = RECENT_BITS;
  private readonly cursors = [0, 0];

  constructor(
    readonly matcher: TermMatcher,
    /** the texts are HTML (--text-type html; locale files) */
    readonly html: boolean,
    /** the run's targets, in --to order */
    readonly to: readonly string[],
  ) {
    this.lower = to.map((t) => t.toLowerCase());
  }

  /**
   * The texts the run may have measured and not yet checked (those its requests in flight and the
   * batch being filled carry, see pendingItems): the texts measured lately are kept for that many
   * and half as many again (a text let go is found again, at a cost). Before the first is measured.
   */
  window(items: number): void {
    this.bits = Math.max(12, Math.min(22, Math.ceil(Math.log2(items * 1.5))));
  }

  /** the texts measured lately (made when first needed: a run that measures nothing makes no ring) */
  private recent(): Recent<Marked | null> {
    return (this.ring ??= new Recent(this.bits));
  }

  /** `text` with its terms found and marked for every target; null when it holds none */
  private mark(text: string): Marked | null {
    const hits = this.matcher.find(text, this.html);
    return hits.length ? marked(text, hits, this.to.length) : null;
  }

  /** a text's terms, from the cache, else found now (the texts measured lately are read by marks) */
  private found(text: string): Marked | null {
    let m = this.cache.get(text);
    if (m !== undefined) return m;
    m = this.mark(text);
    if (this.cache.size >= CACHE) this.cache.clear();
    this.cache.set(text, m);
    return m;
  }

  /** the run's target index of each of `to` (-1 when not one of them) */
  private indexes(to: readonly string[]): number[] {
    const last = this.lastTo;
    if (last?.to === to) return last.ks;
    const ks = to.map((t) => this.index(t));
    this.lastTo = { to, ks };
    return ks;
  }

  /** The occurrences of terms in a text. */
  hits(text: string): readonly Hit[] {
    return this.found(text)?.hits ?? NONE;
  }

  /** The text as sent to target `k`: its terms in the markup (none when that makes it longer than an item may be: the check then says what is missing). */
  sent(text: string, k: number): string {
    return this.found(text)?.sent(text, k) ?? text;
  }

  /** Billed characters of `texts` sent to the targets `to`, markup included (the budget and the pace count them). */
  weigh(texts: readonly string[], to: readonly string[]): number {
    const ks = this.indexes(to);
    let n = 0;
    let marks: (Marked | null)[] | undefined;
    const per: (string[] | undefined)[] = [];
    for (let j = 0; j < ks.length; j++) {
      const k = ks[j];
      if (k < 0) {
        n += billedChars(texts, 1);
        continue;
      }
      marks ??= this.marks(texts);
      const sent = new Array<string>(texts.length);
      let nk = 0;
      for (let i = 0; i < texts.length; i++) {
        const m = marks[i];
        if (m === null) {
          sent[i] = texts[i];
          nk += countChars(texts[i]);
        } else {
          sent[i] = m.sent(texts[i], k);
          nk += m.at(k).chars;
        }
      }
      per[k] = sent;
      this.counted.set(sent, nk);
      n += nk;
    }
    // (the request of these texts is made next, at once: it takes them from here)
    this.weighed = { texts, per };
    return n;
  }

  /** each text's Marked (null: no terms), in order */
  private marks(texts: readonly string[], reader = WEIGH): (Marked | null)[] {
    const marks = new Array<Marked | null | undefined>(texts.length);
    this.cursors[reader] = this.recent().valuesOf(texts, this.cursors[reader], marks);
    // (one the texts measured lately no longer hold: from the cache, or found again)
    for (let i = 0; i < texts.length; i++) if (marks[i] === undefined) marks[i] = this.found(texts[i]);
    return marks as (Marked | null)[];
  }

  /** the texts of the batch weighed last as sent to each target (its request is made right after) */
  private weighed?: { texts: readonly string[]; per: (string[] | undefined)[] };
  /** the billed characters of the texts as sent that a batch's weighing counted */
  private readonly counted = new WeakMap<readonly string[], number>();

  /** The billed characters of texts as sent (`sentAll`'s). */
  chars(sent: readonly string[]): number {
    return this.counted.get(sent) ?? billedChars(sent, 1);
  }

  /** `texts` as sent to target `k` */
  sentAll(texts: readonly string[], k: number): string[] {
    const w = this.weighed;
    return (w?.texts === texts && w.per[k]) || texts.map((t) => this.sent(t, k));
  }

  /** The characters each text takes in a request to one of `to` (the longest with its markup; -1 for a text without terms: its own): batches are cut by them. */
  measure(texts: readonly string[], to: readonly string[]): number[] {
    // (each text of a stream is measured once, as it is batched: its terms are found and marked here and kept in order)
    const sizes = new Array<number>(texts.length);
    const recent = this.recent();
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i];
      // (most texts hold no unit a term may begin with: that one search, and nothing more)
      const m = this.matcher.mayHold(text) ? this.mark(text) : null;
      recent.add(text, m);
      // (-1: as many as its own, which the batcher counts)
      sizes[i] = m === null ? -1 : this.longest(text, m, to);
    }
    return sizes;
  }

  /** the billed characters of the longest of a marked text's forms for the targets `to` */
  private longest(text: string, m: Marked, to: readonly string[]): number {
    let n = 0;
    const ks = this.indexes(to);
    for (let j = 0; j < ks.length; j++) n = Math.max(n, ks[j] < 0 ? countChars(text) : m.at(ks[j]).chars);
    // (a whole number as V8 keeps small integers: Math.max's may be a boxed double, which would
    // change the representation of the batcher's count, and the code that reads it)
    return n | 0;
  }

  /** What of the glossary applied to a text for target `to` (the memory key holds it), undefined when nothing did. */
  applied(text: string, to: string): string | undefined {
    const k = this.index(to);
    return k < 0 ? undefined : appliedTerms(this.hits(text), k);
  }

  private index(to: string): number {
    return this.lower.indexOf(to.toLowerCase());
  }

  /** The text as sent to target `to` when its terms apply to it; undefined when none does. */
  markFor(text: string, to: string): string | undefined {
    const k = this.index(to);
    if (k < 0) return undefined;
    const m = this.sent(text, k);
    return m === text ? undefined : m;
  }

  /** A translation with any dictionary element the service left replaced by its translation. */
  strip(text: string): string {
    return stripMarkup(text, this.html);
  }

  /** What a translation into `to` lacks of the terms of its source text. */
  missingFor(text: string, translation: string, to: string): string[] {
    const k = this.index(to);
    return k < 0 ? [] : [...missingTerms(this.hits(text), k, translation)];
  }

  /**
   * What the answers of `texts` lack, each `<lang>: the term "x" is not translated as "y"`: the
   * index and the problems of each answer that lacks something (none: an empty array).
   */
  problems(texts: readonly string[], results: readonly TranslateResult[]): [number, readonly string[]][] {
    let out: [number, readonly string[]][] | undefined;
    const marks = this.marks(texts, CHECK);
    for (let i = 0; i < texts.length; i++) {
      const m = marks[i];
      if (m === null) continue;
      const lacks = this.lacks(m.hits, results[i]);
      if (lacks.length) (out ??= []).push([i, lacks]);
    }
    return out ?? [];
  }

  private lacks(hits: readonly Hit[], result: TranslateResult): readonly string[] {
    let out: string[] | undefined;
    const ts = result.translations ?? [];
    for (let k = 0; k < ts.length; k++) {
      const t = ts[k];
      if (typeof t?.text !== 'string') continue;
      const missing = missingTerms(hits, k, t.text);
      for (let x = 0; x < missing.length; x++) (out ??= []).push(`${this.to[k]}: ${missing[x]}`);
    }
    return out ?? NO_PROBLEMS;
  }

  /** The client of the run around the translator's (its `forTargets` too). */
  client(inner: Inner): GlossaryClient {
    return new GlossaryClient(this, inner, this.to.map((_, k) => k));
  }
}

/** Sends a batch per target when any text of it carries markup for that target; otherwise as it is. */
export class GlossaryClient {
  constructor(
    private readonly run: GlossaryRun,
    private readonly inner: Inner,
    /** the run's target indexes this client sends to, in its own order */
    private readonly targets: readonly number[],
  ) {}

  forTargets(ts: readonly number[]): GlossaryClient {
    return new GlossaryClient(this.run, this.inner.forTargets(ts), ts.map((j) => this.targets[j]));
  }

  /** each target's texts (undefined when no text carries markup) */
  private marked(texts: readonly string[]): string[][] | undefined {
    const per = this.targets.map((k) => this.run.sentAll(texts, k));
    for (let j = 0; j < per.length; j++) if (carriesMarkup(per[j], texts)) return per;
    return undefined;
  }

  /** The requests of a batch sent as `per` (see marked): by target group (targetGroups), its client and its texts in parts within the service's limits. */
  private requests(per: readonly (readonly string[])[], texts: readonly string[]): { targets: number[]; client: Inner; parts: (readonly string[])[] }[] {
    return targetGroups(per, texts).map((g) => {
      const sent = per[g[0]];
      return { targets: g, client: g.length === per.length ? this.inner : this.inner.forTargets(g), parts: within(sent, g.length === 1 ? this.run.chars(sent) : billedChars(sent, 1), g.length) };
    });
  }

  plan(texts: readonly string[]): void {
    const per = this.marked(texts);
    if (!per) return this.inner.plan(texts);
    for (const r of this.requests(per, texts)) for (const part of r.parts) r.client.plan(part);
  }

  async translate(texts: readonly string[], signal?: AbortSignal, pace?: Pace): Promise<BatchOutcome> {
    const per = this.marked(texts);
    if (!per) return this.inner.translate(texts, signal, pace);
    // (the pace as given when it counts what this request costs, as it does for one target: a
    // pace made here would be an object of the same shape made at another place, which has V8
    // compile again the code that reads the one the sender makes)
    if (per.length === 1) {
      const chars = this.run.chars(per[0]);
      if (within(per[0], chars).length === 1) return this.strip(texts, per, await this.inner.translate(per[0], signal, pace && (pace.cost === chars ? pace : { pacer: pace.pacer, cost: chars })));
    }
    const outs: Part[] = [];
    for (const r of this.requests(per, texts)) {
      for (const part of r.parts) outs.push({ ...(await r.client.translate(part, signal, pace && { pacer: pace.pacer, cost: billedChars(part, r.targets.length) })), targets: r.targets });
    }
    return this.strip(texts, per, joinOutcomes(outs, texts.length, per.length));
  }

  /** the answers with the markup taken out where the service left it: those of the texts sent marked (per[j]: as sent to target j) */
  private strip(texts: readonly string[], per: readonly (readonly string[])[], out: BatchOutcome): BatchOutcome {
    const html = this.run.html;
    for (let j = 0; j < per.length; j++) {
      const sent = per[j];
      for (let i = 0; i < texts.length; i++) {
        if (sent[i] === texts[i]) continue;
        const t = out.results[i]?.translations?.[j];
        if (typeof t?.text === 'string') t.text = stripMarkup(t.text, html);
      }
    }
    return out;
  }
}

/** whether any of `sent` (texts as sent to a target) differs from `texts`: carries markup */
function carriesMarkup(sent: readonly string[], texts: readonly string[]): boolean {
  for (let i = 0; i < texts.length; i++) if (sent[i] !== texts[i]) return true;
  return false;
}

/** The requests of a batch by targets (`per[j]`: its texts as sent to target j): each target whose texts carry markup alone, then the others, if any, together. */
function targetGroups(per: readonly (readonly string[])[], texts: readonly string[]): number[][] {
  const groups: number[][] = [];
  const plain: number[] = [];
  for (let j = 0; j < per.length; j++) {
    if (carriesMarkup(per[j], texts)) groups.push([j]);
    else plain.push(j);
  }
  if (plain.length) groups.push(plain);
  return groups;
}

/** `texts` (`total` billed characters to one target) in requests to `targets` targets within the service's limits (markup makes a batch longer than it was counted) */
function within(texts: readonly string[], total: number, targets = 1): (readonly string[])[] {
  if (total * targets <= LIMITS.maxRequestChars) return [texts];
  const parts: string[][] = [];
  let part: string[] = [];
  let chars = 0;
  for (const t of texts) {
    const n = countChars(t) * targets;
    if (part.length && chars + n > LIMITS.maxRequestChars) {
      parts.push(part);
      part = [];
      chars = 0;
    }
    part.push(t);
    chars += n;
  }
  if (part.length) parts.push(part);
  return parts;
}

/** the answer of one request of a batch and the run's targets it went to (their translations in that order) */
type Part = BatchOutcome & { targets: readonly number[] };

/** The answers of the requests per target group (each group's parts in order) as one request to every target gives. */
function joinOutcomes(outs: readonly Part[], count: number, targets: number): BatchOutcome {
  // per target, each item's result (the whole of it, for what else the service said) and its translation there
  const results: TranslateResult[][] = Array.from({ length: targets }, () => []);
  const translations: (Translation | undefined)[][] = Array.from({ length: targets }, () => []);
  for (const o of outs) {
    for (let x = 0; x < o.targets.length; x++) {
      const j = o.targets[x];
      for (const r of o.results) {
        results[j].push(r);
        translations[j].push(r?.translations?.[x]);
      }
    }
  }
  const joined: TranslateResult[] = [];
  for (let i = 0; i < count; i++) {
    joined.push({ ...results[0][i], translations: translations.map((ts) => ts[i]).filter((t) => t !== undefined) });
  }
  const join = (values: (string | undefined)[]) => (values.every((v) => v === undefined) ? undefined : values.map((v) => v ?? '-').join(', '));
  return {
    results: joined,
    requestId: join(outs.map((o) => o.requestId)),
    mtSystem: outs.every((o) => o.mtSystem !== undefined) ? outs.map((o) => o.mtSystem).join(',') : undefined,
    billed: outs.every((o) => o.billed !== undefined) ? outs.reduce((n, o) => n + o.billed!, 0) : undefined,
    traceId: outs.map((o) => o.traceId).join(', '),
    requests: outs.reduce((n, o) => n + (o.requests ?? 1), 0),
  };
}
