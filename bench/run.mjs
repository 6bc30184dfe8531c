// `npm run bench`: every performance target of the project, each as a ratio against a baseline
// measured in the same run (the machines are shared and noisy). `node bench/run.mjs startup get`
// runs a subset; `npm run bench -- --write` runs them all and rewrites the table of bench/README.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { startup } from './startup.mjs';
import { get } from './get.mjs';
import { paging } from './paging.mjs';
import { translate } from './translate.mjs';
import { files } from './files.mjs';
import { fleet } from './fleet.mjs';
import { bulk } from './bulk.mjs';
import { translateMemoryVolume, translateReuse } from './translate-reuse.mjs';
import { translatePostgres } from './translate-postgres.mjs';
import { translateConcurrent, translateMixed, translateScale } from './translate-scale.mjs';
import { translateGlossary } from './translate-glossary.mjs';
import { allResults, resultsTable, ROOT } from './lib.mjs';

const all = { startup, get, paging, translate, translateReuse, translateMemoryVolume, translateMixed, translateConcurrent, translateScale, translatePostgres, translateGlossary, bulk, fleet, files };
const write = process.argv.includes('--write');
const named = process.argv.slice(2).filter((a) => a !== '--write');
// the table is of the whole run: a subset would leave the other rows out
if (write && named.length) throw new Error('--write runs every benchmark: name none');
const chosen = named.length ? named : Object.keys(all);
const machine = `node ${process.version}, ${cpus().length} CPUs`;
// the machines are shared: the load when the run started says how far absolute times are from a quiet machine's
const load = loadavg()[0].toFixed(1);
console.log(`vx benchmarks on ${machine}; ratios of medians, interleaved runs`);
for (const name of chosen) {
  if (!all[name]) throw new Error(`unknown benchmark ${name}; one of ${Object.keys(all).join(', ')}`);
  await all[name]();
}
const res = allResults();
console.log(`${res.filter((r) => r.ok).length} of ${res.length} targets met`);
if (write) {
  const file = join(ROOT, 'bench', 'README.md');
  const page = readFileSync(file, 'utf8');
  const begin = page.indexOf('<!-- bench:table');
  const end = page.indexOf('<!-- bench:end -->');
  if (begin < 0 || end < begin) throw new Error(`${file}: no <!-- bench:table ... --> ... <!-- bench:end --> block to rewrite`);
  const head = page.slice(begin, page.indexOf('\n', begin) + 1);
  writeFileSync(file, `${page.slice(0, begin)}${head}On ${machine} (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), load average ${load} at the start.\n\n${resultsTable()}\n${page.slice(end)}`);
  console.log(`wrote the table of ${file}`);
}
