// The translation of a vx translate file|sync run: the distinct texts the plan found (plan.ts)
// sent with vx translate's pay-once settings (a translation memory, the pace, one budget for the
// whole run), one client per set of target languages. Nothing is written here: a failure leaves
// every target as it was (merge.ts and commit.ts write them afterwards).
import type { Config } from '../../../core/config/index.js';
import { asVxError, InterruptedError, VxError } from '../../../core/errors.js';
import type { Http } from '../../../core/http/index.js';
import { Pacer } from '../../../core/pacer.js';
import { serviceLanguage } from '../../../model/translator.js';
import { TranslatorClient } from '../client.js';
import type { OpenMemoryOptions, TranslationMemory } from '../memory/index.js';
import { MeteredSender } from '../metered.js';
import type { TranslateParams } from '../options.js';
import { closeRunMemory, openRunMemory, type RunSettings } from '../run-settings.js';
import { BatchFailure } from '../stream.js';
import { translateItems, type EngineResult } from './engine.js';
import { keepsPlaceholders, type Needs } from './plan.js';
import type { ProtectOptions } from './protect.js';
import { filesMemory } from './tm.js';
import type { GlossaryRun } from '../glossary/index.js';

export interface FilesRunOptions {
  http: Http;
  config: Config;
  env: OpenMemoryOptions['env'];
  /** says something once on stderr (the memory: a role that may only read it, lost during the run, left out) */
  warn(message: string): void;
  /** a line of the --debug trace */
  debug?(message: string): void;
  /** the parameters of every request (to, category, trace id) */
  params: TranslateParams;
  /** the source language (--from, else the one the sources name) */
  from?: string;
  concurrency: number;
  settings: RunSettings;
  protect: ProtectOptions;
  signal: AbortSignal;
  /** units done so far per service language */
  progress?(done: ReadonlyMap<string, number>): void;
  /** the permissions a new memory file gets (its sources') */
  mode?: number;
}

export interface FilesGlossaryRun {
  /** a glossary: its terms go in the markup to each language they apply to, the memory keys hold them */
  glossary?: GlossaryRun;
}

export interface FilesTranslated {
  result: EngineResult;
  /** whether a memory took part */
  memory: boolean;
  /** the memory failed as it closed (the translations are in: the targets are written all the same) */
  memoryFailure?: unknown;
  /** the memory's path when this run created it */
  memoryCreated?: string;
}

/** Units per service language: the bars' totals. */
export function unitTotals(needs: Needs): Map<string, number> {
  const totals = new Map<string, number>();
  for (const item of needs.items.values()) for (const [l, n] of item.langs) totals.set(l, (totals.get(l) ?? 0) + n);
  return totals;
}

/** Sends what the plan needs (--dry-run: plans the requests). A failure says that no target was written. */
export async function translateNeeds(needs: Needs, o: FilesRunOptions & FilesGlossaryRun): Promise<FilesTranslated> {
  const clients = new Map<string, TranslatorClient>();
  const pacer = new Pacer({ perMinute: o.settings.perMinute });
  const groupParams = (langs: string[]) => ({ ...o.params, from: o.from && serviceLanguage(o.from), to: langs.map(serviceLanguage), textType: 'html' as const });
  const account = { spent: 0 };
  const dryRun = o.http.dryRun;
  let memory: TranslationMemory | undefined;
  let failed = false;
  let memoryFailure: unknown;
  let result: EngineResult;
  try {
    // --dry-run only reads the memory (one that does not exist yet holds nothing)
    if (needs.items.size) memory = await openRunMemory(o.settings.memory, dryRun, { env: o.env, warn: o.warn, debug: o.debug, optional: o.settings.memoryOptional, readOnly: o.settings.memoryReadOnly, mode: o.mode, signal: o.signal });
    if (!dryRun) o.http.opts.connections = o.concurrency;
    const glossary = o.glossary;
    if (glossary) memory?.useGlossary((text, to) => glossary.applied(text, to));
    result = await translateItems([...needs.items.values()], {
      glossary,
      memory: memory && filesMemory(memory, groupParams, o.protect, keepsPlaceholders(needs, o.protect)),
      // one budget for the whole run: each group's sender spends from the same account
      sender: (client, langs) => new MeteredSender(client, { targets: langs.length, pacer, budget: o.settings.budget, account }),
      concurrency: o.concurrency,
      signal: o.signal,
      dryRun,
      progress: o.progress,
      client: async (langs) => {
        const key = langs.join(',');
        let c = clients.get(key);
        if (!c) {
          c = await TranslatorClient.open(o.http, o.config, groupParams(langs));
          clients.set(key, c);
        }
        return c;
      },
    });
  } catch (e) {
    failed = true;
    // nothing is written when the translation fails: every target stays as it was
    const err = e instanceof BatchFailure ? asVxError(e.cause) : e;
    if (err instanceof VxError && !(err instanceof InterruptedError) && !err.hint) err.hint = 'no target was written (each stays as it was)';
    throw err;
  } finally {
    // what was answered is kept in the memory even when the run fails (a rerun does not pay for it again)
    try {
      await closeRunMemory(memory, failed, o.warn);
    } catch (e) {
      memoryFailure = e;
    }
  }
  return { result, memory: memory !== undefined, memoryFailure, ...(memory?.created ? { memoryCreated: memory.path } : {}) };
}
