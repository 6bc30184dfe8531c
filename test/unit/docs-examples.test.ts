// Every shell example of README.md and docs/ runs, as written, against the emulator: an example
// that fails is a reader's first command failing. The fenced `sh` blocks are read from the
// markdown; a block that cannot run here (it installs, signs in to a real service, drives a
// terminal, runs until stopped) is marked just above it with `<!-- examples: skip (why) -->`.
// A line that is one `vx` command (or `echo … | vx …`) runs in-process through run(argv, factory)
// against an emulator started in this process; anything else runs in `sh` with a `vx` on PATH.
// docs/commands/ is generated from --help, whose examples test/e2e/help-examples.test.ts runs.
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { runInProc } from '../helpers/inproc.js';
import { inProcess } from '../helpers/shell-line.js';
import { BIN, removeDir, tempDir } from '../helpers/vx.js';

const ROOT = join(import.meta.dirname, '..', '..');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

interface Example {
  page: string;
  line: number;
  text: string;
}

interface Block {
  page: string;
  line: number;
  lang: string;
  skip?: string;
  lines: Example[];
}

/** The fenced blocks of a page, with the skip mark written just above each. */
function blocks(page: string): Block[] {
  const out: Block[] = [];
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  let open: Block | undefined;
  lines.forEach((l, i) => {
    if (open) {
      if (/^```\s*$/.test(l)) return void (out.push(open), (open = undefined));
      const last = open.lines.at(-1);
      if (last?.text.endsWith('\\')) last.text = `${last.text.slice(0, -1)} ${l.trim()}`;
      else if (l.trim() && !l.trim().startsWith('#')) open.lines.push({ page, line: i + 1, text: l.trim() });
      return;
    }
    const fence = /^```(\S*)/.exec(l);
    if (!fence) return;
    const mark = /^<!-- examples: skip \((.+)\) -->$/.exec(lines[i - 1] ?? '');
    open = { page, line: i + 1, lang: fence[1]!, lines: [], ...(mark ? { skip: mark[1] } : {}) };
  });
  return out;
}

const ALL = PAGES.flatMap(blocks);
const SHELL = ALL.filter((b) => b.lang === 'sh');

// ---- the scratch directory: the files the examples name ----

const FIXTURES = join(ROOT, 'test', 'fixtures', 'files');
const TMX = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en" creationtool="t" creationtoolversion="1" o-tmf="t"/>
<body><tu><tuv xml:lang="en"><seg>Good morning</seg></tuv><tuv xml:lang="de"><seg>Guten Morgen</seg></tuv></tu></body></tmx>
`;

function scratch(dir: string): void {
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const copy = (from: string, to: string) => {
    mkdirSync(dirname(join(dir, to)), { recursive: true });
    copyFileSync(join(FIXTURES, from), join(dir, to));
  };
  put('notes.txt', 'Good morning\nSee you tomorrow\n');
  put('page.html', '<p>Hello <b>world</b></p>\n');
  put('terms.csv', 'en,de,fr\nGood morning,Guten Morgen,Bonjour\n');
  put('vendor.tmx', TMX);
  put('config/locales/en.yml', 'en:\n  hello: "Hello"\n  bye: "Goodbye"\n');
  copy('SalesTools.g.xlf', 'Translations/SalesTools.g.xlf');
  copy('en.json', 'locales/en.json');
  copy('en.json', 'locales/en/app.json');
  copy('messages.pot', 'po/messages.pot');
  copy('README.md', 'README.md');
  copy('android/thunderbird/values/arrays_general_settings_strings.xml', 'app/src/main/res/values/strings.xml');
  copy('xcstrings/netnewswire/DefaultAccountNames.xcstrings', 'App/Localizable.xcstrings');
  copy('arb/l10n/intl_en.arb', 'lib/l10n/app_en.arb');
  put('vx', `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(dir, 'vx'), 0o755);
}

function sh(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', line], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('the examples of README.md and docs/', () => {
  let emu: Emulator;
  let dir: string;
  let env: Record<string, string>;
  const home = process.cwd();

  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
    dir = tempDir('vx-docs-');
    scratch(dir);
    // PATH: `emulator exec` runs the `vx` of PATH, the shim to the built bin/vx.js; no floor of 1 s
    // between status reads (core/poll.ts: a knob for tests), in-process and spawned alike
    env = { ...emu.env(), VX_CONFIG_DIR: join(dir, '.config'), NO_COLOR: '1', VX_POLL_FLOOR_MS: '5', TOKEN: 'emulator-token', COMPANY: emu.env().VX_ERP_COMPANY!, HOME: dir, PATH: `${dir}:${process.env.PATH ?? '/usr/bin:/bin'}` };
    process.chdir(dir);
  });

  afterAll(async () => {
    process.chdir(home);
    await emu?.close();
    if (dir) removeDir(dir);
  });

  it('are in fenced blocks that say their language; a skipped block says why', () => {
    const bare = ALL.filter((b) => !b.lang).map((b) => `${b.page}:${b.line}`);
    expect(bare, 'a fenced block without a language (sh, text, ts, ...)').toEqual([]);
    expect(SHELL.filter((b) => !b.skip).length).toBeGreaterThan(8);
    for (const b of ALL.filter((x) => x.skip)) expect(b.lang, `${b.page}:${b.line}: only sh blocks are run`).toBe('sh');
  });

  it('run against the emulator, in-process where they are one vx command', async () => {
    const failed: string[] = [];
    let spawned = 0;
    for (const page of PAGES) {
      emu.reset();
      // status reads of a quota change at once (the emulator's default Retry-After is 1 second)
      emu.state.mgmt.retryAfter = 0;
      for (const e of SHELL.filter((b) => b.page === page && !b.skip).flatMap((b) => b.lines)) {
        const simple = inProcess(e.text, env);
        let code: number | null;
        let stderr: string;
        if (simple) ({ code, stderr } = await runInProc(simple.argv, { env, network: true, ...(simple.stdin !== undefined ? { stdin: simple.stdin } : {}) }));
        else {
          spawned++;
          ({ code, stderr } = await sh(e.text, dir, { ...process.env, ...env }));
        }
        // a destructive example without --yes asks at a terminal; here, without one, it must say so
        const asks = code === 2 && /confirmation needed; pass --yes/.test(stderr);
        if (code !== 0 && !asks) failed.push(`${e.page}:${e.line}: ${e.text}\n    exit ${code}: ${stderr.trim()}`);
      }
    }
    expect(failed).toEqual([]);
    // spawning costs ~0.2 s a line: keep the examples simple enough to run in-process
    expect(spawned).toBeLessThan(4);
  }, 60_000);

  it('docs/reliability.md names tests that exist, and the cases it quotes are in them', () => {
    const page = readFileSync(join(ROOT, 'docs', 'reliability.md'), 'utf8');
    const missing: string[] = [];
    let named = 0;
    for (const line of page.split('\n').filter((l) => l.startsWith('- '))) {
      // `test/e2e/x.test.ts` ("a describe or it name", "another")
      for (const m of line.matchAll(/`(test\/[^`]+\.test\.ts)`(?: \(((?:"[^"]*"(?:, )?)+)\))?/g)) {
        named++;
        let source: string;
        try {
          source = readFileSync(join(ROOT, m[1]!), 'utf8').replace(/\\'/g, "'");
        } catch {
          missing.push(`${m[1]} does not exist`);
          continue;
        }
        for (const [, name] of (m[2] ?? '').matchAll(/"([^"]*)"/g)) {
          if (!source.includes(name!.replace(/\.\.\.|…/g, '').trim())) missing.push(`${m[1]} has no case "${name}"`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(named).toBeGreaterThan(30);
  });

  it("README's first command prints the pseudo-translation the README shows", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('npm ci && npm run build && node bin/vx.js emulator exec -- vx translate --to de --to fr "Good morning"\n');
    const shown = /```text\n(de\t[^\n]*\nfr\t[^\n]*\n)```/.exec(readme)?.[1];
    // a configuration of its own: the examples set and switch profiles
    const r = await runInProc(['translate', '--to', 'de', '--to', 'fr', 'Good morning'], { env: { ...env, VX_CONFIG_DIR: join(dir, '.config-first') }, network: true });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(shown);
    expect(readme).toContain('pseudo-translations: `Good morning` to `de` is `[de] Ĝööð ɱöŕñîñĝ`');
  });
});
