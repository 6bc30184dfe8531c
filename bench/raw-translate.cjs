// Baseline: a bare client for the same job as `vx translate -f FILE --to de`: reads the file,
// batches it within the service limits (1,000 items, 50,000 characters), keeps 4 requests in
// flight with node:http keep-alive, prints the translations in input order.
const http = require('node:http');
const fs = require('node:fs');
const [url, file] = process.argv.slice(2);
const lines = fs.readFileSync(file, 'utf8').split('\n');
if (lines[lines.length - 1] === '') lines.pop();
const batches = [];
let cur = [];
let chars = 0;
for (const l of lines) {
  if (cur.length === 1000 || chars + l.length > 50000) {
    batches.push(cur);
    cur = [];
    chars = 0;
  }
  cur.push(l);
  chars += l.length;
}
if (cur.length) batches.push(cur);
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const post = (batch) =>
  new Promise((resolve, reject) => {
    const body = JSON.stringify(batch.map((Text) => ({ Text })));
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json; charset=UTF-8', 'vendor-subscription-key': 'k', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    req.on('error', reject);
    req.end(body);
  });
const results = new Array(batches.length);
let next = 0;
let written = 0;
const flush = () => {
  while (written < batches.length && results[written]) {
    process.stdout.write(results[written].map((r) => `${r.translations[0].text}\n`).join(''));
    results[written++] = null;
  }
};
const worker = async () => {
  while (next < batches.length) {
    const i = next++;
    results[i] = await post(batches[i]);
    flush();
  }
};
Promise.all([worker(), worker(), worker(), worker()]).then(() => {
  flush();
  agent.destroy();
});
