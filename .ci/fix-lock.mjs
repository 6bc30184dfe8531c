// After `npm install` changes package-lock.json: drop optional platform packages that the npm
// registry reachable here does not serve (msgpackr-extract, under lmdb, lists darwin/win32 builds
// this registry lacks). npm records them in the parent's optionalDependencies without a package
// entry, and `npm ci` then refuses the lockfile ("Missing: ... from lock file"). Run:
//   node .ci/fix-lock.mjs        (test/unit/lockfile.test.ts checks the invariant)
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const dropped = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const name of Object.keys(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    if (!lock.packages[nested] && !lock.packages[`node_modules/${name}`]) {
      delete entry.optionalDependencies[name];
      dropped.push(`${path || '(root)'} -> ${name}`);
    }
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(dropped.length ? `dropped ${dropped.length} unresolvable optional dependencies:\n  ${dropped.join('\n  ')}` : 'package-lock.json is consistent');
