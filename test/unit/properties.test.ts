// Property-based tests of the pure layers, in-process (thousands of cases in a second): every
// validator of user input either returns or throws a UsageError (never a TypeError); every
// renderer takes any JSON in every format; error bodies of any shape become one line; redaction
// removes a known secret wherever it sits; the retry delay stays in its bounds; next links never
// leave the configured origin. Fixed seed (VX_REL_PROPS_SEED to vary).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCount, checkFilter, checkLimit, checkResourceId, checkSegment, sinceToQueryStartTime } from '../../src/api/mgmt/validate.js';
import { buildBody, parseSets } from '../../src/api/erp/body.js';
import { parseParams } from '../../src/api/translator/options.js';
import { errorFromResponse, isVxError, oneLine, UsageError, VxError } from '../../src/core/errors.js';
import { report } from '../../src/cli/report.js';
import { tty } from '../helpers/tty.js';
import { parseRetryAfter, retryDelay } from '../../src/core/http/index.js';
import { FORMATS, render, parseFormat } from '../../src/core/output/index.js';
import { resolveNextLink } from '../../src/core/paging.js';
import { addSecret, clearSecrets, redact, redactHeaders } from '../../src/core/redact.js';
import { erpSets, checkValue, parseFieldText } from '../../src/model/erp/index.js';
import { RULES, type RuleName } from '../../src/model/mgmt.js';

const SEED = Number(process.env.VX_REL_PROPS_SEED ?? 424242);
const opts = (numRuns: number) => ({ numRuns, seed: SEED });
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 20 }));

/** runs `fn`; anything thrown must be a UsageError with a one-line message */
function usageOrValue(fn: () => unknown): void {
  try {
    fn();
  } catch (e) {
    expect(e, String(e)).toBeInstanceOf(UsageError);
    // (control characters of an echoed value are escaped when the message is printed: see below)
    expect(oneLine((e as Error).message)).not.toMatch(/[\n\u001b]/);
    // (an unknown field lists the known ones: long, but one line)
    expect((e as Error).message.length).toBeLessThan(2000);
  }
}

describe('validators of user input: a value or one UsageError line, never a crash', () => {
  it('mgmt: segments of every rule, counts, limits, filters, resource ids, --since', () => {
    const rules = Object.keys(RULES) as RuleName[];
    fc.assert(
      fc.property(fc.constantFrom(...rules), text, (rule, v) => {
        usageOrValue(() => checkSegment(rule, v, `--${rule}`));
        usageOrValue(() => checkCount('--top', v, 1));
        usageOrValue(() => checkLimit(v));
        usageOrValue(() => checkFilter(v));
        usageOrValue(() => checkResourceId(v));
        usageOrValue(() => sinceToQueryStartTime(v, new Date('2026-01-01T00:00:00Z')));
      }),
      opts(3000),
    );
  });

  it('numbers: huge, negative, fractional and exotic spellings are refused or exact', () => {
    const numeric = fc.oneof(fc.integer().map(String), fc.double().map(String), fc.bigInt().map(String), fc.constantFrom('1e309', '-0', '0x1F', '0b1', '1_000', ' 5', '5 ', '+5', '٣'));
    fc.assert(
      fc.property(numeric, (v) => {
        usageOrValue(() => {
          const n = checkLimit(v);
          expect(Number.isSafeInteger(n)).toBe(true);
          expect(n).toBeGreaterThanOrEqual(0);
        });
        usageOrValue(() => {
          const n = checkCount('--top', v, 1);
          if (n !== undefined) expect(Number.isSafeInteger(n) && n >= 1).toBe(true);
        });
      }),
      opts(3000),
    );
  });

  it('translate: any combination of flags gives parameters or one UsageError', () => {
    const lang = fc.oneof(fc.constantFrom('de', 'fr', 'zh-Hans', 'sr-Latn', 'en'), text);
    const flags = fc.record(
      {
        to: fc.array(fc.oneof(lang, fc.array(lang, { maxLength: 3 }).map((l) => l.join(','))), { maxLength: 4 }),
        from: lang,
        textType: fc.oneof(fc.constantFrom('plain', 'html', 'HTML'), text),
        category: text,
        profanityAction: fc.oneof(fc.constantFrom('NoAction', 'Marked', 'Deleted', 'marked'), text),
        profanityMarker: fc.oneof(fc.constantFrom('Asterisk', 'Tag'), text),
        alignment: fc.boolean(),
        sentenceLength: fc.boolean(),
        suggestedFrom: lang,
        fromScript: fc.oneof(fc.constantFrom('Latn', 'Cyrl'), text),
        toScript: fc.array(fc.oneof(fc.constantFrom('Latn', 'Cyrl'), text), { maxLength: 3 }),
        fallback: fc.boolean(),
        traceId: fc.oneof(fc.uuid(), text),
      },
      { requiredKeys: [] },
    );
    fc.assert(fc.property(flags, (f) => usageOrValue(() => parseParams(f as never))), opts(3000));
  });

  it('erp: --set pairs and --data of any shape for every entity set, create and update', () => {
    const settable = erpSets().filter((s) => s.operations.includes('create') || s.operations.includes('update'));
    const pair = fc.oneof(
      fc.tuple(fc.constantFrom(...settable.flatMap((s) => Object.keys(s.fields))), text).map(([k, v]) => `${k}=${v}`),
      text,
    );
    fc.assert(
      fc.property(fc.constantFrom(...settable), fc.constantFrom('create' as const, 'update' as const), fc.array(pair, { maxLength: 4 }), fc.option(fc.jsonValue({ maxDepth: 2 })), (set, mode, sets, data) => {
        usageOrValue(() => parseSets(set, sets));
        usageOrValue(() => buildBody(set, mode, data ?? undefined, sets));
      }),
      opts(3000),
    );
  });

  it('erp: a field value typed on the command line is parsed by its type, and what is accepted passes its own check', () => {
    const fields = erpSets().flatMap((s) => Object.values(s.fields));
    fc.assert(
      fc.property(fc.constantFrom(...fields), text, (f, v) => {
        // parseFieldText's errors are reasons that parseSets wraps into a UsageError naming the flag
        try {
          const parsed = parseFieldText(f, v);
          expect(checkValue(f, parsed)).toBeUndefined();
        } catch (e) {
          expect(e).toBeInstanceOf(Error);
          expect(e).not.toBeInstanceOf(TypeError);
          expect(e).not.toBeInstanceOf(RangeError);
        }
      }),
      opts(3000),
    );
  });

  it('output formats: parseFormat accepts exactly the listed names', () => {
    fc.assert(
      fc.property(text, (v) => {
        usageOrValue(() => {
          const f = parseFormat(v);
          if (f !== undefined) expect(FORMATS).toContain(f);
        });
      }),
      opts(2000),
    );
  });
});

describe('an error is printed as one line that cannot drive the terminal', () => {
  it('newlines and escape sequences in a message (typed by the user or sent by a service) are shown escaped', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 40 }), fc.option(fc.string({ unit: 'binary', maxLength: 20 })), async (msg, hint) => {
        const stderr = tty();
        const ctx = { io: { stderr }, errChalk: { red: (x: string) => x } } as never;
        const code = await report(new UsageError(`invalid value "${msg}"`, { hint: hint ?? undefined }), ctx, stderr, false);
        expect(code).toBe(2);
        const lines = stderr.text.split('\n');
        expect(lines.pop()).toBe('');
        expect(lines.length).toBe(1 + (hint ? hint.split('\n').length : 0));
        expect(stderr.text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      }),
      opts(2000),
    );
  });
});

describe('renderers take any JSON in every format', () => {
  it('json, yaml, table, tsv, ndjson, text, none', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom(...FORMATS), async (value, format) => {
        const out = await render(value, format, { width: 80 });
        expect(typeof out).toBe('string');
        if (format === 'json') expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      opts(1500),
    );
  });
});

describe('error responses of any shape', () => {
  it('become one VxError line naming the status, with the contract class of the status', () => {
    const body = fc.oneof(
      text,
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc.record({ error: fc.record({ code: fc.oneof(text, fc.integer()), message: fc.oneof(text, fc.constant(null)), details: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }) }).map((v) => JSON.stringify(v)),
      fc.constantFrom('<html><title>502 Bad Gateway</title></html>', '{"error":', '', 'null', '[]'),
    );
    fc.assert(
      fc.property(fc.integer({ min: 400, max: 599 }), body, fc.dictionary(fc.constantFrom('content-type', 'x-request-id', 'request-id'), text), (status, b, headers) => {
        const e = errorFromResponse(status, b, headers);
        expect(isVxError(e)).toBe(true);
        expect(e.message.startsWith(`HTTP ${status}`)).toBe(true);
        expect(e.exitCode).toBe(status === 401 || status === 403 ? 3 : status === 404 ? 4 : status === 409 || status === 412 ? 5 : status === 429 ? 6 : status === 408 || status >= 500 ? 7 : 1);
      }),
      opts(3000),
    );
  });
});

describe('redaction', () => {
  it('a registered secret never survives, wherever it sits and however it is encoded in a URL', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 6, maxLength: 30 }).filter((s) => s.trim().length >= 6), text, text, (secret, before, after) => {
        clearSecrets();
        addSecret(secret);
        for (const form of [secret, encodeURIComponent(secret)]) {
          const out = redact(`${before}${form}${after}`);
          // the secret may only remain where the surrounding text happens to rebuild it around the mask
          if (!`${before}${after}`.includes(secret)) expect(out.includes(secret) && !out.includes('***')).toBe(false);
        }
        const h = redactHeaders({ authorization: `Bearer ${secret}`, 'vendor-subscription-key': secret, 'x-other': `k=${secret}` });
        expect(JSON.stringify(h)).not.toContain(secret);
        clearSecrets();
      }),
      opts(2000),
    );
  });
});

describe('retry timing', () => {
  it('delays stay within [base*2^a/2, min(cap, base*2^a)], and Retry-After wins (capped at two minutes)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 60_000 }), fc.double({ min: 0, max: 0.9999, noNaN: true }), (attempt, base, cap, r) => {
        const d = retryDelay(attempt, undefined, { baseMs: base, capMs: cap, random: () => r });
        const exp = Math.min(cap, base * 2 ** attempt);
        expect(d).toBeGreaterThanOrEqual(Math.floor(exp / 2));
        expect(d).toBeLessThanOrEqual(Math.ceil(exp));
      }),
      opts(3000),
    );
    fc.assert(
      fc.property(text, (v) => {
        const ms = parseRetryAfter(v, 0);
        if (ms !== undefined) expect(Number.isFinite(ms) && ms >= 0).toBe(true);
        const d = retryDelay(0, v, { now: 0, random: () => 0.5 });
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(120_000);
      }),
      opts(3000),
    );
  });
});

describe('next links', () => {
  it('never leave the configured origin: a link elsewhere is refused with a VxError', () => {
    const origin = 'http://127.0.0.1:4010';
    const link = fc.oneof(
      fc.webUrl(),
      fc.webPath().map((p) => `${origin}${p}`),
      fc.webPath(),
      fc.constantFrom('//evil.example/x', 'http://127.0.0.1:4011/x', 'https://127.0.0.1:4010/x', 'javascript:alert(1)', 'http://user@127.0.0.1:4010/x', '\\\\evil/x'),
      text,
    );
    fc.assert(
      fc.property(link, (l) => {
        try {
          const next = resolveNextLink(l, `${origin}/erp/api/v2.0/companies`, origin);
          expect(new URL(next).origin).toBe(origin);
        } catch (e) {
          expect(e).toBeInstanceOf(VxError);
        }
      }),
      opts(3000),
    );
  });
});
