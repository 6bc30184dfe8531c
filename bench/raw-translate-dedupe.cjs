// The floor of issue 15's throughput target: the ideal raw client (raw-translate.cjs) plus only
// what the issue requires of every run, written as lean as it gets: each distinct text sent once
// (one Map of every distinct text: the inputs it is run on fit in memory), every line checked
// before it is sent, every answer's count checked, and each input line answered in order (a
// duplicate by its first occurrence's result). Not vx; what no implementation can beat by much.
// With a memory path (the floor of the same target "with the memory"), each distinct text is
// looked up in an LMDB store first (a hit is not sent) and each answer is stored, as lean as
// lmdb-js allows: a string key per target and text, the translated text as the value.
// usage: node raw-translate-dedupe.cjs <url> <file> <to> <concurrency> [memory]
const http = require('node:http');
const fs = require('node:fs');
const readline = require('node:readline');
const [url, file, to, concurrencyArg, memoryPath] = process.argv.slice(2);
const db = memoryPath ? require('lmdb').open({ path: memoryPath, noSubdir: true, encoding: 'string', compression: false }) : undefined;
const keyOf = (text) => `${to}\u0000${text}`;
const concurrency = Number(concurrencyArg);
const targets = to.split(',');
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const target = `${url}/translate?api-version=3.0&${targets.map((t) => `to=${t}`).join('&')}`;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

function post(texts) {
  const body = JSON.stringify(texts.map((t) => ({ Text: t })));
  return new Promise((resolve, reject) => {
    const req = http.request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json; charset=UTF-8', 'vendor-subscription-key': 'k', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const results = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (!Array.isArray(results) || results.length !== texts.length) reject(new Error('the answer does not match the request'));
        else resolve(results);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

(async () => {
  const rl = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  const seen = new Map();
  // requests in flight, in order, each with the input lines (slots) answered once it is answered
  const window = [];
  let texts = [];
  let slots = [];
  let lines = [];
  let chars = 0;
  const flushHead = async () => {
    const w = window.shift();
    await w.answered;
    let out = '';
    for (const s of w.lines) for (const t of s.result.translations) out += targets.length > 1 ? `${t.to}\t${t.text}\n` : `${t.text}\n`;
    if (!process.stdout.write(out)) await new Promise((r) => process.stdout.once('drain', r));
  };
  const send = async () => {
    const mine = slots;
    const sent = texts;
    const store = db ? (r, i) => db.put(keyOf(sent[i]), r.translations.map((t) => t.text).join('\u0000')) : () => undefined;
    const answered = texts.length
      ? post(texts).then((results) =>
          results.forEach((r, i) => {
            mine[i].result = r;
            store(r, i);
          }),
        )
      : Promise.resolve();
    window.push({ answered, lines });
    texts = [];
    slots = [];
    lines = [];
    chars = 0;
    while (window.length >= concurrency) await flushHead();
  };
  for await (const line of rl) {
    if (CONTROL.test(line)) throw new Error('a line holds a control character');
    let slot = seen.get(line);
    if (!slot) {
      slot = { result: undefined };
      seen.set(line, slot);
      const stored = db?.get(keyOf(line));
      if (stored !== undefined) {
        slot.result = { translations: stored.split('\u0000').map((text, k) => ({ text, to: targets[k] })) };
        lines.push(slot);
        continue;
      }
      const n = line.length * targets.length;
      if (texts.length && (texts.length >= 1000 || chars + n > 50_000)) await send();
      texts.push(line);
      slots.push(slot);
      chars += n;
    }
    lines.push(slot);
  }
  if (lines.length) await send();
  while (window.length) await flushHead();
  agent.destroy();
  if (db) await db.close();
})();
