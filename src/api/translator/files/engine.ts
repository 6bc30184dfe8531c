// Sends the texts of many files to many languages in as few requests as the service's limits
// allow: each distinct text once (deduplicated across files and languages), grouped by the set
// of languages that need it so that one request translates it to all of them, each group sent
// through translateStream (stream.ts: batches at 1,000 items and 50,000 characters counted across
// the targets, several requests in flight, results in order).
import { sleep } from '../../../core/sleep.js';
import type { TranslatorClient } from '../client.js';
import { planTranslation, translateStream, type BatchSender } from '../stream.js';
import type { TranslateResult } from '../../../model/translator.js';
import { countChars, LIMITS } from '../../../model/translator.js';

/** One distinct text to translate and the languages that need it (with how many units each). */
export interface WorkItem {
  html: string;
  langs: Map<string, number>;
  /** the text sent, when it is not `html` (a glossary's terms in the dictionary markup, for its one language) */
  send?: string;
}

/** Texts that go to the same languages, sent together. */
export interface Group {
  langs: string[];
  items: WorkItem[];
}

export interface EngineOptions {
  concurrency: number;
  /** the client for a set of target languages (one request's `to`) */
  client(langs: string[]): Promise<TranslatorClient>;
  signal?: AbortSignal;
  /** units done so far per language (called as batches are delivered) */
  progress?(done: ReadonlyMap<string, number>): void;
  /** --dry-run: the requests are planned, not sent */
  dryRun?: boolean;
  /** the sender of a group's requests around its client (pacing, budget); default the client */
  sender?(client: TranslatorClient, langs: string[]): BatchSender & { plan?(texts: readonly string[]): void };
  /** a translation memory: what it holds (language by language) is not sent; what is sent is stored */
  memory?: FilesMemory;
  /** a glossary: a text its terms apply to goes to each such language alone, its terms in the markup; the markup never comes back */
  glossary?: FilesGlossary;
}

/** What the engine needs of a glossary (api/translator/glossary/). */
export interface FilesGlossary {
  /** the text as sent to a service language when its terms apply to it, else undefined */
  markFor(html: string, to: string): string | undefined;
  /** a translation with any markup the service left replaced by its translation */
  strip(text: string): string;
}

/** What the engine needs of a translation memory (api/translator/memory/). */
export interface FilesMemory {
  /** the memory's ids of a group's targets (in the group's language order) */
  ids(langs: string[]): string[];
  /** what is stored for each of `texts` for every target (one round trip), else undefined */
  lookupMany(ids: readonly string[], texts: readonly string[]): Promise<(TranslateResult | undefined)[]>;
  /**
   * Claims each of `texts` for this run (memory/claims.ts): its stored result (answered meanwhile),
   * 'claimed' (this run sends it), or 'held' (another run is translating it: asked again later).
   */
  claim(ids: readonly string[], texts: readonly string[]): Promise<(TranslateResult | 'claimed' | 'held')[]>;
  store(ids: readonly string[], text: string, result: TranslateResult): void;
}

export interface EngineResult {
  /** text -> language -> translation */
  translations: Map<string, Map<string, string>>;
  requests: number;
  /** X-Metered-Usage summed (undefined when no response had it) */
  billed?: number;
  /** items too long to send at all: text -> why */
  tooLong: Map<string, string>;
  /** texts the memory answered (not sent) */
  memoryHits: number;
  /** texts the memory answered for some of their languages (sent for the others only) */
  partialHits: number;
}

/**
 * Work items grouped by their language set; an item whose characters times its languages exceed
 * one request is sent language by language, one longer than an item may be is not sent at all.
 */
export function groupItems(items: readonly WorkItem[], tooLong: Map<string, string>, glossary?: FilesGlossary): Group[] {
  const groups = new Map<string, Group>();
  const add = (langs: string[], item: WorkItem) => {
    const key = langs.join(',');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { langs, items: [] }));
    g.items.push(item);
  };
  for (const item of items) {
    const langs = [...item.langs.keys()].sort();
    const chars = countChars(item.html);
    if (chars > LIMITS.maxItemChars) {
      tooLong.set(item.html, `${chars} characters with its placeholders protected; one item may have at most ${LIMITS.maxItemChars}`);
      continue;
    }
    // each language a glossary's terms apply to gets the text alone, its terms in the markup
    const marked = glossary ? langs.flatMap((l) => ((m) => (m !== undefined && countChars(m) <= LIMITS.maxItemChars ? [[l, m] as const] : []))(glossary.markFor(item.html, l))) : [];
    for (const [l, send] of marked) add([l], { html: item.html, send, langs: new Map([[l, item.langs.get(l)!]]) });
    const rest = marked.length ? langs.filter((l) => !marked.some(([m]) => m === l)) : langs;
    if (!rest.length) continue;
    const one = rest.length === langs.length ? item : { html: item.html, langs: new Map(rest.map((l) => [l, item.langs.get(l)!])) };
    if (chars * rest.length > LIMITS.maxRequestChars) {
      for (const l of rest) add([l], { html: item.html, langs: new Map([[l, item.langs.get(l)!]]) });
    } else add(rest, one);
  }
  return [...groups.values()];
}

/** lookups (and claims) of one batch at most */
const RECALL_BATCH = 2048;
/** the first wait before the units another run is translating are asked for again; it doubles up to POLL_MAX_MS */
const POLL_MS = 50;
const POLL_MAX_MS = 1000;

/** One unit of work for one language: an item and a language it needs. */
interface Need {
  item: WorkItem;
  lang: string;
}

/** The needs by language (in the order met). */
function byLanguage(needs: readonly Need[]): Map<string, Need[]> {
  const out = new Map<string, Need[]>();
  for (const n of needs) (out.get(n.lang) ?? out.set(n.lang, []).get(n.lang)!).push(n);
  return out;
}

/** `ask` over `needs` a language and a batch at a time: its answers in the order of `needs`' language groups. */
async function perLanguage<T>(needs: readonly Need[], ask: (lang: string, htmls: string[]) => Promise<T[]>): Promise<[Need, T][]> {
  const out: [Need, T][] = [];
  for (const [lang, group] of byLanguage(needs)) {
    for (let k = 0; k < group.length; k += RECALL_BATCH) {
      const batch = group.slice(k, k + RECALL_BATCH);
      const answers = await ask(
        lang,
        batch.map((n) => n.item.html),
      );
      batch.forEach((n, j) => out.push([n, answers[j]]));
    }
  }
  return out;
}

/** The needs as work items: one per item, with the languages it needs. */
function asWork(needs: readonly Need[]): WorkItem[] {
  const out = new Map<WorkItem, WorkItem>();
  for (const { item, lang } of needs) {
    let w = out.get(item);
    if (!w) out.set(item, (w = { html: item.html, langs: new Map() }));
    w.langs.set(lang, item.langs.get(lang)!);
  }
  // an item needed for all its languages goes as itself (its group is its language set)
  return [...out].map(([item, w]) => (w.langs.size === item.langs.size ? item : w));
}

/** A run of translateItems: what it recorded, what it sent. */
class FilesRun {
  readonly tooLong = new Map<string, string>();
  readonly translations = new Map<string, Map<string, string>>();
  requests = 0;
  billed: number | undefined;
  readonly done = new Map<string, number>();
  memoryHits = 0;
  partialHits = 0;

  constructor(private readonly opts: EngineOptions) {}

  record(langs: readonly string[], item: WorkItem, r: TranslateResult): void {
    let m = this.translations.get(item.html);
    if (!m) this.translations.set(item.html, (m = new Map()));
    // one translation per `to`, in the order asked (the service's code may differ from the file's: de for de-DE);
    // one without its text is none (the unit is left untranslated, and not stored in the memory)
    (r.translations ?? []).forEach((t, k) => {
      if (k < langs.length && typeof t?.text === 'string') m.set(langs[k], t.text);
    });
    for (const l of langs) this.done.set(l, (this.done.get(l) ?? 0) + (item.langs.get(l) ?? 0));
  }

  /**
   * What the memory holds, language by language (a text it holds for some languages is sent for
   * the others only: a language added to a project pays for that language alone); what it lacks is
   * claimed for this run: the needs to send, and those another run is translating.
   */
  async fromMemory(items: readonly WorkItem[], memory: FilesMemory): Promise<{ send: Need[]; held: Need[] }> {
    const needs = items.flatMap((item) => [...item.langs.keys()].map((lang) => ({ item, lang })));
    /** the languages the memory lacks, per item */
    const missing = new Map<WorkItem, number>();
    const lacking: Need[] = [];
    for (const [n, r] of await perLanguage(needs, (lang, htmls) => memory.lookupMany(memory.ids([lang]), htmls))) {
      if (r) this.record([n.lang], n.item, r);
      else {
        lacking.push(n);
        missing.set(n.item, (missing.get(n.item) ?? 0) + 1);
      }
    }
    for (const item of items) {
      const m = missing.get(item);
      if (m === undefined) this.memoryHits++;
      else if (m < item.langs.size) this.partialHits++;
    }
    const claimed = await this.claim(lacking, memory);
    this.opts.progress?.(this.done);
    return claimed;
  }

  /** Claims `needs` (see FilesMemory.claim): those answered meanwhile are recorded. */
  async claim(needs: readonly Need[], memory: FilesMemory): Promise<{ send: Need[]; held: Need[] }> {
    const send: Need[] = [];
    const held: Need[] = [];
    for (const [n, c] of await perLanguage(needs, (lang, htmls) => memory.claim(memory.ids([lang]), htmls))) {
      if (c === 'held') held.push(n);
      else if (c === 'claimed') send.push(n);
      else this.record([n.lang], n.item, c);
    }
    return { send, held };
  }

  /** Sends the work in groups of languages, each answer recorded (and stored). */
  async send(work: readonly WorkItem[]): Promise<void> {
    const opts = this.opts;
    for (const g of groupItems(work, this.tooLong, opts.glossary)) {
      const ids = opts.memory?.ids(g.langs);
      const client = await opts.client(g.langs);
      const texts = g.items.map((i) => i.send ?? i.html);
      const sender = opts.sender?.(client, g.langs) ?? client;
      if (opts.dryRun) {
        // through the sender when it plans: the budget stops the plan where it would stop the run
        await planTranslation(sender.plan ? { plan: (t) => sender.plan!(t) } : client, texts, g.langs.length);
        continue;
      }
      for await (const ev of translateStream(sender, texts, { targets: g.langs.length, concurrency: opts.concurrency, signal: opts.signal })) {
        if (ev.type !== 'batch') continue;
        this.requests++;
        if (ev.outcome.billed !== undefined) this.billed = (this.billed ?? 0) + ev.outcome.billed;
        ev.outcome.results.forEach((r, i) => {
          const item = g.items[ev.batch.first + i];
          // (the markup a glossary's terms went in never reaches a target, nor the memory)
          if (opts.glossary) for (const t of r.translations ?? []) if (typeof t?.text === 'string') t.text = opts.glossary.strip(t.text);
          this.record(g.langs, item, r);
          if (ids) opts.memory!.store(ids, item.html, r);
        });
        opts.progress?.(this.done);
      }
    }
  }

  /**
   * Waits for the units another run is translating, asking again after a wait that doubles while
   * nothing comes: its answers are recorded, what this run takes over (the other run's lease ran
   * out: it died) is sent.
   */
  async waitFor(held: Need[], memory: FilesMemory): Promise<void> {
    let delay = POLL_MS;
    while (held.length) {
      await sleep(delay, this.opts.signal);
      const before = held.length;
      const next = await this.claim(held, memory);
      held = next.held;
      if (next.send.length) await this.send(asWork(next.send));
      delay = held.length < before ? POLL_MS : Math.min(POLL_MAX_MS, delay * 2);
      this.opts.progress?.(this.done);
    }
  }
}

export async function translateItems(items: readonly WorkItem[], opts: EngineOptions): Promise<EngineResult> {
  const run = new FilesRun(opts);
  if (!opts.memory) await run.send(items);
  else {
    // this run's own claims are sent before it waits for another's: two runs each waiting for the
    // other's texts before sending their own would wait for ever
    const { send, held } = await run.fromMemory(items, opts.memory);
    await run.send(asWork(send));
    await run.waitFor(held, opts.memory);
  }
  const { translations, requests, billed, tooLong, memoryHits, partialHits } = run;
  return { translations, requests, billed, tooLong, memoryHits, partialHits };
}
