// The retry policy, timing, redaction in traces and error mapping of core/http.ts, against a small
// scripted loopback server (no real waiting: sleep is injected and records the delays).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthError, NetworkError, NotFoundError, ServiceError, ThrottledError, UnavailableError } from '../../src/core/errors.js';
import { Http, isIdempotent, parseRetryAfter, retryDelay, USER_AGENT, type HttpOptions } from '../../src/core/http/index.js';
import { addSecret, clearSecrets } from '../../src/core/redact.js';

type Step = (req: IncomingMessage, res: ServerResponse) => void;
let steps: Step[] = [];
let seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
let server: Server;
let base = '';

const reply = (status: number, body: unknown = {}, headers: Record<string, string> = {}): Step => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};
const reset: Step = (req) => req.socket.destroy();

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
      const step = steps.shift() ?? reply(200, { ok: true });
      step(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  steps = [];
  seen = [];
  clearSecrets();
});

/** the environment of the clients: VX_HTTP_CLIENT chooses the transport under test */
let transportEnv: Record<string, string> = {};

function client(opts: HttpOptions = {}) {
  const delays: number[] = [];
  const http = new Http({ retries: 4, backoffBaseMs: 100, random: () => 0.5, sleep: async (ms) => void delays.push(ms), env: transportEnv, ...opts });
  return { http, delays };
}

describe('parseRetryAfter / retryDelay', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads delta seconds (also fractional) and HTTP-dates', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0); // in the past
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
  it('uses Retry-After over backoff and caps it at two minutes', () => {
    expect(retryDelay(3, '2', { now })).toBe(2000);
    expect(retryDelay(0, 'Thu, 01 Jan 2026 00:00:05 GMT', { now })).toBe(5000);
    expect(retryDelay(0, '86400', { now })).toBe(120_000);
  });
  it('backs off exponentially with jitter in [exp/2, exp], capped', () => {
    for (let a = 0; a < 8; a++) {
      const exp = Math.min(1000, 100 * 2 ** a);
      expect(retryDelay(a, undefined, { baseMs: 100, capMs: 1000, random: () => 0 })).toBe(exp / 2);
      expect(retryDelay(a, undefined, { baseMs: 100, capMs: 1000, random: () => 0.999999 })).toBe(exp);
      for (let i = 0; i < 50; i++) {
        const d = retryDelay(a, undefined, { baseMs: 100, capMs: 1000 });
        expect(d).toBeGreaterThanOrEqual(exp / 2);
        expect(d).toBeLessThanOrEqual(exp);
      }
    }
    expect(retryDelay(30, 'not a date', { baseMs: 100, capMs: 1000, random: () => 1 })).toBe(1000);
  });
  it('knows the idempotent methods and the caller flag', () => {
    for (const m of ['GET', 'head', 'PUT', 'DELETE', 'OPTIONS']) expect(isIdempotent({ method: m })).toBe(true);
    for (const m of ['POST', 'PATCH']) expect(isIdempotent({ method: m })).toBe(false);
    expect(isIdempotent({ method: 'POST', idempotent: true })).toBe(true);
  });
});

// both transports: node:http (direct) and undici (used when a proxy is configured)
for (const transport of ['node', 'undici'] as const) {
  describe(`over ${transport}`, () => {
    beforeAll(() => {
      transportEnv = { VX_HTTP_CLIENT: transport };
    });
    afterAll(() => {
      transportEnv = {};
    });
    it('uses that transport', () => expect(new Http({ env: transportEnv }).transport).toBe(transport));

  describe('Http.send retries', () => {
    it('retries GET on 408/429/500/502/503/504, honouring Retry-After seconds and HTTP-dates', async () => {
      const date = new Date(Date.now() + 3000).toUTCString();
      steps = [reply(408), reply(429, {}, { 'retry-after': '2' }), reply(500), reply(503, {}, { 'retry-after': date }), reply(502), reply(504)];
      const { http, delays } = client({ retries: 10 });
      const res = await http.send({ method: 'GET', url: `${base}/x` });
      expect(res.status).toBe(200);
      expect(seen).toHaveLength(7);
      expect(delays[0]).toBe(75); // backoff: 100 * 2^0 -> [50,100], random 0.5
      expect(delays[1]).toBe(2000);
      expect(delays[2]).toBe(300); // 100*2^2=400 -> 200 + 200*0.5
      expect(delays[3]).toBeGreaterThan(1000);
      expect(delays[3]).toBeLessThanOrEqual(3000);
      expect(delays.slice(4)).toEqual([1200, 2400]);
    });

    it('does not retry 400, 401, 404, 409 or 501', async () => {
      for (const [status, Cls] of [[400, ServiceError], [401, AuthError], [404, NotFoundError], [501, UnavailableError]] as const) {
        steps = [reply(status, { error: { code: 'X', message: 'no' } })];
        seen = [];
        const { http, delays } = client();
        await expect(http.send({ method: 'GET', url: `${base}/x` })).rejects.toBeInstanceOf(Cls);
        expect(seen).toHaveLength(1);
        expect(delays).toEqual([]);
      }
    });

    it('a paced request waits its turn, teaches the pacer each 429 and is not given up for throttling while the run makes progress', async () => {
      const { Pacer } = await import('../../src/core/pacer.js');
      const calls: string[] = [];
      // a clock whose waits pass at once (the pacer's own timing is test/unit/pacer.test.ts's business)
      let t = 0;
      const pacer = new Pacer({ clock: { now: () => t, sleep: async (ms) => void (t += ms), yield: async () => undefined } });
      // other requests of the run are accepted meanwhile: one more each time this one is throttled
      let others = 0;
      const spy = {
        acquire: async (cost: number, signal?: AbortSignal) => (calls.push(`acquire ${cost}`), pacer.acquire(cost, signal)),
        accepted: (t: Parameters<typeof pacer.accepted>[0]) => (calls.push('accepted'), pacer.accepted(t)),
        throttled: (t: Parameters<typeof pacer.throttled>[0], ra?: number) => (calls.push(`throttled ${ra}`), others++, pacer.throttled(t, ra)),
        stats: () => ({ accepted: others }),
      };
      // more 429s than --retries allows: a paced request still goes on
      steps = [...Array(6)].map(() => reply(429, {}, { 'retry-after': '2' })).concat(reply(200, { ok: true }));
      const { http, delays } = client({ retries: 2 });
      const res = await http.send({ method: 'POST', url: `${base}/translate`, body: '[]', idempotent: true, pace: { pacer: spy, cost: 1234 } });
      expect(res.status).toBe(200);
      expect(seen).toHaveLength(7);
      expect(delays).toEqual([2000, 2000, 2000, 2000, 2000, 2000]);
      expect(calls).toEqual([...Array(6)].flatMap(() => ['acquire 1234', 'throttled 2000']).concat('acquire 1234', 'accepted'));
      expect(pacer.stats()).toMatchObject({ accepted: 1, rejected: 6, units: 1234 });
      // a run where nothing is accepted: 429s meet --retries like any retryable failure (exit 6)
      const stuck = new Pacer({ clock: { now: () => t, sleep: async (ms) => void (t += ms), yield: async () => undefined } });
      steps = [...Array(3)].map(() => reply(429, {}, { 'retry-after': '1' }));
      await expect(http.send({ method: 'POST', url: `${base}/translate`, body: '[]', idempotent: true, pace: { pacer: stuck, cost: 1 } })).rejects.toBeInstanceOf(ThrottledError);
      expect(seen).toHaveLength(10);
      // other failures still count against --retries
      steps = [reply(500), reply(500), reply(500)];
      calls.length = 0;
      const released = { ...spy, released: (t: Parameters<typeof pacer.accepted>[0]) => (calls.push('released'), pacer.released(t)) };
      await expect(http.send({ method: 'POST', url: `${base}/translate`, body: '[]', idempotent: true, pace: { pacer: released, cost: 1 } })).rejects.toBeInstanceOf(UnavailableError);
      expect(seen).toHaveLength(13);
      // each failed attempt's ticket goes back to the pacer unlearned
      expect(calls).toEqual([...Array(3)].flatMap(() => ['acquire 1', 'released']));
    });
    it("a paced request's huge Retry-After is capped at 2 minutes for the pacer too (it once booked the whole day and held the run)", async () => {
      const { Pacer } = await import('../../src/core/pacer.js');
      // one clock for the pacer's waits and the retry's
      let t = 0;
      const pacer = new Pacer({ clock: { now: () => t, sleep: async (ms) => void (t += ms), yield: async () => undefined } });
      const delays: number[] = [];
      const http = new Http({ retries: 4, sleep: async (ms) => void (delays.push(ms), (t += ms)), env: transportEnv });
      steps = [reply(429, {}, { 'retry-after': '86400' }), reply(200, { ok: true })];
      const res = await http.send({ method: 'POST', url: `${base}/translate`, body: '[]', idempotent: true, pace: { pacer, cost: 5 } });
      expect(res.status).toBe(200);
      expect(delays).toEqual([120_000]);
      expect(t).toBe(120_000);
    });
    it('retries a POST only on 429 and 503 unless the caller marks it idempotent', async () => {
      steps = [reply(429, {}, { 'retry-after': '0' }), reply(503, {}, { 'retry-after': '0' }), reply(201, { id: 1 })];
      const a = client();
      expect((await a.http.send({ method: 'POST', url: `${base}/x`, body: { a: 1 } })).status).toBe(201);
      expect(seen).toHaveLength(3);
      expect(a.delays).toEqual([0, 0]);

      for (const status of [500, 502, 504, 408]) {
        seen = [];
        steps = [reply(status)];
        const b = client();
        await expect(b.http.send({ method: 'POST', url: `${base}/x`, body: { a: 1 } })).rejects.toBeInstanceOf(UnavailableError);
        expect(seen).toHaveLength(1);
        seen = [];
        steps = [reply(status)];
        await expect(client().http.send({ method: 'PATCH', url: `${base}/x`, body: {} })).rejects.toBeInstanceOf(UnavailableError);
        expect(seen).toHaveLength(1);
      }

      seen = [];
      steps = [reply(500), reply(502), reply(200, [])];
      expect((await client().http.send({ method: 'POST', url: `${base}/x`, body: [], idempotent: true })).status).toBe(200);
      expect(seen).toHaveLength(3);
    });

    it('--retries bounds the attempts and the message counts them', async () => {
      steps = [reply(429), reply(429), reply(429), reply(429)];
      const { http, delays } = client({ retries: 2 });
      const err = await http.send({ method: 'GET', url: `${base}/x` }).catch((e) => e);
      expect(err).toBeInstanceOf(ThrottledError);
      expect(err.exitCode).toBe(6);
      expect(err.message).toMatch(/^HTTP 429 Too Many Requests.*\(after 3 attempts\)$/);
      expect(seen).toHaveLength(3);
      expect(delays).toHaveLength(2);

      seen = [];
      steps = [reply(503)];
      const zero = client({ retries: 0 });
      await expect(zero.http.send({ method: 'GET', url: `${base}/x` })).rejects.toBeInstanceOf(UnavailableError);
      expect(seen).toHaveLength(1);
    });

    it('retries a reset GET but never repeats a reset POST (outcome unknown, exit 8, the check hint)', async () => {
      steps = [reset, reply(200, { ok: 1 })];
      const a = client();
      expect((await a.http.send({ method: 'GET', url: `${base}/x` })).json()).toEqual({ ok: 1 });
      expect(seen).toHaveLength(2);

      seen = [];
      steps = [reset, reply(200)];
      const err = await client()
        .http.send({ method: 'POST', url: `${base}/x`, body: { a: 1 }, describe: 'create thing', checkHint: 'vx things list' })
        .catch((e) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect(err.exitCode).toBe(8);
      expect(err.message).toMatch(/^create thing: .*the outcome is unknown.*not repeated; check with: vx things list$/);
      expect(seen).toHaveLength(1);
    });

    it('a refused connection is retried even for POST (nothing was sent) and ends with exit 8', async () => {
      const dead = createServer();
      await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
      const port = (dead.address() as AddressInfo).port;
      await new Promise<void>((r) => dead.close(() => r()));
      const { http, delays } = client({ retries: 2 });
      const err = await http.send({ method: 'POST', url: `http://127.0.0.1:${port}/x`, body: {} }).catch((e) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect(err.message).toMatch(/ECONNREFUSED.*\(after 3 attempts\)/);
      expect(delays).toHaveLength(2);
      await http.close();
    });

    it('times out per request: GET is retried, POST is reported as unknown outcome', async () => {
      const hang: Step = () => undefined;
      steps = [hang, hang];
      const a = client({ retries: 1, timeoutMs: 100 });
      const err = await a.http.send({ method: 'GET', url: `${base}/x` }).catch((e) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect(err.message).toMatch(/timed out after \d+ ms \(after 2 attempts\)/);
      expect(seen).toHaveLength(2);
      await a.http.close();

      seen = [];
      steps = [hang];
      const b = client({ timeoutMs: 100 });
      const e2 = await b.http.send({ method: 'POST', url: `${base}/x`, body: {} }).catch((e) => e);
      expect(e2).toBeInstanceOf(NetworkError);
      expect(e2.message).toMatch(/timed out.*outcome is unknown/);
      expect(seen).toHaveLength(1);
      await b.http.close();
    });
  });

  describe('Http.send details', () => {
    it('sends User-Agent vx/<version>, JSON bodies with a content type, and returns the request id', async () => {
      steps = [reply(200, { a: 1 }, { 'x-request-id': 'rid-1' })];
      const { http } = client();
      const res = await http.send({ method: 'post', url: `${base}/x`, body: { hello: 'wörld' } });
      expect(seen[0].headers['user-agent']).toBe(USER_AGENT);
      expect(USER_AGENT).toMatch(/^vx\/\d+\.\d+\.\d+/);
      expect(seen[0].headers['content-type']).toBe('application/json');
      expect(seen[0].body).toBe('{"hello":"wörld"}');
      expect(res.requestId).toBe('rid-1');
    });

    it('a malformed JSON body is a ServiceError naming the content type, not a crash', async () => {
      steps = [reply(200, '{"value": [1, 2', { 'content-type': 'application/json' })];
      const res = await client().http.send({ method: 'GET', url: `${base}/x` });
      expect(() => res.json()).toThrow(ServiceError);
      expect(() => res.json()).toThrow(/HTTP 200 from GET .*: the response is not valid JSON \(application\/json: "\{"value": \[1, 2"\)/);
    });

    it('a token answer cut short never shows the start of the token in its "not valid JSON" error; a service error body is redacted before it is cut', async () => {
      steps = [reply(200, '{"access_token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6', { 'content-type': 'application/json' })];
      const res = await client().http.send({ method: 'POST', url: `${base}/token` });
      expect(() => res.json()).toThrow(/the response is not valid JSON \(application\/json: "\{"access_token":"\*\*\*"\)$/);
      const secret = 'sekret-echoed-0123456789abcdef';
      addSecret(secret);
      steps = [reply(400, `invalid request: ${'x'.repeat(180)} token ${secret} was refused`, { 'content-type': 'text/plain' })];
      const err = (await client().http.send({ method: 'GET', url: `${base}/x` }).catch((e: unknown) => e)) as Error;
      expect(err.message).not.toContain('sekret-');
      // the same for a 200 that carries an error, its message cut at 1,000 characters
      steps = [reply(200, { error: { code: 'Bad', message: `${'m'.repeat(990)} ${secret}` } })];
      const hidden = (await client().http.send({ method: 'GET', url: `${base}/x` }).catch((e: unknown) => e)) as Error;
      expect(hidden.message).toContain('carried an error instead of a result');
      expect(hidden.message).not.toContain('sekret-');
    });

    it('refuses a body over the limit', async () => {
      steps = [reply(200, 'x'.repeat(5000))];
      await expect(client({ maxBodyBytes: 1000 }).http.send({ method: 'GET', url: `${base}/x` })).rejects.toThrow(/larger than 1000 bytes/);
    });

    it('--debug traces method, URL, status, headers and bodies with every secret redacted', async () => {
      addSecret('sekret-key-123');
      steps = [reply(200, { access_token: 'tok-from-server', echo: 'sekret-key-123' }, { 'set-cookie': 'sid=abc' })];
      const lines: string[] = [];
      const { http } = client({ debug: (l) => lines.push(l) });
      await http.send({
        method: 'POST',
        url: `${base}/x?key=sekret-key-123`,
        headers: { Authorization: 'Bearer abcdefghijklmnopqrstuvwxyz0123', 'Vendor-Subscription-Key': 'sekret-key-123', 'X-Other': 'visible' },
        body: '{"client_secret":"cs-999999"}',
      });
      const trace = lines.join('\n');
      expect(trace).toContain(`> POST ${base}/x?key=***`);
      expect(trace).toContain('> authorization: Bearer ***');
      expect(trace).toContain('> vendor-subscription-key: ***');
      expect(trace).toContain('> x-other: visible');
      expect(trace).toMatch(/< 200 \(\d+ ms\)/);
      expect(trace).toContain('< set-cookie: ***');
      for (const s of ['sekret-key-123', 'abcdefghijklmnopqrstuvwxyz0123', 'cs-999999', 'tok-from-server', 'sid=abc']) expect(trace).not.toContain(s);
    });

    it('--debug never shows part of a secret that a long request body is cut in (the cut came before the redaction)', async () => {
      const secret = 'sekret-long-token-0123456789abcdef';
      addSecret(secret);
      steps = [reply(200, {})];
      const lines: string[] = [];
      const { http } = client({ debug: (l) => lines.push(l) });
      // the secret straddles the 2,000-character cut of the trace
      await http.send({ method: 'POST', url: `${base}/x`, body: `${'x'.repeat(1990)}${secret}${'y'.repeat(100)}` });
      const trace = lines.join('\n');
      expect(trace).toContain(`> ${'x'.repeat(1990)}***`);
      expect(trace).not.toContain('sekret-lo');
    });

    it('--dry-run records the request with secrets redacted and sends nothing', async () => {
      addSecret('sekret-key-123');
      const http = new Http({ dryRun: true, env: transportEnv });
      await expect(http.send({ method: 'post', url: `${base}/x`, headers: { Authorization: 'Bearer sekret-key-123' }, body: { a: 1 } })).rejects.toMatchObject({ exitCode: 0 });
      expect(http.planned).toEqual([{ method: 'POST', url: `${base}/x`, headers: { 'user-agent': USER_AGENT, 'content-type': 'application/json', authorization: 'Bearer ***' }, body: { a: 1 } }]);
      expect(seen).toHaveLength(0);
    });
  });

  describe('answers', () => {
    // a UTF-8 byte order mark before JSON (some .NET services write one): the WHATWG decoders
    // (fetch's json(), TextDecoder) drop it; it was "not valid JSON" with a message showing valid JSON
    it('reads JSON after a byte order mark, in results and in error bodies', async () => {
      steps = [reply(200, '\ufeff{"a":1}'), reply(404, '\ufeff{"error":{"code":"NotHere","message":"gone"}}', { 'x-ms-request-id': 'rid-1' })];
      const { http } = client();
      expect((await http.send({ method: 'GET', url: `${base}/x` })).json()).toEqual({ a: 1 });
      await expect(http.send({ method: 'GET', url: `${base}/x` })).rejects.toMatchObject({ name: 'NotFoundError', code: 'NotHere', message: 'HTTP 404 Not Found NotHere: gone (request id rid-1)' });
    });

    // vx follows no redirect (the credentials would go along): an http:// endpoint the service
    // moves to https:// was only "HTTP 301"
    it('a redirect names its status, where it points and what to do', async () => {
      steps = [reply(301, '', { location: 'https://erp.example/api/x' }), reply(307, '')];
      const { http } = client();
      await expect(http.send({ method: 'GET', url: `${base}/x` })).rejects.toMatchObject({
        name: 'ServiceError',
        message: 'HTTP 301 Moved Permanently: the service redirects to https://erp.example/api/x; vx does not follow redirects (the credentials would go along): set the endpoint to the address the service names',
      });
      await expect(http.send({ method: 'GET', url: `${base}/x` })).rejects.toMatchObject({ name: 'ServiceError', message: 'HTTP 307 Temporary Redirect: the service redirects without saying where' });
    });
  });
  });
}

describe('observer: retries and long waits told for a progress line', () => {
  function observed(opts: HttpOptions = {}) {
    const events: string[] = [];
    const c = client({
      observer: {
        retrying: (e) => events.push(`retry ${e.method} ${e.status ?? e.failure} in ${e.delayMs} ms, attempt ${e.attempt ?? '-'} of ${e.attempts}`),
        waiting: (e) => events.push(`waiting ${e.method} ${e.elapsedMs >= 40 ? '>=40' : e.elapsedMs} ms of ${e.timeoutMs}`),
        settled: () => events.push('settled'),
      },
      ...opts,
    });
    return { ...c, events };
  }

  it('each retry says the status, the delay and the attempt that follows; the end settles', async () => {
    steps = [reply(503, {}, { 'retry-after': '2' }), reply(502), reply(200, { ok: 1 })];
    const { http, events } = observed();
    await http.send({ method: 'GET', url: `${base}/x` });
    expect(events).toEqual(['retry GET 503 in 2000 ms, attempt 2 of 5', 'retry GET 502 in 150 ms, attempt 3 of 5', 'settled']);
  });

  it('a refused connection is said in words; giving up settles too', async () => {
    const { http, events } = observed({ retries: 1 });
    await expect(http.send({ method: 'GET', url: 'http://127.0.0.1:1/x' })).rejects.toThrow(NetworkError);
    expect(events).toEqual(['retry GET connection refused in 75 ms, attempt 2 of 2', 'settled']);
  });

  it('a slow answer is told while it is awaited, then settles', async () => {
    steps = [(_req, res) => void setTimeout(() => reply(200, { ok: 1 })(_req, res), 150)];
    const { http, events } = observed({ waitingAfterMs: 40, timeoutMs: 5000 });
    await http.send({ method: 'GET', url: `${base}/slow` });
    expect(events[0]).toBe('waiting GET >=40 ms of 5000');
    expect(events.at(-1)).toBe('settled');
    expect(events.filter((e) => e === 'settled')).toHaveLength(1);
  });

  it('a 400 is not retried: nothing but the settle', async () => {
    steps = [reply(400, { error: { code: 'Bad', message: 'no' } })];
    const { http, events } = observed();
    await expect(http.send({ method: 'GET', url: `${base}/x` })).rejects.toThrow(ServiceError);
    expect(events).toEqual(['settled']);
  });
});
