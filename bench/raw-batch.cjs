// Baseline: a minimal $batch client. Reads a CSV of salespeople (code,displayName,commisionPercent;
// no quoting), sends every row as a create in $batch requests of <batchSize> operations,
// <concurrency> in flight over keep-alive connections, and checks every answer.
const http = require('node:http');
const { readFileSync } = require('node:fs');
const [url, file, batchSize, concurrency] = [process.argv[2], process.argv[3], Number(process.argv[4]), Number(process.argv[5])];
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
const header = lines[0].split(',');
const company = process.env.VX_ERP_COMPANY;
const ops = lines.slice(1).map((l) => {
  const v = l.split(',');
  return { code: v[0], displayName: v[1], commisionPercent: Number(v[2]) };
});
void header;
const batches = [];
for (let i = 0; i < ops.length; i += batchSize) batches.push(ops.slice(i, i + batchSize));
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
  let created = 0;
  const worker = async () => {
    while (next < batches.length) {
      const b = batches[next++];
      const answer = await post({ requests: b.map((body, i) => ({ id: String(i + 1), method: 'POST', url: `companies(${company})/salespeoplePurchasers`, headers: { 'Content-Type': 'application/json' }, body })) });
      for (const r of answer.responses) if (r.status === 201) created++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (created !== ops.length) throw new Error(`created ${created} of ${ops.length}`);
  agent.destroy();
})();
