// Sends the texts of many files to many languages in as few requests as the service's limits
// allow: each distinct text once (deduplicated across files and languages), grouped by the set
// of languages that need it so that one request translates it to all of them, batched at 1,000
// items and 50,000 characters counted across the targets, several requests in flight.
import { Batcher, type Batch } from '../batcher.js';
import type { BatchOutcome, TranslatorClient } from '../client.js';
import { OrderedPipeline } from '../pipeline.js';
import { countChars, LIMITS } from '../../../spec/translator.js';

/** One distinct text to translate and the languages that need it (with how many units each). */
export interface WorkItem {
  html: string;
  langs: Map<string, number>;
}

interface GroupBatch extends Batch {
  langs: string[];
  items: WorkItem[];
}

export interface EngineOptions {
  concurrency: number;
  /** the client for a set of target languages (one request's `to`) */
  client(langs: string[]): Promise<TranslatorClient>;
  signal?: AbortSignal;
  /** units of `lang` done so far (called as batches are delivered) */
  progress?(lang: string, units: number): void;
  /** --dry-run: the requests are planned, not sent */
  dryRun?: boolean;
}

export interface EngineResult {
  /** text -> language -> translation */
  translations: Map<string, Map<string, string>>;
  requests: number;
  /** X-Metered-Usage summed (undefined when no response had it) */
  billed?: number;
  /** items too long to send at all: text -> why */
  tooLong: Map<string, string>;
}

/**
 * The requests for a set of work items: items grouped by their language set (an item whose
 * characters times its languages exceed one request is sent language by language), each group
 * batched at the limits.
 */
export function planBatches(items: readonly WorkItem[], tooLong: Map<string, string>): GroupBatch[] {
  const groups = new Map<string, { langs: string[]; items: WorkItem[] }>();
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
  const out: GroupBatch[] = [];
  let seq = 0;
  for (const g of groups.values()) {
    const b = new Batcher(g.langs.length);
    let pending: WorkItem[] = [];
    const close = () => {
      const batch = b.take();
      if (batch) out.push({ ...batch, seq: seq++, langs: g.langs, items: pending });
      pending = [];
    };
    for (const item of g.items) {
      const chars = countChars(item.html);
      if (!b.fits(chars)) close();
      b.push(item.html, chars);
      pending.push(item);
      if (b.full) close();
    }
    close();
  }
  return out;
}

export async function translateItems(items: readonly WorkItem[], opts: EngineOptions): Promise<EngineResult> {
  const tooLong = new Map<string, string>();
  const batches = planBatches(items, tooLong);
  const translations = new Map<string, Map<string, string>>();
  const clients = new Map<string, Promise<TranslatorClient>>();
  const clientFor = (langs: string[]) => {
    const key = langs.join(',');
    let c = clients.get(key);
    if (!c) clients.set(key, (c = opts.client(langs)));
    return c;
  };
  let requests = 0;
  let billed: number | undefined;
  if (opts.dryRun) {
    for (const b of batches) (await clientFor(b.langs)).plan(b.texts);
    return { translations, requests: 0, tooLong };
  }
  const done = new Map<string, number>();
  const pipeline = new OrderedPipeline<GroupBatch, BatchOutcome>({
    concurrency: opts.concurrency,
    signal: opts.signal,
    send: async (b, signal) => (await clientFor(b.langs)).translate(b.texts, signal),
    deliver: (b, o) => {
      requests++;
      if (o.billed !== undefined) billed = (billed ?? 0) + o.billed;
      o.results.forEach((r, i) => {
        const item = b.items[i];
        let m = translations.get(item.html);
        if (!m) translations.set(item.html, (m = new Map()));
        // one translation per `to`, in the order asked (the service's code may differ from the file's: de for de-DE)
        (r.translations ?? []).forEach((t, k) => {
          if (k < b.langs.length) m.set(b.langs[k], t.text);
        });
        for (const l of b.langs) done.set(l, (done.get(l) ?? 0) + (item.langs.get(l) ?? 0));
      });
      for (const l of b.langs) opts.progress?.(l, done.get(l) ?? 0);
    },
  });
  try {
    for (const b of batches) await pipeline.submit(b);
    await pipeline.finish();
  } catch (e) {
    pipeline.cancel();
    await pipeline.idle();
    throw e;
  }
  return { translations, requests, billed, tooLong };
}
