// The floor of issue 17's import target: the minimal $batch client (raw-batch.cjs) plus only what
// the issue requires of every import, written as lean as it gets: every row checked against the
// salesperson's fields before anything is sent, a journal line per row (synchronous) before its
// batch leaves and per outcome after, and one result per row in row order on stdout. Not vx; what
// no implementation can beat by much. usage: node raw-batch-journal.cjs <url> <csv> <batchSize> <concurrency> <journal>
const http = require('node:http');
const { readFileSync, openSync, writeSync, closeSync } = require('node:fs');
const [url, file, batchSize, concurrency, journal] = [process.argv[2], process.argv[3], Number(process.argv[4]), Number(process.argv[5]), process.argv[6]];
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
const columns = lines[0].split(',').length;
const company = process.env.VX_ERP_COMPANY;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const bad = [];
const rows = lines.slice(1).map((l, i) => {
  const v = l.split(',');
  if (v.length !== columns || !v[0] || v[0].length > 20 || v[1].length > 50 || !NUMBER.test(v[2])) bad.push(i + 2);
  return { row: i + 2, body: { code: v[0], displayName: v[1], commisionPercent: Number(v[2]) } };
});
if (bad.length) throw new Error(`invalid rows: ${bad.join(', ')}`);
const fd = openSync(journal, 'w');
writeSync(fd, `${JSON.stringify({ kind: 'journal', input: file })}\n`);
const batches = [];
for (let i = 0; i < rows.length; i += batchSize) batches.push(rows.slice(i, i + batchSize));
function post(body) {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = http.request(url, { method: 'POST', agent, headers: { authorization: `Bearer ${process.env.VX_ERP_TOKEN ?? 'x'}`, 'content-type': 'application/json', accept: 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    req.on('error', reject);
    req.end(data);
  });
}
(async () => {
  let next = 0;
  const results = [];
  const worker = async () => {
    while (next < batches.length) {
      const b = batches[next++];
      let sent = '';
      for (const r of b) sent += `{"row":${r.row},"state":"sent"}\n`;
      writeSync(fd, sent);
      const answer = await post({ requests: b.map((r, i) => ({ id: String(i + 1), method: 'POST', url: `companies(${company})/salespeoplePurchasers`, headers: { 'Content-Type': 'application/json' }, body: r.body })) });
      let done = '';
      answer.responses.forEach((res, i) => {
        const ok = res.status === 201;
        const id = res.body && res.body.id;
        results.push(ok ? { row: b[i].row, status: 'created', id } : { row: b[i].row, status: 'failed', httpStatus: res.status });
        done += `{"row":${b[i].row},"state":"${ok ? 'done' : 'failed'}"${ok ? `,"id":${JSON.stringify(id)}` : ''}}\n`;
      });
      writeSync(fd, done);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  closeSync(fd);
  const failed = results.filter((r) => r.status !== 'created').length;
  if (failed) throw new Error(`${failed} rows failed`);
  process.stdout.write(JSON.stringify(results.sort((a, b) => a.row - b.row)));
  agent.destroy();
})();
