// Baseline: an ideal translate client. Reads the file as a stream of lines, sends maximal batches
// (1,000 items, 50,000 characters x targets) with `concurrency` requests in flight over keep-alive
// connections, and writes the translations in input order. With batch=1 it is the naive client
// that sends one request per line.
// usage: node raw-translate.cjs <url> <file> <to> <concurrency> [batchItems]
const http = require('node:http');
const fs = require('node:fs');
const readline = require('node:readline');
const [url, file, to, concurrencyArg, batchArg] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);
const maxItems = Number(batchArg ?? 1000);
const targets = to.split(',');
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const target = `${url}/translate?api-version=3.0&${targets.map((t) => `to=${t}`).join('&')}`;

function post(items) {
  const body = JSON.stringify(items.map((t) => ({ Text: t })));
  return new Promise((resolve, reject) => {
    const req = http.request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json; charset=UTF-8', 'vendor-subscription-key': 'k', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

(async () => {
  const rl = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  const window = [];
  let batch = [];
  let chars = 0;
  const flushHead = async () => {
    const results = await window.shift();
    let out = '';
    for (const r of results) for (const t of r.translations) out += targets.length > 1 ? `${t.to}\t${t.text}\n` : `${t.text}\n`;
    if (!process.stdout.write(out)) await new Promise((r) => process.stdout.once('drain', r));
  };
  const send = async () => {
    window.push(post(batch));
    batch = [];
    chars = 0;
    while (window.length >= concurrency) await flushHead();
  };
  for await (const line of rl) {
    const n = line.length * targets.length;
    if (batch.length && (batch.length >= maxItems || chars + n > 50_000)) await send();
    batch.push(line);
    chars += n;
  }
  if (batch.length) await send();
  while (window.length) await flushHead();
  agent.destroy();
})();
