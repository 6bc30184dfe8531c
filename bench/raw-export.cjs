// Baseline: a minimal export client. Reads every page of an OData collection over one keep-alive
// connection (pages of argv[3] records, asked with Prefer: odata.maxpagesize, as vx export asks)
// and writes each record as one NDJSON line to stdout, page by page.
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function get(url) {
  return new Promise((resolve, reject) => {
    http.get(url, { agent, headers: { authorization: 'Bearer x', prefer: `odata.maxpagesize=${process.argv[3]}` } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    }).on('error', reject);
  });
}
function write(s) {
  return new Promise((resolve) => (process.stdout.write(s) ? resolve() : process.stdout.once('drain', resolve)));
}
(async () => {
  for (let url = process.argv[2]; url; ) {
    const page = await get(url);
    let s = '';
    for (const r of page.value) s += `${JSON.stringify(r)}\n`;
    await write(s);
    url = page['@odata.nextLink'];
  }
  agent.destroy();
})();
