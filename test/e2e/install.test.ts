// Installing vx as a user would: `npm pack` in a clean copy of the tree (prepack builds dist/),
// then `npm install -g` of the tarball into a temporary prefix, offline: every library is bundled
// into dist/, so the package has no runtime dependency to download.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, removeDir, tempDir } from '../helpers/vx.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let dir: string;
let tarball: string;
let prefix: string;
let files: string[];
let installErr: string;

/** npm's environment without what a developer's shell or the test runner may have set for it */
function npmEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

beforeAll(() => {
  dir = tempDir('vx-pack-');
  const tree = join(dir, 'tree');
  // the files git knows (a clean clone), without dist/: prepack must build it
  const known = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  for (const f of known) {
    if (f.startsWith('dist/') || !existsSync(join(ROOT, f))) continue;
    mkdirSync(join(tree, f, '..'), { recursive: true });
    cpSync(join(ROOT, f), join(tree, f));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');
  const out = execFileSync(npm, ['pack', '--json', '--pack-destination', dir], { cwd: tree, encoding: 'utf8', env: npmEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const info = JSON.parse(out.slice(out.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  tarball = join(dir, info[0]!.filename);
  files = info[0]!.files.map((f) => f.path);
  prefix = join(dir, 'prefix');
  // npm 11 reads a global install's allowScripts from the command line only (docs/install.md); a
  // tarball is known by its absolute path
  const installed = spawnSync(npm, ['install', '-g', '--prefix', prefix, '--offline', `--allow-scripts=lmdb,msgpackr-extract,file:${tarball}`, tarball], { cwd: dir, env: npmEnv(), encoding: 'utf8' });
  if (installed.status !== 0) throw new Error(`npm install -g failed: ${installed.stderr}`);
  installErr = installed.stderr;
}, 240_000); // pack builds the bundles and their code caches: over a minute on a busy machine

afterAll(() => dir && removeDir(dir));

function vx(args: string[]) {
  const bin = join(prefix, 'bin', 'vx');
  return spawnSync(bin, args, { encoding: 'utf8', env: { PATH: `${join(prefix, 'bin')}:${process.env.PATH}`, HOME: dir, VX_CONFIG_DIR: join(dir, 'config') } });
}

describe('npm pack + npm install -g', () => {
  it('packs the built bundle without source maps, tests or sources', () => {
    expect(files).toContain('dist/main.cjs');
    expect(files).toContain('bin/vx.js');
    expect(files.some((f) => f.startsWith('dist/vendor/'))).toBe(true);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files.filter((f) => /^(src|test|bench)\//.test(f) && f !== 'bench/README.md')).toEqual([]);
  });

  it('packs the documentation: README, LICENSE, CHANGELOG, every page they link to, the manual pages', () => {
    for (const f of ['README.md', 'LICENSE', 'CHANGELOG.md', 'docs/man/vx.1', 'docs/man/vx-translate.1', 'docs/commands/vx.md']) expect(files).toContain(f);
    // every relative link of a packed markdown page leads to a packed file: none is dead once installed
    const dead: string[] = [];
    for (const page of files.filter((f) => f.endsWith('.md'))) {
      const prose = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      for (const [, target] of prose.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const file = normalize(join(dirname(page), target!)).replace(/\/$/, '');
        if (!files.includes(file)) dead.push(`${page} -> ${target}`);
      }
    }
    expect(dead).toEqual([]);
  });

  it('installs none of the bundled libraries: only the optional native store (lmdb) comes along', () => {
    expect(readdirSync(join(prefix, 'lib', 'node_modules'))).toEqual(['vx']);
    const deps = join(prefix, 'lib', 'node_modules', 'vx', 'node_modules');
    const installed = existsSync(deps) ? readdirSync(deps).filter((d) => !d.startsWith('.')) : [];
    for (const bundled of ['commander', 'undici', 'chalk', 'conf', '@inquirer', 'yaml', 'openid-client', 'papaparse', 'saxes']) expect(installed).not.toContain(bundled);
  });

  it('installs with no install-scripts warning: package.json reviews every dependency that has one (npm ci), the documented flags a global install', () => {
    expect(installErr).not.toMatch(/install-scripts/);
    const pending = spawnSync(npm, ['install-scripts', 'ls', '--json'], { cwd: ROOT, env: npmEnv(), encoding: 'utf8' });
    expect(pending.status).toBe(0);
    expect(JSON.parse(pending.stdout)).toEqual({ allowScripts: [] });
  });

  it('runs vx --version, --help and a command against the emulator', () => {
    const version = vx(['--version']);
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const help = vx(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: vx');
    const run = vx(['emulator', 'exec', '--', 'vx', 'translate', '--to', 'de', 'Hello', '-o', 'json']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)[0].translations[0].to).toBe('de');
  });

  it('installs the manual pages where man finds them (man vx-translate)', () => {
    const man1 = join(prefix, 'share', 'man', 'man1');
    expect(readdirSync(man1)).toEqual(expect.arrayContaining(['vx.1', 'vx-translate.1', 'vx-erp-sales-orders.1', 'vx-mgmt-quota.1']));
    expect(readFileSync(join(man1, 'vx-translate.1'), 'utf8')).toMatch(/^\.TH "VX-TRANSLATE" "1"/m);
  });
});
