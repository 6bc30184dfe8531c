// Hostile responses: small loopback servers answer `vx api` and `vx erp` with broken, wrong,
// foreign or endless data. Every case ends with one clear line and the contract's exit code.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runVxInProc } from '../helpers/inproc.js';
import { removeDir, tempDir, type RunResult } from '../helpers/vx.js';

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;
interface Fake {
  server: Server;
  origin: string;
  seen: { method: string; url: string; auth?: string }[];
  handler: Handler;
}
const TOKEN = 'hostile-test-token-4d2f';

async function fake(): Promise<Fake> {
  const f = { seen: [], handler: ((_q, s) => s.end()) as Handler } as unknown as Fake;
  f.server = createServer((req, res) => {
    f.seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization });
    req.resume();
    req.on('end', () => f.handler(req, res, new URL(req.url!, f.origin)));
  });
  await new Promise<void>((r) => f.server.listen(0, '127.0.0.1', r));
  f.origin = `http://127.0.0.1:${(f.server.address() as AddressInfo).port}`;
  return f;
}
const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
};

let a: Fake;
let b: Fake;
let configDir: string;
beforeAll(async () => {
  [a, b] = await Promise.all([fake(), fake()]);
  configDir = tempDir();
});
afterAll(async () => {
  await Promise.all([a, b].map((f) => new Promise<void>((r) => f.server.close(() => r()))));
  removeDir(configDir);
});
beforeEach(() => {
  a.seen.length = 0;
  b.seen.length = 0;
  b.handler = (_q, res) => json(res, 200, { value: ['stolen'] });
});

const C = '11111111-1111-4111-8111-111111111111';
const env = () => ({ VX_ERP_PREFIX: `${a.origin}/erp`, VX_ERP_TOKEN: TOKEN, VX_ERP_COMPANY: C });
const LIST = `/api/v2.0/companies(${C})/salesOrders`;
/** the same page source read by `vx api --paginate` and by `vx erp sales-orders list` */
async function both(extra: string[] = [], envExtra: Record<string, string> = {}): Promise<[RunResult, RunResult]> {
  const e = { ...env(), ...envExtra };
  const api = await runVxInProc(['api', 'GET', LIST, '--service', 'erp', '--paginate', ...extra], { env: e, configDir });
  const erp = await runVxInProc(['erp', 'sales-orders', 'list', ...extra], { env: e, configDir });
  return [api, erp];
}
function oneLine(r: RunResult, code: number, re: RegExp, stdout = '') {
  expect(r.stdout).toBe(stdout);
  expect(r.stderr.trimEnd()).toMatch(re);
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toContain(TOKEN);
  expect(r.code).toBe(code);
}

describe('broken bodies', () => {
  it('truncated JSON (complete HTTP message): exit 1 naming the content type and the start of the body', async () => {
    a.handler = (_q, res) => json(res, 200, '{"value":[{"number":"S-1"},');
    for (const r of await both()) oneLine(r, 1, /^vx: HTTP 200 from GET .*salesOrders.*: the response is not valid JSON \(application\/json; charset=utf-8: "\{"value":\[\{"number":"S-1"\},"\)$/);
  });

  it('a body cut off mid-transfer: a GET is retried, then exit 8', async () => {
    a.handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      res.write('{"value":[{"number":"S-1"}');
      setTimeout(() => res.socket?.destroy(), 10);
    };
    const [api, erp] = await both(['--retries', '2']);
    for (const r of [api, erp]) oneLine(r, 8, /^vx: GET .*salesOrders.*\(after 3 attempts\)$/);
    expect(a.seen).toHaveLength(6);
  });

  it('an HTML error page from a proxy: retried as 502, then exit 7 naming the page', async () => {
    a.handler = (_q, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>');
    };
    for (const r of await both(['--retries', '1'])) oneLine(r, 7, /^vx: HTTP 502 Bad Gateway: HTML page "502 Bad Gateway" \(not a service response; a proxy\?\) \(after 2 attempts\)$/);
  });

  it('an HTML login page with status 200 (captive proxy): exit 1, not a crash', async () => {
    a.handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><head><title>Sign in</title></head><body>please sign in</body></html>');
    };
    const [api, erp] = await both();
    oneLine(api, 1, /the response is not valid JSON \(text\/html: "<html><head><title>Sign in<\/title>/);
    oneLine(erp, 1, /the response is not valid JSON \(text\/html/);
    // without --paginate, vx api passes a non-JSON body through as text
    const raw = await runVxInProc(['api', 'GET', LIST, '--service', 'erp'], { env: env(), configDir });
    expect(raw.code).toBe(0);
    expect(raw.stdout).toContain('please sign in');
  });

  it('a huge error body is cut to one short line', async () => {
    a.handler = (_q, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`upstream failure ${'x'.repeat(3_000_000)}`);
    };
    for (const r of await both(['--retries', '0'])) {
      oneLine(r, 7, /^vx: HTTP 500 Internal Server Error: upstream failure x+…$/);
      expect(r.stderr.length).toBeLessThan(300);
    }
  });
});

describe('wrong types', () => {
  it('"value" that is not an array: exit 1', async () => {
    a.handler = (_q, res) => json(res, 200, { value: { number: 'S-1' } });
    for (const r of await both()) oneLine(r, 1, /^vx: the service answered a list request without a "value" array$/);
  });
  it('a next link that is not a string: exit 1', async () => {
    a.handler = (_q, res) => json(res, 200, { value: [], '@odata.nextLink': { href: 'x' } });
    for (const r of await both()) oneLine(r, 1, /^vx: the service answered with a next-page link that is not a string$/);
  });
  it('fields of unexpected types are printed as they came (json) and as text (table), never a crash', async () => {
    const rows = [
      { number: 5, customerName: null, totalAmountIncludingTax: 'lots', status: ['Open'], id: { x: 1 } },
      { number: 'S-2', customerName: '日本の顧客', totalAmountIncludingTax: 1e21, status: true },
      'not an object',
      null,
    ];
    a.handler = (_q, res) => json(res, 200, { value: rows });
    const [api, erp] = await both();
    expect(api.code).toBe(0);
    expect(JSON.parse(api.stdout)).toEqual(rows);
    expect(erp.code).toBe(0);
    expect(JSON.parse(erp.stdout)).toEqual(rows);
    for (const f of ['table', 'tsv', 'yaml', 'text', 'ndjson']) {
      const t = await runVxInProc(['erp', 'sales-orders', 'list', '-o', f], { env: env(), configDir });
      expect(t.stderr, f).toBe('');
      expect(t.code, f).toBe(0);
    }
  });
  it('a single record that is not an object is printed as it came (erp get, vx api); update refuses it without an ETag', async () => {
    a.handler = (_q, res) => json(res, 200, '["unexpected"]');
    const id = '11111111-2222-4333-8444-555555555555';
    const get = await runVxInProc(['erp', 'sales-orders', 'get', id], { env: env(), configDir });
    expect(get.stderr).toBe('');
    expect(get.code).toBe(0);
    expect(JSON.parse(get.stdout)).toEqual(['unexpected']);
    const upd = await runVxInProc(['erp', 'sales-orders', 'update', id, '--set', 'discountAmount=1'], { env: env(), configDir });
    oneLine(upd, 2, /came without an @odata\.etag; pass --if-match <etag> or --force$/);
    expect(a.seen.filter((s) => s.method === 'PATCH')).toEqual([]);
    const api = await runVxInProc(['api', 'GET', `${LIST}(${id})`, '--service', 'erp'], { env: env(), configDir });
    expect(api.code).toBe(0);
    expect(JSON.parse(api.stdout)).toEqual(['unexpected']);
  });
});

describe('huge bodies', () => {
  it('a 25 MB list is read whole; over VX_MAX_RESPONSE_BYTES it is refused (exit 1)', async () => {
    const item = { number: 'S', note: 'n'.repeat(1000) };
    const body = JSON.stringify({ value: Array.from({ length: 25_000 }, (_, i) => ({ ...item, number: `S-${i}` })) });
    a.handler = (_q, res) => json(res, 200, body);
    const ok = await runVxInProc(['api', 'GET', LIST, '--service', 'erp', '--paginate', '-q', 'length(@)'], { env: env(), configDir });
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toBe('25000\n');
    const [api, erp] = await both([], { VX_MAX_RESPONSE_BYTES: '1000000' });
    for (const r of [api, erp]) oneLine(r, 1, /^vx: GET .*salesOrders.*: response larger than 1000000 bytes; refused$/);
  });
});

describe('paging attacks', () => {
  it('a nextLink to another host is refused; the token never reaches it', async () => {
    for (const foreign of [`${b.origin}${'/erp'}${LIST}?$skiptoken=2`, `${b.origin.replace('127.0.0.1', 'localhost')}/erp${LIST}`]) {
      a.handler = (_q, res) => json(res, 200, { value: [{ number: 'S-1' }], '@odata.nextLink': foreign });
      const refused = /^vx: the service's next-page link points at http:\/\/(127\.0\.0\.1|localhost):\d+, not at the configured endpoint http:\/\/127\.0\.0\.1:\d+; refusing to send credentials there$/;
      const [api, erp] = await both();
      oneLine(api, 1, refused);
      // erp list streams its pages off a terminal: the first page stays written, the JSON array left
      // open so that no reader takes it for the whole list (docs/erp.md)
      oneLine(erp, 1, refused, '[\n  {\n    "number": "S-1"\n  }');
    }
    expect(b.seen).toEqual([]);
  });

  it('an endless nextLink loop (A -> B -> A) stops with an error', async () => {
    a.handler = (_q, res, url) => {
      const next = url.searchParams.get('p') === 'b' ? `${a.origin}/erp${LIST}` : `${a.origin}/erp${LIST}?p=b`;
      json(res, 200, { value: [{ number: url.searchParams.get('p') ?? 'a' }], '@odata.nextLink': next });
    };
    const [api, erp] = await both();
    oneLine(api, 1, /^vx: the service returned a next-page link that was already followed \(.*\); stopping to avoid an endless loop$/);
    oneLine(erp, 1, /already followed/, '[\n  {\n    "number": "a"\n  },\n  {\n    "number": "b"\n  }');
    expect(a.seen.length).toBeLessThanOrEqual(4);
  });

  it('a link to itself on the first page', async () => {
    a.handler = (req, res) => json(res, 200, { value: [1], nextLink: `${a.origin}${req.url}` });
    const api = await runVxInProc(['api', 'GET', LIST, '--service', 'erp', '--paginate'], { env: env(), configDir });
    oneLine(api, 1, /already followed/);
    expect(a.seen).toHaveLength(1);
  });
});
