// Minimal loopback servers for the benchmarks, in this process: the baselines and vx talk to
// the same server, so the server's cost is in both sides of every ratio.
import { createServer } from 'node:http';

export function listen(handler) {
  return new Promise((resolve) => {
    const srv = createServer(handler);
    srv.keepAliveTimeout = 30_000;
    srv.listen(0, '127.0.0.1', () => resolve({ srv, url: `http://127.0.0.1:${srv.address().port}`, close: () => new Promise((r) => srv.close(r)) }));
  });
}

/** An OData collection of `total` records served in pages of `pageSize` with @odata.nextLink. */
export function odataServer(total, pageSize) {
  const page = (skip, base) => {
    const value = [];
    for (let i = skip; i < Math.min(total, skip + pageSize); i++) {
      value.push({
        '@odata.etag': `W/"JzQ0O${i}'"`,
        id: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
        code: `C${i}`,
        displayName: `Currency number ${i}`,
        symbol: '¤',
        amountDecimalPlaces: '2:2',
        amountRoundingPrecision: 0.01,
        lastModifiedDateTime: '2026-11-22T10:00:00Z',
      });
    }
    const next = skip + pageSize < total ? `${base}?$skiptoken=${skip + pageSize}` : undefined;
    return JSON.stringify({ '@odata.context': `${base}/$metadata`, value, ...(next ? { '@odata.nextLink': next } : {}) });
  };
  const cache = new Map();
  return listen((req, res) => {
    const u = new URL(req.url, 'http://x');
    const skip = Number(u.searchParams.get('$skiptoken') ?? 0);
    const base = `http://${req.headers.host}${u.pathname}`;
    const key = `${base}|${skip}`;
    if (!cache.has(key)) cache.set(key, page(skip, base));
    res.setHeader('content-type', 'application/json; odata.metadata=minimal');
    res.end(cache.get(key));
  });
}

/** A quota resource as the management API answers GET. */
export function quotaServer() {
  const body = JSON.stringify({
    id: '/subscriptions/00000000-0000-0000-0000-000000000001/providers/Vendor.Compute/locations/westeurope/providers/Vendor.Capacity/quotas/standardDSv3Family',
    name: 'standardDSv3Family',
    type: 'Vendor.Capacity/Quotas',
    properties: { limit: { limitObjectType: 'LimitValue', limitType: 'Independent', value: 100 }, unit: 'Count', name: { value: 'standardDSv3Family', localizedValue: 'Standard DSv3 Family vCPUs' }, resourceType: 'dedicated', quotaPeriod: 'PT1M', isQuotaApplicable: true, properties: {} },
  });
  return listen((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.setHeader('x-request-id', 'bench');
    res.end(body);
  });
}

/** a dynamic dictionary element, as the service reads it: its translation attribute stands for it */
const DICTIONARY = /<mstrans:dictionary translation="([^"]*)">[\s\S]*?<\/mstrans:dictionary>/g;
const ENTITIES = { '&quot;': '"', '&amp;': '&', '&lt;': '<', '&gt;': '>', '&#39;': "'" };
const fromAttribute = (v) => v.replace(/&(?:quot|amp|lt|gt|#39);/g, (e) => ENTITIES[e]);
/** the text as the service translates it with an identity model: each dictionary element replaced by its translation, as the service does */
const applyDictionary = (text) => (text.includes('<mstrans:dictionary') ? text.replace(DICTIONARY, (_, tr) => fromAttribute(tr)) : text);

/**
 * A minimal translate server: answers the translator's result shape for every item and every
 * `to`, echoing the text (the client's work, not the server's, is what the benchmark compares)
 * with any dynamic dictionary element replaced by its translation as the service does, after
 * `delayMs` (a service's latency: concurrent clients overlap); counts the billed characters.
 */
export function translateServer({ delayMs = 0 } = {}) {
  let requests = 0;
  let billed = 0;
  const server = listen((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      requests++;
      const to = new URL(req.url, 'http://x').searchParams.getAll('to').flatMap((t) => t.split(','));
      const items = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const out = items.map((it) => ({ translations: to.map((t) => ({ text: applyDictionary(it.Text ?? it.text), to: t })) }));
      const body = JSON.stringify(out);
      let chars = 0;
      for (const it of items) chars += (it.Text ?? it.text).length;
      billed += chars * to.length;
      if (delayMs) setTimeout(() => answer(res, body, chars * to.length), delayMs);
      else answer(res, body, chars * to.length);
    });
  });
  const answer = (res, body, cost) => {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'x-requestid': `bench-${requests}`,
      'x-mt-system': 'Neural',
      'x-metered-usage': String(cost),
    });
    res.end(body);
  };
  return server.then((s) => ({ ...s, requests: () => requests, billed: () => billed }));
}

/**
 * The minimal translate server behind a subscription's character rate: a token bucket of `bucket`
 * billed characters (characters x targets) refilled at `rate` a second; a request that does not fit
 * is answered 429 {"error":{"code":429001}} with Retry-After in whole seconds, as the service does.
 * Counts accepted and rejected requests and the characters billed.
 */
export function translateServer429({ rate, bucket = rate }) {
  let tokens = bucket;
  let last = performance.now();
  const stats = { accepted: 0, rejected: 0, billed: 0, first: undefined, last: undefined };
  const server = listen((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      stats.first ??= now;
      const to = new URL(req.url, 'http://x').searchParams.getAll('to').flatMap((t) => t.split(','));
      const items = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      let chars = 0;
      for (const it of items) chars += [...(it.Text ?? it.text)].length;
      const cost = chars * to.length;
      tokens = Math.min(bucket, tokens + ((now - last) / 1000) * rate);
      last = now;
      if (cost > tokens) {
        stats.rejected++;
        res.writeHead(429, { 'content-type': 'application/json; charset=utf-8', 'retry-after': String(Math.max(1, Math.ceil((cost - tokens) / rate))) });
        res.end(JSON.stringify({ error: { code: 429001, message: 'The server rejected the request because the client has exceeded request limits.' } }));
        return;
      }
      tokens -= cost;
      stats.accepted++;
      stats.billed += cost;
      stats.last = now;
      const out = items.map((it) => ({ translations: to.map((t) => ({ text: it.Text ?? it.text, to: t })) }));
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-requestid': `bench-${stats.accepted}`, 'x-metered-usage': String(cost) });
      res.end(JSON.stringify(out));
    });
  });
  return server.then((s) => ({ ...s, stats }));
}

/**
 * A minimal business-data service for bulk work: `POST …/$batch` answers every operation 201 with
 * the record (a fresh id and ETag), `POST …/<set>` one record, `GET …/<set>` pages of `total`
 * records (page size from Prefer: odata.maxpagesize, default 20,000 as the real service), built
 * as they are asked for, so a million records cost no memory here.
 */
export function bulkServer(total = 0) {
  let n = 0;
  const rec = (body) => ({ '@odata.etag': `W/"JzQ0O${++n}'"`, id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, ...body, lastModifiedDateTime: '2026-11-22T10:00:00Z' });
  const row = (i) =>
    `{"@odata.etag":"W/\\"JzQ0O${i}'\\"","id":"00000000-0000-4000-8000-${String(i).padStart(12, '0')}","code":"C${i}","displayName":"Salesperson number ${i}","email":"p${i}@example.com","email2":"","phoneNo":"","jobTitle":"Sales","commisionPercent":2.5,"privacyBlocked":false,"blocked":false,"lastModifiedDateTime":"2026-11-22T10:00:00Z"}`;
  return listen((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url, 'http://x');
      res.setHeader('content-type', 'application/json; odata.metadata=minimal');
      if (req.method === 'POST' && u.pathname.endsWith('/$batch')) {
        const { requests } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const responses = requests.map((o) => {
          const r = rec(o.body);
          return { id: o.id, status: 201, headers: { 'content-type': 'application/json; odata.metadata=minimal', 'odata-version': '4.0', etag: r['@odata.etag'] }, body: r };
        });
        return res.end(JSON.stringify({ responses }));
      }
      if (req.method === 'POST') {
        res.statusCode = 201;
        return res.end(JSON.stringify(rec(JSON.parse(Buffer.concat(chunks).toString('utf8')))));
      }
      const size = Number(/maxpagesize=(\d+)/.exec(String(req.headers.prefer ?? ''))?.[1] ?? 20_000);
      const skip = Number(u.searchParams.get('$skiptoken') ?? 0);
      const end = Math.min(total, skip + size);
      const parts = [];
      for (let i = skip; i < end; i++) parts.push(row(i));
      const next = end < total ? `,"@odata.nextLink":"http://${req.headers.host}${u.pathname}?$skiptoken=${end}"` : '';
      res.end(`{"@odata.context":"http://${req.headers.host}/$metadata","value":[${parts.join(',')}]${next}}`);
    });
  });
}
