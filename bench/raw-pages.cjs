// Baseline: an ideal client reading every page of an OData collection over one keep-alive
// connection and printing all records as one JSON array.
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function get(url) {
  return new Promise((resolve, reject) => {
    http.get(url, { agent, headers: { authorization: 'Bearer x' } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    }).on('error', reject);
  });
}
(async () => {
  const all = [];
  for (let url = process.argv[2]; url; ) {
    const page = await get(url);
    for (const r of page.value) all.push(r);
    url = page['@odata.nextLink'];
  }
  process.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
  agent.destroy();
})();
