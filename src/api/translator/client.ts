// The translate request: URL, headers (key, optional region, X-ClientTraceId) and body, sent
// through core/http marked idempotent (a translation is safe to repeat, so every batch is retried
// on 408/429/5xx and resets), and the answer checked and read with its three headers.
import { randomUUID } from 'node:crypto';
import type { Config } from '../../core/config.js';
import { ServiceError, VxError } from '../../core/errors.js';
import type { Http, HttpRequest } from '../../core/http.js';
import { HEADERS, TRANSLATE_PATH, type TranslateResult } from '../../spec/translator.js';
import { authHeaders, serviceBase } from '../service.js';
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
}

/** The JSON body `[{"Text":"..."},...]` (one stringify of the whole array: measured fastest). */
export function requestBody(texts: readonly string[]): string {
  return JSON.stringify(texts.map((Text) => ({ Text })));
}

export class TranslatorClient {
  readonly url: string;

  private constructor(
    private readonly http: Http,
    base: string,
    private readonly headers: Record<string, string>,
    readonly params: TranslateParams,
  ) {
    this.url = `${base}${TRANSLATE_PATH}${translateQuery(params)}`;
  }

  /** Resolves the endpoint and the key (exit 3 when no key is configured). */
  static async open(http: Http, config: Config, params: TranslateParams): Promise<TranslatorClient> {
    const base = serviceBase(config, 'translator');
    const headers = await authHeaders(config, 'translator');
    return new TranslatorClient(http, base, headers, params);
  }

  /** The request for one batch (a fresh X-ClientTraceId unless --trace-id gave one). */
  request(texts: readonly string[], signal?: AbortSignal): HttpRequest {
    return {
      method: 'POST',
      url: this.url,
      headers: {
        ...this.headers,
        'Content-Type': 'application/json; charset=UTF-8',
        [HEADERS.clientTraceId]: this.params.traceId ?? randomUUID(),
      },
      body: requestBody(texts),
      idempotent: true,
      describe: 'translate',
      signal,
    };
  }

  /** Records the request of a batch for --dry-run. */
  plan(texts: readonly string[]): void {
    this.http.plan(this.request(texts));
  }

  /**
   * Sends one batch; failures carry the client trace id in their message. `labelOf(i)` names item
   * i of the batch in the error for a result that does not match it.
   */
  async translate(texts: readonly string[], signal?: AbortSignal, labelOf: (i: number) => string = (i) => `item ${i + 1}`): Promise<BatchOutcome> {
    const req = this.request(texts, signal);
    const traceId = req.headers![HEADERS.clientTraceId]!;
    // only the count is needed once the body is built: the texts need not live through the round trip
    const count = texts.length;
    try {
      const res = await this.http.send(req);
      const results = res.json<TranslateResult[]>();
      if (!Array.isArray(results) || results.length !== count) {
        throw new ServiceError(
          `the service answered ${Array.isArray(results) ? `${results.length} results` : 'something other than a result array'} for ${count} items`,
          { requestId: res.requestId },
        );
      }
      const wrong = mismatch(results, this.params.to);
      if (wrong) throw new ServiceError(`the service's answer for ${labelOf(wrong.index)} does not match the request: ${wrong.why}; nothing of it was written`, { requestId: res.requestId });
      const metered = res.headers[HEADERS.meteredUsage.toLowerCase()];
      const billed = metered !== undefined && /^\s*\d+\s*$/.test(metered) ? Number(metered) : undefined;
      return { results, requestId: res.requestId, mtSystem: res.headers[HEADERS.mtSystem.toLowerCase()], billed, traceId };
    } catch (e) {
      if (e instanceof VxError && e.exitCode !== 130 && e.exitCode !== 0 && !e.message.includes(traceId)) e.message += ` (client trace id ${traceId})`;
      throw e;
    }
  }
}

/**
 * The first result that does not match its item: one translation per target, in --to order, each
 * with a text (a missing one would print "undefined" or shift every later line). Undefined when all match.
 */
export function mismatch(results: readonly TranslateResult[], to: readonly string[]): { index: number; why: string } | undefined {
  for (let i = 0; i < results.length; i++) {
    const r = results[i];
    const ts = r?.translations;
    if (!Array.isArray(ts)) return { index: i, why: 'it has no translations array' };
    if (ts.length !== to.length) return { index: i, why: `${ts.length} translation${ts.length === 1 ? '' : 's'} for ${to.length} target${to.length === 1 ? '' : 's'} (${to.join(', ')})` };
    for (let k = 0; k < ts.length; k++) {
      const t = ts[k];
      if (typeof t?.to !== 'string' || t.to.toLowerCase() !== to[k].toLowerCase()) {
        return { index: i, why: `translation ${k + 1} is to ${JSON.stringify(t?.to ?? null)}, expected ${to[k]} (the --to order)` };
      }
      if (typeof t.text !== 'string') return { index: i, why: `the translation to ${to[k]} has no text (${t.text === undefined ? 'missing' : JSON.stringify(t.text)})` };
    }
  }
  return undefined;
}
