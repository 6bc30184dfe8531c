// The translate request: URL, headers (key, optional region, X-ClientTraceId) and body, sent
// through core/http marked idempotent (a translation is safe to repeat, so every batch is retried
// on 408/429/5xx and resets), and the answer checked and read with its three headers.
import { randomUUID } from 'node:crypto';
import type { Config } from '../../core/config/index.js';
import { ServiceError, VxError } from '../../core/errors.js';
import type { Authenticator, Http, HttpRequest } from '../../core/http/index.js';
import { countChars, HEADERS, TRANSLATE_PATH, type TranslateResult } from '../../model/translator.js';
import { targetGroups } from './batcher.js';
import { authenticator } from '../auth/authenticator.js';
import { serviceBase } from '../service.js';
import { translateQuery, type TranslateParams } from './options.js';

/** What one request gave back. */
export interface BatchOutcome {
  results: TranslateResult[];
  requestId?: string;
  /** X-MT-System: one entry per target (Custom for a custom system; Microsoft or Team for the general model) */
  mtSystem?: string;
  /** X-Metered-Usage: characters billed for the request */
  billed?: number;
  traceId: string;
  /** requests it took: more than one for an item too long for every target in one request (one per group of targets) */
  requests?: number;
}

/** The JSON body `[{"Text":"..."},...]` (one stringify of the whole array: measured fastest). */
export function requestBody(texts: readonly string[]): string {
  return JSON.stringify(texts.map((Text) => ({ Text })));
}

export class TranslatorClient {
  readonly url: string;

  private constructor(
    private readonly http: Http,
    private readonly base: string,
    private readonly auth: Authenticator,
    readonly params: TranslateParams,
  ) {
    this.url = `${base}${TRANSLATE_PATH}${translateQuery(params)}`;
  }

  /** The same request for some of the targets (indexes in --to order; --to-script follows them). */
  forTargets(targets: readonly number[]): TranslatorClient {
    const p = this.params;
    return new TranslatorClient(this.http, this.base, this.auth, { ...p, to: targets.map((k) => p.to[k]), ...(p.toScript ? { toScript: targets.map((k) => p.toScript![k]) } : {}) });
  }

  /** Resolves the endpoint and the key (exit 3 when no key is configured). */
  static async open(http: Http, config: Config, params: TranslateParams): Promise<TranslatorClient> {
    const base = serviceBase(config, 'translator');
    return new TranslatorClient(http, base, await authenticator(config, 'translator', http), params);
  }

  /** The request for one batch (a fresh X-ClientTraceId unless --trace-id gave one). */
  request(texts: readonly string[], signal?: AbortSignal, pace?: HttpRequest['pace']): HttpRequest {
    return {
      method: 'POST',
      url: this.url,
      auth: this.auth,
      headers: {
        'Content-Type': 'application/json; charset=UTF-8',
        [HEADERS.clientTraceId]: this.params.traceId ?? randomUUID(),
      },
      body: requestBody(texts),
      idempotent: true,
      describe: 'translate',
      signal,
      pace,
    };
  }

  /**
   * The target groups of a batch: one item whose characters x targets are more than one request
   * may count goes in one request per group of targets that fits; otherwise undefined (one request).
   */
  private split(texts: readonly string[]): number[][] | undefined {
    if (texts.length !== 1) return undefined;
    const groups = targetGroups(countChars(texts[0]), this.params.to.length);
    return groups.length > 1 ? groups : undefined;
  }

  /** Records the request of a batch for --dry-run (one per group of targets for a long item). */
  plan(texts: readonly string[]): void {
    const groups = this.split(texts);
    if (groups) for (const g of groups) this.forTargets(g).plan(texts);
    else this.http.plan(this.request(texts));
  }

  /**
   * Sends one batch; failures carry the client trace id in their message. With `pace`, the
   * request waits its turn and is paced with the run's other requests (see core/pacer).
   */
  async translate(texts: readonly string[], signal?: AbortSignal, pace?: HttpRequest['pace']): Promise<BatchOutcome> {
    const groups = this.split(texts);
    if (groups) return this.translateInGroups(texts, groups, signal, pace);
    const req = this.request(texts, signal, pace);
    const traceId = req.headers![HEADERS.clientTraceId]!;
    // only the count is needed once the body is built: the texts need not live through the round trip
    const count = texts.length;
    try {
      const res = await this.http.send(req);
      const results = res.json<TranslateResult[]>(false);
      if (!Array.isArray(results) || results.length !== count) {
        throw new ServiceError(
          `the service answered ${Array.isArray(results) ? `${results.length} results` : 'something other than a result array'} for ${count} items`,
          { requestId: res.requestId },
        );
      }
      const metered = res.headers[HEADERS.meteredUsage.toLowerCase()];
      const billed = metered !== undefined && /^\s*\d+\s*$/.test(metered) ? Number(metered) : undefined;
      return { results, requestId: res.requestId, mtSystem: res.headers[HEADERS.mtSystem.toLowerCase()], billed, traceId };
    } catch (e) {
      if (e instanceof VxError && e.exitCode !== 130 && e.exitCode !== 0 && !e.message.includes(traceId)) e.message += ` (client trace id ${traceId})`;
      throw e;
    }
  }

  /**
   * One item to its targets in several requests (one per group, in --to order, one after the
   * other), answered as one request to every target would be: the first answer's result with the
   * translations of all of them. Each request is paced for its own billed characters.
   */
  private async translateInGroups(texts: readonly string[], groups: number[][], signal?: AbortSignal, pace?: HttpRequest['pace']): Promise<BatchOutcome> {
    const targets = this.params.to.length;
    const outs: BatchOutcome[] = [];
    for (const g of groups) {
      const part = pace && { pacer: pace.pacer, cost: (pace.cost * g.length) / targets };
      outs.push(await this.forTargets(g).translate(texts, signal, part));
    }
    const first = outs[0].results[0];
    const result: TranslateResult = { ...first, translations: outs.flatMap((o) => o.results[0]?.translations ?? []) };
    const join = (values: (string | undefined)[]) => (values.every((v) => v === undefined) ? undefined : values.map((v) => v ?? '-').join(', '));
    return {
      results: [result],
      requestId: join(outs.map((o) => o.requestId)),
      mtSystem: outs.every((o) => o.mtSystem !== undefined) ? outs.map((o) => o.mtSystem).join(',') : undefined,
      billed: outs.every((o) => o.billed !== undefined) ? outs.reduce((n, o) => n + o.billed!, 0) : undefined,
      traceId: outs.map((o) => o.traceId).join(', '),
      requests: outs.length,
    };
  }
}
