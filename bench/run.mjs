// `npm run bench`: every performance target of the project, each as a ratio against a baseline
// measured in the same run (the machines are shared and noisy). `node bench/run.mjs startup get`
// runs a subset.
import { startup } from './startup.mjs';
import { get } from './get.mjs';
import { paging } from './paging.mjs';
import { translate } from './translate.mjs';
import { files } from './files.mjs';
import { fleet } from './fleet.mjs';
import { bulk } from './bulk.mjs';
import { translateMemoryVolume, translateReuse } from './translate-reuse.mjs';
import { allResults } from './lib.mjs';

const all = { startup, get, paging, translate, translateReuse, translateMemoryVolume, bulk, fleet, files };
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(all);
console.log(`vx benchmarks on node ${process.version}, ${(await import('node:os')).cpus().length} CPUs; ratios of medians, interleaved runs`);
for (const name of chosen) {
  if (!all[name]) throw new Error(`unknown benchmark ${name}; one of ${Object.keys(all).join(', ')}`);
  await all[name]();
}
const res = allResults();
console.log(`${res.filter((r) => r.ok).length} of ${res.length} targets met`);
