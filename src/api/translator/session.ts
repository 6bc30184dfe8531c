// One translation run, as `vx translate` makes it: every request paced by one pacer (learned from
// 429s, or the rate the user knows) and metered against the budget, each distinct text sent once
// (and the memory's answers not at all), every answer checked against its items before anything
// of it is handed on. What goes in is translate's Items (api/translator/input.ts); what comes out
// is one event per answered run of input items, in input order, and the run's counts. No terminal.
import { fmt } from './batcher.js';
import type { Items } from './input.js';
import { affordable, affordableWeighed, billedChars, BudgetExceeded, MeteredSender, overBudget } from './metered.js';
import { mismatch } from './rows.js';
import { newEstimate, ReuseFailure, reuseMisses, translateReusing, type InnerStream, type ReuseEstimate, type ReuseEvent, type ReuseOptions, type ReuseTotals } from './reuse/index.js';
import type { TranslatorClient } from './client.js';
import { BatchFailure, planTranslation, translateStream, type Batch, type BatchOutcome } from './stream.js';
import { InterruptedError, ServiceError } from '../../core/errors.js';
import type { Clock } from '../../core/clock.js';
import { Pacer } from '../../core/pacer.js';
import { LIMITS } from '../../model/translator.js';

/** the pause after which a partial batch of distinct texts is sent when the reader waits (a regular file) */
const REUSE_FLUSH_MS = 100;

export interface SessionOptions {
  /** the target languages, in --to order (each answer is checked against them) */
  to: readonly string[];
  concurrency: number;
  reuse: Pick<ReuseOptions, 'memory' | 'spill' | 'budget'>;
  /** the rate the user knows (characters a minute); else learned from 429s */
  perMinute?: number;
  /** the pacer's time (the run's clock: a test's fake clock paces without real waits) */
  clock?: Clock;
  /** billed characters the run may spend (exit 6 before a batch that would cross it) */
  budget?: number;
  signal: AbortSignal;
  /** the pause that sends a partial batch of a live input (see idle-flush.ts) */
  flushMs?: number;
  /** billed characters of `texts` sent to `to` when the client adds to them (a glossary's markup) */
  weigh?(texts: readonly string[], to: readonly string[]): number;
  /** the characters each text takes in a request to one of `to` when the client adds to it (batches are cut by them), in order; -1: its own */
  measure?(texts: readonly string[], to: readonly string[]): ArrayLike<number>;
  /** called with each answered request (the --debug line): `to` the targets it was sent to */
  onBatch?(batch: Batch, outcome: BatchOutcome, items: string, to: readonly string[]): void;
}

/** The client of a run: `forTargets` makes the same request for some of the targets (texts the memory holds for the others). */
export type SessionClient = Pick<TranslatorClient, 'translate'> & { forTargets?(targets: readonly number[]): Pick<TranslatorClient, 'translate'> };

/** What a run sent and what it saved. */
export interface SessionCounts {
  requests: number;
  billed: number;
  /** distinct texts in the requests answered (those handed on are in totals.sent: a stopped run sent fewer) */
  texts: number;
  /** requests whose answer carried no X-Metered-Usage */
  unmetered: number;
  totals: ReuseTotals;
  pacer: Pacer;
}

export function translateSession(client: SessionClient, input: Items, o: SessionOptions): { events: AsyncIterable<ReuseEvent>; counts: SessionCounts } {
  const pacer = new Pacer({ perMinute: o.perMinute, clock: o.clock });
  // one budget for every request of the run, whatever its targets
  const account = { spent: 0 };
  const counts: SessionCounts = { requests: 0, billed: 0, texts: 0, unmetered: 0, totals: { items: 0, sent: 0, memoryHits: 0, duplicates: 0 }, pacer };
  /** the inner stream of the requests to `to` (every target, or those the memory lacks for some texts) */
  const streamTo = (to: readonly string[], c: Pick<TranslatorClient, 'translate'>): InnerStream => async function* (texts, itemOf) {
    const targets = to.length;
    const sender = new MeteredSender(c, { targets, pacer, budget: o.budget, account, weigh: o.weigh && ((texts) => o.weigh!(texts, to)) });
    const name = (i: number) => input.label.one(itemOf(i) ?? 0);
    // a partial batch goes when no new distinct text comes for a while: the input's pause when it
    // is live, else shortly (the reader may be waiting for the output to catch up)
    const affordable = (batch: readonly string[]) => sender.affordable(batch);
    for await (const ev of translateStream(sender, texts, { targets, concurrency: o.concurrency, live: true, flushMs: input.live ? o.flushMs : REUSE_FLUSH_MS, signal: o.signal, measure: o.measure && ((ts) => o.measure!(ts, to)), affordable })) {
      if (ev.type !== 'batch') continue;
      const { batch: b, outcome: out } = ev;
      const wrong = mismatch(out.results, to);
      if (wrong) {
        throw new ServiceError(`the service's answer for ${name(b.first + wrong.index)} does not match the request: ${wrong.why}; nothing of it was written (client trace id ${out.traceId})`, {
          requestId: out.requestId,
        });
      }
      counts.requests += out.requests ?? 1;
      counts.texts += b.count;
      if (out.billed === undefined) counts.unmetered += out.requests ?? 1;
      else counts.billed += out.billed;
      o.onBatch?.(b, out, input.label.range(itemOf(b.first) ?? 0, itemOf(b.first + b.count - 1) ?? 0), to);
      yield ev;
    }
  };
  const forTargets = client.forTargets?.bind(client);
  const partial = forTargets && ((targets: readonly number[]) => streamTo(targets.map((k) => o.to[k]), forTargets(targets)));
  // read ahead what the requests in flight and the next batch can carry (more only keeps the items longer)
  const maxPending = pendingItems(o.concurrency);
  return { events: translateReusing(input.items, streamTo(o.to, client), { ...o.reuse, partial, maxPending }, counts.totals), counts };
}

/** The items a run with `concurrency` requests in flight reads ahead of its answers: what those requests and the next batch can carry. */
export function pendingItems(concurrency: number): number {
  return (concurrency + 1) * LIMITS.maxItems;
}

/** --verbose: what was sent and billed, what the memory and the dedupe saved, the rate reached. */
export function describeRun(delivered: number, c: SessionCounts, ms: number): string[] {
  const { requests, billed, texts, unmetered, totals } = c;
  const s = (n: number) => (n === 1 ? '' : 's');
  const what =
    requests === 0
      ? 'billed characters: 0'
      : unmetered === requests
        ? 'billed characters: not reported (no X-Metered-Usage)'
        : `billed characters: ${fmt(billed)} (X-Metered-Usage of ${fmt(requests - unmetered)} request${s(requests - unmetered)})`;
  const p = c.pacer.stats();
  const rate = ms > 0 ? Math.round((billed / ms) * 60_000) : 0;
  const limit = p.perMinute !== undefined ? `; limit ${p.rejected ? 'learned' : 'configured'}: ${fmt(Math.round(p.perMinute))} characters a minute` : '';
  return [
    `translated ${fmt(delivered)} item${s(delivered)} in ${fmt(requests)} request${s(requests)}; ${what}`,
    `memory hits: ${fmt(totals.memoryHits)}${totals.partialHits ? ` (and ${fmt(totals.partialHits)} for some targets, sent for the others only)` : ''}; duplicates not sent: ${fmt(totals.duplicates)}; distinct texts sent: ${fmt(texts)}; ` +
      `effective rate: ${fmt(rate)} billed characters a minute; throttled (429): ${fmt(p.rejected)}${limit}`,
  ];
}

/** A failure of the pay-once layer as the stream's own: the first unanswered input item names where it stopped. */
export function asStreamFailure(e: unknown): unknown {
  if (!(e instanceof ReuseFailure)) return e;
  const cause = e.cause instanceof BatchFailure ? e.cause.cause : e.cause;
  if (cause instanceof InterruptedError) return cause;
  return failureAt(e.item, cause);
}

/** A failure of the run at its `item`-th input item (1-based): the items before it were answered. */
function failureAt(item: number, cause: unknown): BatchFailure<Batch> {
  return new BatchFailure({ first: item - 1, count: 0, chars: 0, seq: 0, texts: [] } satisfies Batch, cause);
}

/**
 * --dry-run and --estimate: the requests the run would send, in order, nothing sent: the texts
 * neither repeated nor in the memory, to every target; then those the memory holds for some
 * targets, to the others (one set of requests per set of missing targets). `est` counts the whole
 * input. With a budget, `plan` gets the requests up to the one that would cross it, and the run's
 * stop follows (a BudgetExceeded failure at the first input item not answered: exit 6).
 */
export async function planSession(
  input: Items,
  o: PlanOptions,
  est: ReuseEstimate,
  plan?: (texts: readonly string[], missing?: readonly number[]) => void,
): Promise<void> {
  let spent = 0;
  let stop: BudgetExceeded | undefined;
  const weighed = planWeigh(o);
  if (weighed) est.markup ??= 0;
  /** how many of the texts the run sends (as the run does: those that fit the budget, then it stops) */
  const admit = (texts: readonly string[], targets: number, missing?: readonly number[]) => {
    if (stop) return 0;
    const cost = (ts: readonly string[]) => (weighed ? weighed(ts, missing) : billedChars(ts, targets));
    const fits = weighed ? affordableWeighed(texts, cost, o.budget, spent) : affordable(texts, targets, o.budget, spent);
    if (fits < texts.length) stop = overBudget(o.budget, spent + cost(texts.slice(0, fits)), cost(texts.slice(fits)));
    if (!fits) return 0;
    const sent = fits < texts.length ? texts.slice(0, fits) : texts;
    spent += cost(sent);
    plan?.(sent, missing);
    return fits;
  };
  // the input items (1-based) of the texts given and not yet planned: the first one unplanned is
  // where the run stops (what the batcher holds: one batch at most)
  const all = { items: [] as number[] };
  const partial = new Map<string, { missing: readonly number[]; texts: string[]; items: number[] }>();
  // (a count alone needs no texts kept: they are kept for a plan, or for where a budget stops it)
  const keep = plan !== undefined || o.budget !== undefined;
  const onPartial = (text: string, missing: readonly number[], item: number) => {
    if (weighed) est.markup = (est.markup ?? 0) + weighed([text], missing) - billedChars([text], missing.length);
    if (!keep) return;
    const key = missing.join(',');
    let p = partial.get(key);
    if (!p) partial.set(key, (p = { missing, texts: [], items: [] }));
    p.texts.push(text);
    p.items.push(item);
  };
  async function* misses() {
    for await (const { text, item } of reuseMisses(input.items, { ...o.reuse, targets: o.targets }, est, onPartial)) {
      if (weighed) est.markup = (est.markup ?? 0) + weighed([text]) - billedChars([text], o.targets);
      if (!stop) all.items.push(item);
      yield text;
    }
  }
  const planned = (group: { items: number[] }) => (texts: readonly string[], targets: number, missing?: readonly number[]) => void group.items.splice(0, admit(texts, targets, missing));
  await planTranslation({ plan: (texts) => planned(all)(texts, o.targets) }, misses(), o.targets);
  for (const p of partial.values()) await planTranslation({ plan: (texts) => planned(p)(texts, p.missing.length, p.missing) }, p.texts, p.missing.length);
  if (!stop) return;
  const unplanned = [all, ...partial.values()].map((g) => g.items[0]).filter((i) => i !== undefined);
  throw failureAt(Math.min(...unplanned), stop);
}

/** What --estimate and --dry-run plan with: the run's memory, budget and targets, and the client's weight of what it adds (a glossary's markup). */
export type PlanOptions = Pick<SessionOptions, 'reuse' | 'budget' | 'weigh'> & { targets: number; to?: readonly string[] };

/** the billed characters of texts sent to every target (or those of `missing`), as the client weighs them; undefined when it adds nothing */
function planWeigh(o: PlanOptions): ((texts: readonly string[], missing?: readonly number[]) => number) | undefined {
  const { weigh, to } = o;
  if (!weigh || !to) return undefined;
  return (texts, missing) => weigh(texts, missing ? missing.map((k) => to[k]!) : to);
}

/** The budget's stop of a planned run (other failures thrown). */
async function budgetStop(planned: Promise<void>): Promise<BatchFailure<Batch> | undefined> {
  try {
    await planned;
    return undefined;
  } catch (e) {
    if (e instanceof BatchFailure && e.cause instanceof BudgetExceeded) return e as BatchFailure<Batch>;
    throw e;
  }
}

/**
 * --dry-run: the request of every batch the run would send, planned on `client` (up to the
 * budget's stop), nothing sent; the stop is returned, to be thrown once the plan is printed.
 */
/** What plans a run's requests: the client (or a layer around it) and the same for some of the targets. */
export interface Planner {
  plan(texts: readonly string[]): void;
  forTargets(targets: readonly number[]): Planner;
}

export function planRun(client: Planner, input: Items, o: PlanOptions): Promise<BatchFailure<Batch> | undefined> {
  return budgetStop(planSession(input, o, newEstimate(), (texts, missing) => void (missing ? client.forTargets(missing) : client).plan(texts)));
}

/** --estimate: what the run would send and bill (estimateRecord), nothing sent; and the budget's stop, as the run would meet it. */
export async function estimateRun(input: Items, o: PlanOptions): Promise<{ record: ReturnType<typeof estimateRecord>; stopped?: BatchFailure<Batch> }> {
  const est = newEstimate();
  const stopped = await budgetStop(planSession(input, o, est));
  return { record: estimateRecord(est, o.targets), stopped };
}

/** --estimate's record: the items, what dedupe and the memory save, and the characters that would be billed. */
export function estimateRecord(est: ReuseEstimate, targets: number) {
  const partialHits = est.partialHits ?? 0;
  return {
    items: est.items,
    distinct: est.sent + est.memoryHits,
    duplicates: est.duplicates,
    memoryHits: est.memoryHits,
    partialHits,
    toSend: est.sent,
    characters: est.chars,
    targets,
    billedCharacters: est.chars * targets - (est.partialSaved ?? 0) + (est.markup ?? 0),
    // (with a glossary: the dictionary markup's share of them, which the service bills too)
    ...(est.markup !== undefined ? { markupCharacters: est.markup } : {}),
  };
}
