// Emulator hardening: malformed and oversized bodies, unknown routes, broken HTTP, aborted uploads
// and 200 concurrent clients never crash it, and each family answers in its own error shape.
import { request as httpRequest, Agent } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

let emu: Emulator;
let port = 0;
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
beforeAll(async () => {
  emu = await startEmulator({ port: 0, maxBodyBytes: 1 << 20 });
  port = Number(new URL(emu.url).port);
});
afterAll(async () => {
  agent.destroy();
  await emu.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
}
function send(method: string, path: string, opts: { body?: string | Buffer; headers?: Record<string, string>; auth?: boolean } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.auth !== false) {
    headers.authorization = 'Bearer emulator-token';
    headers['vendor-subscription-key'] = 'emulator-key';
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode!, headers: res.headers, body, text });
      });
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}
const company = () => emu.state.erp.defaultCompany as string;

/** each family's error shape, checked strictly */
const SHAPES: Record<string, (b: any) => void> = {
  translator: (b) => {
    expect(Object.keys(b)).toEqual(['error']);
    expect(Number.isInteger(b.error.code) && b.error.code >= 100000 && b.error.code <= 999999).toBe(true);
    expect(typeof b.error.message).toBe('string');
  },
  erp: (b) => {
    expect(Object.keys(b)).toEqual(['error']);
    expect(typeof b.error.code).toBe('string');
    expect(b.error.message).toMatch(/CorrelationId: {2}[0-9a-f-]{36}\.$/);
  },
  lcs: (b) => SHAPES.erp(b),
  mgmt: (b) => {
    expect(typeof b.error.code).toBe('string');
    expect(typeof b.error.message).toBe('string');
  },
  auth: (b) => {
    expect(typeof b.error).toBe('string');
    expect(typeof b.error_description).toBe('string');
  },
};
const FAMILIES = ['translator', 'erp', 'lcs', 'mgmt', 'auth'] as const;

describe('error shapes', () => {
  it('unknown routes: 404 in each family shape; outside any family a plain 404', async () => {
    for (const f of FAMILIES) {
      const r = await send('GET', `/${f}/no/such/route`);
      expect(r.status, f).toBe(404);
      SHAPES[f](r.body);
    }
    const none = await send('GET', '/nothing-here');
    expect(none.status).toBe(404);
    expect(none.body.error.message).toMatch(/families live under/);
  });

  it('oversized bodies: 413 in each family shape (the body is drained, the connection survives)', async () => {
    const big = Buffer.alloc((1 << 20) + 10, 0x61);
    for (const f of FAMILIES) {
      const r = await send('POST', `/${f}/anything`, { body: big, headers: { 'content-type': 'application/json' } });
      expect(r.status, f).toBe(413);
      SHAPES[f](r.body);
    }
    expect((await send('GET', '/_emulator/health')).status).toBe(200);
  });

  it('malformed, empty and wrongly typed JSON bodies: 400 in the family shape', async () => {
    const path = `/erp/api/v1.0/companies(${company()})/currencies`;
    for (const body of ['{"code": "X",', '', 'null', '[1,2]', '"text"', '{"code": 5}', '\u0000\u0001binary', '{"code":"X","extra":{"deep":[[[[]]]]}}']) {
      const r = await send('POST', path, { body, headers: { 'content-type': 'application/json' } });
      expect(r.status, JSON.stringify(body)).toBe(400);
      SHAPES.erp(r.body);
    }
    const patch = await send('PATCH', `${path}(${emu.state.erp.data[company()].currencies[0].id})`, { body: '{', headers: { 'if-match': '*' } });
    expect(patch.status).toBe(400);
    SHAPES.erp(patch.body);
  });

  it('missing credentials: 401 in the family shape', async () => {
    const erp = await send('GET', '/erp/api/v2.0/companies', { auth: false });
    expect(erp.status).toBe(401);
    SHAPES.erp(erp.body);
    const lcs = await send('POST', '/lcs/databasemovement/v1/refresh/project/1/source/a/target/b', { auth: false });
    expect(lcs.status).toBe(401);
    SHAPES.lcs(lcs.body);
  });

  it('odd paths and methods never crash it', async () => {
    const paths = [
      `/erp/api/v2.0/companies(${company()})/salesOrders(%ZZ)`,
      `/erp/api/v2.0/companies(%E0%A4%A)/salesOrders`,
      '/erp/api/v2.0/companies(\'x\')/salesOrders?$filter=((((((',
      `/erp/api/v2.0/companies(${company()})/salesOrders?$top=-1&$skip=abc&$skiptoken=zz`,
      `/erp/api/v2.0/companies(${company()})/salesOrders?$orderby=${'a,'.repeat(2000)}`,
      '/erp//api///v2.0/companies',
      '/erp/../../etc/passwd',
      `/erp/api/v2.0/${'x'.repeat(8000)}`,
      '/mgmt/subscriptions/%00/providers',
    ];
    for (const p of paths) {
      for (const m of ['GET', 'DELETE', 'PUT', 'OPTIONS']) {
        const r = await send(m, p);
        expect(r.status, `${m} ${p.slice(0, 80)}`).toBeGreaterThanOrEqual(400);
        expect(r.status).toBeLessThan(500);
        expect(r.body, `${m} ${p.slice(0, 80)}: ${r.text.slice(0, 100)}`).toBeTypeOf('object');
      }
    }
    expect((await send('GET', '/_emulator/health')).status).toBe(200);
  });
});

describe('broken HTTP', () => {
  const raw = (bytes: string) =>
    new Promise<string>((resolve) => {
      const s = connect(port, '127.0.0.1', () => s.end(bytes));
      let out = '';
      s.on('data', (c) => (out += c));
      s.on('close', () => resolve(out));
      s.on('error', () => resolve(out));
    });
  it('garbage, a bad request line and a lying Content-Length are answered 400 or dropped; the server lives', async () => {
    expect(await raw('\u0016\u0003\u0001 hello TLS?\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw('GET\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw('POST /erp/x HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw(`GET /erp/x HTTP/1.1\r\nHost: a\r\nX-Big: ${'h'.repeat(70_000)}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 (400|431)/);
    await raw('POST /erp/x HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\nonly a little');
    expect((await send('GET', '/_emulator/health')).status).toBe(200);
  });
});

describe('200 concurrent clients', () => {
  it('all answered with the right shapes; concurrent creates of one code make exactly one record', async () => {
    const path = `/erp/api/v1.0/companies(${company()})/currencies`;
    const before = emu.state.erp.data[company()].currencies.length;
    const jobs: Promise<[string, Answer]>[] = [];
    for (let i = 0; i < 200; i++) {
      const kind = i % 8;
      const job = (async (): Promise<[string, Answer]> => {
        switch (kind) {
          case 0:
            return ['list', await send('GET', `/erp/api/v2.0/companies(${company()})/salesOrders`)];
          case 1:
            return ['create', await send('POST', path, { body: JSON.stringify({ code: `C${i}` }), headers: { 'content-type': 'application/json' } })];
          case 2:
            return ['same', await send('POST', path, { body: '{"code":"SAME"}', headers: { 'content-type': 'application/json' } })];
          case 3:
            return ['malformed', await send('POST', path, { body: '{"code":', headers: { 'content-type': 'application/json' } })];
          case 4:
            return ['unknown', await send('GET', `/${FAMILIES[i % 5]}/x/${i}`)];
          case 5:
            return ['noauth', await send('GET', '/erp/api/v2.0/companies', { auth: false })];
          case 6:
            return ['big', await send('POST', `/mgmt/x`, { body: Buffer.alloc((1 << 20) + 1) })];
          default:
            return ['control', await send('GET', '/_emulator/health')];
        }
      })();
      jobs.push(job);
    }
    const results = await Promise.all(jobs);
    const by = (k: string) => results.filter(([kind]) => kind === k).map(([, a]) => a);
    for (const r of by('list')) expect(r.body.value).toHaveLength(45);
    const all = (answers: Answer[], status: number, shape?: (b: any) => void) => {
      for (const r of answers) {
        expect(r.status).toBe(status);
        shape?.(r.body);
      }
    };
    all(by('create'), 201);
    const same = by('same');
    expect(same.filter((r) => r.status === 201)).toHaveLength(1);
    all(same.filter((x) => x.status !== 201), 400, SHAPES.erp);
    all(by('malformed'), 400, SHAPES.erp);
    all(by('unknown'), 404);
    all(by('noauth'), 401, SHAPES.erp);
    all(by('big'), 413, SHAPES.mgmt);
    for (const r of by('control')) expect(r.status).toBe(200);
    expect(emu.state.erp.data[company()].currencies.length).toBe(before + by('create').length + 1);
  });
});

describe('injected faults carry the code of their status in each family', () => {
  it('erp and mgmt: 403, 404, 409, 412, 429, 500, 503 answer the family code for that status, not a blanket internal error', async () => {
    const want: Record<string, Record<number, string>> = {
      erp: { 403: 'Authorization_InsufficientPermissions', 404: 'BadRequest_NotFound', 409: 'Request_EntityChanged', 412: 'Request_EntityChanged', 429: 'Application_TooManyRequests', 500: 'Internal_ServerError', 503: 'Internal_ServiceUnavailable' },
      mgmt: { 403: 'AuthorizationFailed', 404: 'ResourceNotFound', 409: 'Conflict', 412: 'PreconditionFailed', 429: 'TooManyRequests', 500: 'InternalServerError', 503: 'ServiceUnavailable' },
    };
    const paths = { erp: `/erp/api/v2.0/companies(${company()})/salesOrders`, mgmt: `/mgmt/subscriptions/${emu.state.mgmt.defaultSubscription}/providers/Vendor.ResourceHealth/events?api-version=2022-10-01` };
    try {
      for (const family of ['erp', 'mgmt'] as const) {
        for (const [status, code] of Object.entries(want[family])) {
          emu.setFaults(`${family}/${status}:1x`);
          const r = await send('GET', paths[family]);
          expect(r.status, `${family} ${status}`).toBe(Number(status));
          // health events answer the flat {code, message, details} shape, the others {error: {...}}
          const got = family === 'mgmt' ? r.body.code : (SHAPES[family](r.body), r.body.error.code);
          expect(got, `${family} ${status}`).toBe(code);
        }
      }
    } finally {
      emu.setFaults('');
    }
  });
});
