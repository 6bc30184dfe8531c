// Baseline of the quota report: a minimal concurrent client. node:http with one keep-alive agent,
// the same number of requests in flight as vx (argv[2]), one GET per subscription x location
// (following nextLink), then the rows (limit, usage, headroom, percent used) sorted by least
// headroom and printed as JSON. No checks, no retries, no pacing: the least a script could do.
// argv: concurrency, then the list URLs.
const http = require('node:http');

const [concurrency, ...urls] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(concurrency) });

function get(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { authorization: 'Bearer emulator-token' } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      })
      .on('error', reject);
  });
}

async function scope(url) {
  const rows = [];
  const [, sub, , location] = /subscriptions\/([^/]+)\/.*\/resourceProviders\/([^/]+)\/locations\/([^/]+)\//.exec(url);
  for (let next = url; next; ) {
    const page = await get(next);
    for (const q of page.value) {
      const p = q.properties;
      rows.push({ subscription: sub, location, name: p.name.value, limit: p.limit, usage: p.currentValue, unit: p.unit, headroom: p.limit - p.currentValue, percentUsed: Math.round((p.currentValue / p.limit) * 1000) / 10 });
    }
    next = page.nextLink;
  }
  return rows;
}

(async () => {
  const out = [];
  let i = 0;
  await Promise.all(
    Array.from({ length: Number(concurrency) }, async () => {
      while (i < urls.length) out.push(...(await scope(urls[i++])));
    }),
  );
  out.sort((a, b) => a.headroom / a.limit - b.headroom / b.limit || a.headroom - b.headroom);
  process.stdout.write(JSON.stringify(out));
  agent.destroy();
})();
