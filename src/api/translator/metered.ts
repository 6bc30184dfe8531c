// The translator's sender with the run's character accounting: every request is paced with the
// run's other requests by one shared Pacer (cost: billed characters, i.e. characters x targets),
// and a budget stops the run before a request that would cross it is sent.
import { ThrottledError } from '../../core/errors.js';
import type { Paced } from '../../core/pacer.js';
import { countChars } from '../../model/translator.js';
import { fmt } from './batcher.js';
import type { BatchOutcome, TranslatorClient } from './client.js';

/** The next request would bill more than --budget allows: exit 6, nothing of that request sent. */
export class BudgetExceeded extends ThrottledError {
  constructor(
    readonly budget: number,
    readonly spent: number,
    readonly next: number,
  ) {
    super(`--budget ${fmt(budget)} characters reached: ${fmt(spent)} billed so far, the next request would bill ${fmt(next)} more`);
  }
}

export interface MeteredOptions {
  /** target languages: billed characters = characters x targets */
  targets: number;
  /** shared by every request of the run (and learned from its 429s) */
  pacer?: Paced;
  /** billed characters the run may spend at most */
  budget?: number;
  /** the spending shared with other senders of the run (to other targets), counted against one budget */
  account?: { spent: number };
  /** billed characters of a request of `texts` when they are not the texts as sent (a glossary's markup is added to them) */
  weigh?(texts: readonly string[]): number;
}

/** Billed characters of one request of `texts` to `targets` languages. */
export function billedChars(texts: readonly string[], targets: number): number {
  let chars = 0;
  for (const t of texts) chars += countChars(t);
  return chars * targets;
}

/**
 * How many of `texts`, from the first, one request may carry within the budget when `spent` is
 * billed already: all of them without a budget, else as many as fit what is left (0: none).
 */
export function affordable(texts: readonly string[], targets: number, budget: number | undefined, spent: number): number {
  if (budget === undefined) return texts.length;
  let left = budget - spent;
  for (let i = 0; i < texts.length; i++) {
    left -= countChars(texts[i]!) * targets;
    if (left < 0) return i;
  }
  return texts.length;
}

/**
 * affordable for texts a client adds to (a glossary's markup, weighed per request by `weigh`):
 * all of them without a budget, else the longest prefix that fits, found by halving.
 */
export function affordableWeighed(texts: readonly string[], weigh: (texts: readonly string[]) => number, budget: number | undefined, spent: number): number {
  // (without a budget every batch fits: the request weighs it once, when it is charged)
  if (budget === undefined) return texts.length;
  const left = budget - spent;
  if (weigh(texts) <= left) return texts.length;
  let lo = 0;
  let hi = texts.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (weigh(texts.slice(0, mid)) <= left) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The stop of a request billing `cost` when `spent` is billed already: undefined within the budget. */
export function overBudget(budget: number | undefined, spent: number, cost: number): BudgetExceeded | undefined {
  return budget !== undefined && spent + cost > budget ? new BudgetExceeded(budget, spent, cost) : undefined;
}

export class MeteredSender {
  private readonly account: { spent: number };

  constructor(
    private readonly client: Pick<TranslatorClient, 'translate'> & Partial<Pick<TranslatorClient, 'plan'>>,
    private readonly opts: MeteredOptions,
  ) {
    this.account = opts.account ?? { spent: 0 };
  }

  /** billed characters of the requests sent (or being sent), by every sender sharing the account */
  get spent(): number {
    return this.account.spent;
  }

  /** how many of `texts`, from the first, the next request may carry within the budget */
  affordable(texts: readonly string[]): number {
    const { budget, weigh } = this.opts;
    if (!weigh) return affordable(texts, this.opts.targets, budget, this.spent);
    return affordableWeighed(texts, weigh, budget, this.spent);
  }

  translate(texts: readonly string[], signal?: AbortSignal): Promise<BatchOutcome> {
    let cost: number;
    try {
      cost = this.charge(texts);
    } catch (e) {
      return Promise.reject(e as Error);
    }
    return this.client.translate(texts, signal, this.opts.pacer ? { pacer: this.opts.pacer, cost } : undefined);
  }

  /** --dry-run: the request recorded as translate would send it, the budget stopping it the same way; nothing sent */
  plan(texts: readonly string[]): void {
    if (!this.client.plan) throw new Error('MeteredSender.plan: the client cannot plan requests');
    this.charge(texts);
    this.client.plan(texts);
  }

  /** The request's billed characters, counted as spent; a BudgetExceeded (nothing counted) when it would cross the budget. */
  private charge(texts: readonly string[]): number {
    const cost = this.opts.weigh ? this.opts.weigh(texts) : billedChars(texts, this.opts.targets);
    const over = overBudget(this.opts.budget, this.spent, cost);
    if (over) throw over;
    this.account.spent += cost;
    return cost;
  }
}
