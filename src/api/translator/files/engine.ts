// Sends the texts of many files to many languages in as few requests as the service's limits
// allow: each distinct text once (deduplicated across files and languages), grouped by the set
// of languages that need it so that one request translates it to all of them, each group sent
// through translateStream (stream.ts: batches at 1,000 items and 50,000 characters counted across
// the targets, several requests in flight, results in order).
import type { TranslatorClient } from '../client.js';
import { planTranslation, translateStream, type BatchSender } from '../stream.js';
import type { TranslateResult } from '../../../model/translator.js';
import { countChars, LIMITS } from '../../../model/translator.js';

/** One distinct text to translate and the languages that need it (with how many units each). */
export interface WorkItem {
  html: string;
  langs: Map<string, number>;
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
}

/** What the engine needs of a translation memory (api/translator/memory/). */
export interface FilesMemory {
  /** the memory's ids of a group's targets (in the group's language order) */
  ids(langs: string[]): string[];
  /** what is stored for each of `texts` for every target (one round trip), else undefined */
  lookupMany(ids: readonly string[], texts: readonly string[]): Promise<(TranslateResult | undefined)[]>;
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
export function groupItems(items: readonly WorkItem[], tooLong: Map<string, string>): Group[] {
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
    if (chars * langs.length > LIMITS.maxRequestChars) {
      for (const l of langs) add([l], { html: item.html, langs: new Map([[l, item.langs.get(l)!]]) });
    } else add(langs, item);
  }
  return [...groups.values()];
}

/** lookups of one batch at most */
const RECALL_BATCH = 2048;

/** What the memory holds of each item, language by language (indexed as `items`), a batch of lookups at a time. */
async function recallItems(items: readonly WorkItem[], memory: FilesMemory): Promise<Map<string, (TranslateResult | undefined)[]>> {
  const byLang = new Map<string, number[]>();
  items.forEach((item, i) => {
    for (const l of item.langs.keys()) (byLang.get(l) ?? byLang.set(l, []).get(l)!).push(i);
  });
  const out = new Map<string, (TranslateResult | undefined)[]>();
  for (const [l, which] of byLang) {
    const ids = memory.ids([l]);
    const found = new Array<TranslateResult | undefined>(items.length);
    for (let k = 0; k < which.length; k += RECALL_BATCH) {
      const batch = which.slice(k, k + RECALL_BATCH);
      const results = await memory.lookupMany(ids, batch.map((i) => items[i].html));
      batch.forEach((i, j) => (found[i] = results[j]));
    }
    out.set(l, found);
  }
  return out;
}

export async function translateItems(items: readonly WorkItem[], opts: EngineOptions): Promise<EngineResult> {
  const tooLong = new Map<string, string>();
  const translations = new Map<string, Map<string, string>>();
  let requests = 0;
  let billed: number | undefined;
  const done = new Map<string, number>();
  let memoryHits = 0;
  let partialHits = 0;
  const record = (langs: readonly string[], item: WorkItem, r: TranslateResult) => {
    let m = translations.get(item.html);
    if (!m) translations.set(item.html, (m = new Map()));
    // one translation per `to`, in the order asked (the service's code may differ from the file's: de for de-DE);
    // one without its text is none (the unit is left untranslated, and not stored in the memory)
    (r.translations ?? []).forEach((t, k) => {
      if (k < langs.length && typeof t?.text === 'string') m.set(langs[k], t.text);
    });
    for (const l of langs) done.set(l, (done.get(l) ?? 0) + (item.langs.get(l) ?? 0));
  };
  // what the memory holds is taken language by language: a text it holds for some languages is
  // sent for the others only (a language added to a project pays for that language alone)
  let work: readonly WorkItem[] = items;
  if (opts.memory) {
    const rest: WorkItem[] = [];
    work = rest;
    const stored = await recallItems(items, opts.memory);
    items.forEach((item, i) => {
      let missing: Map<string, number> | undefined;
      for (const [l, units] of item.langs) {
        const r = stored.get(l)![i];
        if (r) record([l], item, r);
        else (missing ??= new Map()).set(l, units);
      }
      if (!missing) memoryHits++;
      else if (missing.size < item.langs.size) partialHits++;
      if (missing) rest.push(missing.size === item.langs.size ? item : { html: item.html, langs: missing });
    });
    opts.progress?.(done);
  }
  const groups = groupItems(work, tooLong);
  for (const g of groups) {
    const ids = opts.memory?.ids(g.langs);
    const items = g.items;
    const client = await opts.client(g.langs);
    const texts = items.map((i) => i.html);
    const sender = opts.sender?.(client, g.langs) ?? client;
    if (opts.dryRun) {
      // through the sender when it plans: the budget stops the plan where it would stop the run
      await planTranslation(sender.plan ? { plan: (t) => sender.plan!(t) } : client, texts, g.langs.length);
      continue;
    }
    for await (const ev of translateStream(sender, texts, { targets: g.langs.length, concurrency: opts.concurrency, signal: opts.signal })) {
      if (ev.type !== 'batch') continue;
      requests++;
      if (ev.outcome.billed !== undefined) billed = (billed ?? 0) + ev.outcome.billed;
      ev.outcome.results.forEach((r, i) => {
        const item = items[ev.batch.first + i];
        record(g.langs, item, r);
        if (ids) opts.memory!.store(ids, item.html, r);
      });
      opts.progress?.(done);
    }
  }
  return { translations, requests, billed, tooLong, memoryHits, partialHits };
}
