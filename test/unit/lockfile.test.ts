// `npm ci` refuses a lockfile that names an optional dependency it has no entry for, which npm
// writes when the registry lacks a platform build (msgpackr-extract's darwin/win32 packages,
// under lmdb). CI starts with `npm ci`, so this is checked here: run `node .ci/fix-lock.mjs`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/vx.js';

describe('package-lock.json', () => {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { optionalDependencies?: Record<string, string>; hasInstallScript?: boolean }> };
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string | boolean> | undefined>;

  it('every optional dependency it names has an entry (else npm ci fails: node .ci/fix-lock.mjs)', () => {
    const unresolved: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        if (!lock.packages[`${path ? `${path}/` : ''}node_modules/${name}`] && !lock.packages[`node_modules/${name}`]) unresolved.push(`${path || '(root)'} -> ${name}`);
      }
    }
    expect(unresolved).toEqual([]);
  });

  it('every library is bundled into dist/ (dev dependencies); only the native store is a runtime one, and optional', () => {
    expect(pkg.dependencies).toBeUndefined();
    expect(Object.keys(pkg.optionalDependencies ?? {})).toEqual(['lmdb']);
  });

  it('every dependency with an install script is reviewed in allowScripts (else npm 11 warns on npm ci: npm install-scripts approve <pkg>)', () => {
    const withScripts = Object.entries(lock.packages).filter(([path, e]) => path && e.hasInstallScript).map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    const reviewed = Object.keys(pkg.allowScripts ?? {}).map((k) => k.replace(/(?<=.)@.*$/, ''));
    expect(withScripts.filter((name) => !reviewed.includes(name))).toEqual([]);
  });
});
