// The binary's contract outside any one family: usage errors, network failures, `vx api` against
// every family, SIGINT, --help examples on every command, completion scripts in sync.
import { mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { useEmulator } from '../helpers/emulator.js';
import { hasPty, runOnPty } from '../helpers/pty.js';
import { closedPort, ROOT, runVx, tempDir, removeDir } from '../helpers/vx.js';

const e2e = useEmulator();
const company = () => e2e.emu.state.erp.defaultCompany as string;
const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at .*:\d+/);


describe('usage errors exit 2 and send nothing', () => {
  // every usage error runs in-process (unit/core-cli-inproc); this one proves the real process's exit code
  const cases: [string, string[], RegExp][] = [
    ['unknown command', ['frobnicate'], /unknown command 'frobnicate'/],
  ];
  for (const [name, args, re] of cases) {
    it(name, async () => {
      const r = await e2e.run(args);
      expect(r.stderr).toMatch(re);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      noStack(r.stderr);
      expect(e2e.emu.count()).toBe(0);
    });
  }
});

describe('network failures exit 8', () => {
  it('connection refused (retried, then one line)', async () => {
    const port = await closedPort();
    const r = await e2e.run(['--retries', '1', 'api', 'GET', '/api/v2.0/companies', '--service', 'erp'], { env: { VX_ERP_PREFIX: `http://127.0.0.1:${port}/erp` } });
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(new RegExp(`^vx: GET http://127.0.0.1:${port}/erp/api/v2.0/companies: .*ECONNREFUSED.*\\(after 2 attempts\\)\\n$`));
    expect(r.stdout).toBe('');
  });

  it('timeout (--timeout against an emulator latency fault)', async () => {
    e2e.emu.setFaults('latency:3000');
    const started = Date.now();
    const r = await e2e.run(['--timeout', '0.3', '--retries', '1', 'api', 'GET', '/api/v2.0/companies', '--service', 'erp']);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/^vx: GET .*\/erp\/api\/v2.0\/companies: timed out after \d+ ms \(after 2 attempts\)\n$/);
    expect(Date.now() - started).toBeLessThan(2800);
    // two attempts; on a busy machine the first may time out before it reaches the emulator
    expect(e2e.emu.count({ family: 'erp' })).toBeGreaterThanOrEqual(1);
    expect(e2e.emu.count({ family: 'erp' })).toBeLessThanOrEqual(2);
  });
});

describe('vx api against every family', () => {
  it.skipIf(!hasPty)('a binary answer (a PDF) is not written to a terminal: exit 2 with the way out; a pipe gets it byte for byte', async () => {
    const pdf = `/api/v2.0/companies(${company()})/salesOrders(0000100e-0000-4000-8000-0000000e0001)/pdfDocument/pdfDocumentContent`;
    const tty = await runOnPty(['api', 'GET', pdf, '--service', 'erp'], { env: e2e.env });
    expect([tty.code, tty.output]).toEqual([
      2,
      expect.stringMatching(/^vx: the answer is binary \(application\/pdf, \d+ bytes\), not shown on the terminal: redirect it to a file \(vx api \.\.\. > answer\.bin\) or pipe it \(the request itself was sent and succeeded\)\r\n$/),
    ]);
    expect(e2e.emu.log.at(-1)).toMatchObject({ method: 'GET', status: 200 });
    const piped = await e2e.run(['api', 'GET', pdf, '--service', 'erp']);
    expect([piped.code, piped.stderr, piped.stdout.slice(0, 8)]).toEqual([0, '', '%PDF-1.4']);
    // text is still shown on a terminal
    const text = await runOnPty(['api', 'GET', `/api/v2.0/companies(${company()})/salesOrders/$count`, '--service', 'erp'], { env: e2e.env });
    expect([text.code, text.output]).toEqual([0, expect.stringMatching(/^\d+\r\n$/)]);
  });

  it('erp: GET prints the payload; --paginate follows @odata.nextLink with a --header', async () => {
    const one = await e2e.run(['api', 'GET', '/api/v2.0/companies', '--service', 'erp']);
    expect(one.code).toBe(0);
    const body = JSON.parse(one.stdout);
    expect(body['@odata.context']).toContain('$metadata#companies');
    expect(body.value.map((c: any) => c.name)).toEqual(['CRONUS USA, Inc.', 'My Company']);
    expect(e2e.emu.log[0].headers?.authorization).toBe('Bearer emulator-token');
    expect(e2e.emu.log[0].headers?.['user-agent']).toMatch(/^vx\/\d/);

    e2e.emu.log.length = 0;
    const all = await e2e.run(['api', 'GET', `/api/v2.0/companies(${company()})/salesOrders`, '--service', 'erp', '--paginate', '--header', 'Prefer: odata.maxpagesize=20', '-q', '[].number']);
    expect(all.stderr).toBe('');
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)).toEqual(Array.from({ length: 45 }, (_, i) => `S-ORD${101001 + i}`));
    expect(e2e.emu.log).toHaveLength(3);
    for (const l of e2e.emu.log) expect(l.headers?.prefer).toBe('odata.maxpagesize=20');
  });

  it('erp: POST with --data @file and --data - sends the exact body as JSON', async () => {
    const dir = tempDir();
    try {
      const file = join(dir, 'c.json');
      writeFileSync(file, '{"code":"XTA","displayName":"Test A"}');
      const path = `/api/v1.0/companies(${company()})/currencies`;
      const a = await e2e.run(['api', 'POST', path, '--service', 'erp', '--data', `@${file}`]);
      expect(a.stderr).toBe('');
      expect(a.code).toBe(0);
      expect(JSON.parse(a.stdout)).toMatchObject({ code: 'XTA', displayName: 'Test A' });
      const b = await e2e.run(['api', 'post', path, '--service', 'erp', '--data', '-', '-o', 'json'], { input: '{"code":"XTB"}\n' });
      expect(b.code).toBe(0);
      const posts = e2e.emu.log.filter((l) => l.method === 'POST');
      expect(posts.map((l) => l.body)).toEqual(['{"code":"XTA","displayName":"Test A"}', '{"code":"XTB"}\n']);
      for (const p of posts) expect(p.headers?.['content-type']).toBe('application/json');
      expect(e2e.emu.state.erp.data[company()].currencies.map((c: any) => c.code)).toEqual(expect.arrayContaining(['XTA', 'XTB']));
    } finally {
      removeDir(dir);
    }
  });

  it('translator: the subscription key is sent and the 6-digit error code is reported', async () => {
    const r = await e2e.run(['api', 'POST', '/nope?api-version=3.0', '--service', 'translator', '--data', '[{"Text":"hi"}]']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^vx: HTTP 404 Not Found 404000: .* \(request id TRAN\.[0-9A-Z.]+\)\n$/);
    expect(e2e.emu.log[0].headers?.['vendor-subscription-key']).toBe('emulator-key');
    expect(e2e.emu.log[0].headers?.['content-type']).toBe('application/json; charset=UTF-8');
    expect(e2e.emu.log[0].body).toBe('[{"Text":"hi"}]');
  });

  it('mgmt and lcs: bearer token, each family error shape, 401 is exit 3', async () => {
    const m = await e2e.run(['api', 'GET', '/subscriptions/none/nothing', '--service', 'mgmt']);
    expect(m.code).toBe(4);
    expect(m.stderr).toMatch(/^vx: HTTP 404 Not Found ResourceNotFound: /);
    expect(e2e.emu.log[0].headers?.authorization).toBe('Bearer emulator-token');

    const l = await e2e.run(['api', 'GET', '/databasemovement/v1/fetchstatus/project/1/environment/e/operationactivity/a', '--service', 'lcs'], { env: { VX_LCS_TOKEN: 'wrong-token-1234' } });
    expect(l.code).toBe(3);
    expect(l.stderr).toMatch(/^vx: HTTP 401 Unauthorized/);
    expect(l.stderr).not.toContain('wrong-token-1234');
    expect(e2e.emu.log[1].headers?.['x-vendor-version']).toBe('2017-09-15');

    const e = await e2e.run(['api', 'GET', '/api/v2.0/companies', '--service', 'erp'], { env: { VX_ERP_TOKEN: 'bad-token-5678' } });
    expect(e.code).toBe(3);
    expect(e.stderr).not.toContain('bad-token-5678');
  });

  it('--dry-run prints the request with secrets redacted and sends nothing', async () => {
    const r = await e2e.run(['--dry-run', 'api', 'POST', '/api/v2.0/companies', '--service', 'erp', '--data', '{"a":1}', '-H', 'X-Trace: t1']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      {
        method: 'POST',
        url: `${e2e.env.VX_ERP_PREFIX}/api/v2.0/companies`,
        headers: { 'user-agent': expect.stringMatching(/^vx\//), authorization: 'Bearer ***', 'content-type': 'application/json', 'x-trace': 't1' },
        body: { a: 1 },
      },
    ]);
    expect(r.stdout).not.toContain('emulator-token');
    expect(e2e.emu.count()).toBe(0);
  });

  it('--debug traces the exchange on stderr with the token redacted; stdout keeps only data', async () => {
    const r = await e2e.run(['--debug', 'api', 'GET', '/api/v2.0/companies', '--service', 'erp', '-q', 'length(value)']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('2\n');
    expect(r.stderr).toContain('[debug] > GET ');
    expect(r.stderr).toContain('[debug] > authorization: Bearer ***');
    expect(r.stderr).toMatch(/\[debug\] < 200 \(\d+ ms\)/);
    expect(r.stderr).not.toContain('emulator-token');
  });
});

describe('output formats from the binary', () => {
  it('json, yaml, table, tsv, csv, ndjson, text and none, with --query', async () => {
    const q = ['-q', 'value[].{name: name, id: id}'];
    const args = (f: string) => ['api', 'GET', '/api/v2.0/companies', '--service', 'erp', '-o', f, ...q];
    const out: Record<string, string> = {};
    for (const f of ['json', 'yaml', 'table', 'tsv', 'csv', 'ndjson', 'text', 'none']) {
      const r = await e2e.run(args(f));
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      out[f] = r.stdout;
    }
    const rows = JSON.parse(out.json) as { name: string; id: string }[];
    expect(rows.map((r) => r.name)).toEqual(['CRONUS USA, Inc.', 'My Company']);
    expect(out.yaml).toBe(rows.map((r) => `- name: ${r.name}\n  id: ${r.id}\n`).join(''));
    expect(out.table.split('\n')[0]).toMatch(/^NAME +ID$/);
    expect(out.tsv).toBe(rows.map((r) => `${r.name}\t${r.id}\n`).join(''));
    expect(out.text).toBe(out.tsv);
    expect(out.csv).toBe(`name,id\n${rows.map((r) => `${r.name.includes(',') ? `"${r.name}"` : r.name},${r.id}\n`).join('')}`);
    expect(out.csv).toContain('\n"CRONUS USA, Inc.",');
    expect(out.ndjson).toBe(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
    expect(out.none).toBe('');
  });

  it('colour only when forced: FORCE_COLOR colours the table header, NO_COLOR wins', async () => {
    const args = ['api', 'GET', '/api/v2.0/companies', '--service', 'erp', '-o', 'table', '-q', 'value[].{name: name}'];
    const forced = await e2e.run(args, { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(forced.stdout.startsWith('\u001b[1mNAME')).toBe(true);
    const both = await e2e.run(args, { env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(both.stdout.startsWith('NAME')).toBe(true);
    const flag = await e2e.run(['--no-color', ...args], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(flag.stdout).not.toContain('\u001b[');
    const err = await e2e.run(['api', 'GET', '/nope', '--service', 'erp'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(err.stderr.startsWith('\u001b[31mvx:')).toBe(true);
  });
});

describe('SIGINT', () => {
  it('exits 130 with one line while a request hangs', async () => {
    e2e.emu.setFaults('hang:1');
    const r = await e2e.run(['api', 'GET', '/api/v2.0/companies', '--service', 'erp'], {
      onSpawn: (child) => {
        const t = setInterval(() => {
          if (e2e.emu.log.length) {
            clearInterval(t);
            child.kill('SIGINT');
          }
        }, 20);
      },
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toBe('vx: interrupted\n');
    expect(r.stdout).toBe('');
  });
});

describe('help and completion', () => {
  const all: Command[] = [];
  const walk = (c: Command) => {
    all.push(c);
    c.commands.forEach(walk);
  };
  walk(buildProgram());
  const pathOf = (c: Command): string => (c.parent ? `${pathOf(c.parent)} ${c.name()}` : c.name());

  it('every command has a description and examples in --help', () => {
    expect(all.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const c of all) {
      let out = '';
      c.configureOutput({ writeOut: (s) => void (out += s), writeErr: (s) => void (out += s) });
      c.outputHelp();
      if (!c.description() || !/\nExamples:\n {2}\$ .*\bvx\b/.test(out)) missing.push(pathOf(c));
    }
    expect(missing).toEqual([]);
  });

  it('no help example puts a shell variable in single quotes or cuts a value short (both are sent as the literal text)', () => {
    const bad: string[] = [];
    for (const c of all) {
      let out = '';
      c.configureOutput({ writeOut: (s) => void (out += s), writeErr: (s) => void (out += s) });
      c.outputHelp();
      for (const line of out.split('\n').filter((l) => l.startsWith('  $ '))) {
        // the single-quoted stretches of the example: a $NAME inside one never expands
        const quoted = line.match(/'[^']*'/g) ?? [];
        if (quoted.some((q) => /\$[A-Za-z_{]/.test(q))) bad.push(`${pathOf(c)}: ${line.trim()}`);
        // a value cut short (5e0c…) looks real and is sent as is; an unknown value is a <placeholder>
        if (/\w(…|\.\.\.)/.test(line)) bad.push(`${pathOf(c)}: ${line.trim()}`);
      }
    }
    expect(bad).toEqual([]);
  });

  // profile set|unset --help list every setting key: unit/core-cli-inproc

  it('the binary prints help with examples and exits 0', async () => {
    for (const args of [['--help'], ['api', '--help'], ['profile', 'set', '--help'], ['help', 'emulator']]) {
      const r = await runVx(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/Examples:\n {2}\$ .*\bvx\b/);
    }
  });

  it('bash completion works when sourced: nouns, aliases, option values, output formats, setting keys', () => {
    const script = [
      ...BASH_COMP,
      'complete -p vx',
      'comp vx erp sa',
      'comp vx mgmt quota ""',
      'comp vx -o ""',
      'comp vx erp sales-orders list --output t',
      'comp vx erp salesorders list --fil',
      'comp vx mgmt version-sets create v1 --scheme ""',
      'comp vx profile set mgmt.s',
      'comp vx -p staging profile unset erp.t',
      // --opt=value: bash splits the line at = (COMP_WORDBREAKS), so the words are --output, =, t
      'comp vx erp sales-orders list --output = t',
      'comp vx mgmt version-sets create v1 --scheme =',
      // vx takes enum values in any case, so completion matches them in any case
      'comp vx mgmt version-sets create v1 --scheme h',
      'comp vx translate --profanity-action m',
      // after --, words are operands (translate's text, exec's command): no subcommand, no option
      'comp vx translate --to de -- ""',
      'comp vx emulator exec -- vx ""',
      // commander's help command is offered where it is (not after translate, which takes "help" as text), and completes the nouns
      'comp vx h',
      'comp vx help e',
      'comp vx erp help sales-o',
      'comp vx translate h',
    ].join('\n');
    const r = spawnSync('bash', ['--norc', '--noprofile', '-c', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')).toEqual([
      'complete -o default -F _vx vx',
      'salespeople salespeoplepurchasers salespeople-purchasers sales-orders salesorders sales-quotes salesquotes',
      'get set requests wizard list report check apply help',
      'json yaml table wide tsv csv ndjson text none',
      'table tsv text',
      '--filter',
      'Segment Query Header',
      'mgmt.subscription mgmt.scope',
      'erp.token erp.tenant',
      'table tsv text',
      'Segment Query Header',
      'Header',
      'Marked',
      '',
      '',
      'help',
      'erp emulator',
      'sales-orders',
      '',
      '',
    ]);
  });

  it('bash completion offers the profile names vx knows after -p/--profile and for profile use/delete/show', () => {
    const { dir, bin, cfg } = completionSandbox({ activeProfile: 'staging', profiles: { default: {}, staging: { 'erp.company': 'x' }, 'prod-eu': {} } });
    try {
      const script = [
        ...BASH_COMP,
        'comp vx -p ""',
        'comp vx --profile pr',
        'comp vx profile use st',
        'comp vx profile delete ""',
        'comp vx -p staging erp sa',
        'comp vx profile use staging ""',
      ].join('\n');
      // a VX_PROFILE naming a missing profile must not break completion
      const env = { PATH: `${bin}:${process.env.PATH}`, HOME: dir, VX_CONFIG_DIR: cfg, VX_PROFILE: 'gone' };
      const r = spawnSync('bash', ['--norc', '--noprofile', '-c', script], { encoding: 'utf8', env });
      expect(r.stderr).toBe('');
      expect(r.stdout.split('\n')).toEqual([
        'default prod-eu staging',
        'prod-eu',
        'staging',
        'default prod-eu staging',
        'salespeople salespeoplepurchasers salespeople-purchasers sales-orders salesorders sales-quotes salesquotes',
        '',
        '',
      ]);
    } finally {
      removeDir(dir);
    }
  });

  // compgen -W expands each word it is given: a profile name such as $(cmd) in a config.json that
  // came from elsewhere (a team's, a dotfiles repository) ran that command at the TAB
  it('bash completion never runs a profile name: only names vx could have made are offered', () => {
    const { dir, bin, cfg } = completionSandbox({ profiles: { default: {}, [`$(touch${'${IFS}'}pwned)`]: {}, 'a`touch${IFS}pwned2`': {}, 'p;touch pwned3': {} } });
    try {
      const script = [...BASH_COMP, 'comp vx profile use ""', 'comp vx -p ""'].join('\n');
      const env = { PATH: `${bin}:${process.env.PATH}`, HOME: dir, VX_CONFIG_DIR: cfg };
      const r = spawnSync('bash', ['--norc', '--noprofile', '-c', script], { encoding: 'utf8', env, cwd: dir });
      expect(r.stderr).toBe('');
      expect(r.stdout.split('\n')).toEqual(['default', 'default', '']);
      expect(readdirSync(dir).filter((f) => f.startsWith('pwned'))).toEqual([]);
    } finally {
      removeDir(dir);
    }
  });

  const zsh = spawnSync('sh', ['-c', 'command -v zsh'], { encoding: 'utf8' }).stdout.trim();
  it.skipIf(!zsh)('zsh completion (sourced, compadd stubbed): nouns, formats, files and the profile names from vx', () => {
    const { dir, bin, cfg } = completionSandbox({ profiles: { default: {}, staging: {} } });
    try {
      const script = [
        'compdef() { :; }',
        'compadd() { [[ "$1" == "--" ]] && shift; echo "$@"; }',
        // (compset works only inside a completion widget: this does what compset -P '*=' does)
        'compset() { PREFIX="${PREFIX#*=}"; }',
        '_files() { echo FILES; }',
        `source ${JSON.stringify(join(ROOT, 'completions', '_vx'))}`,
        'words=(vx -p ""); CURRENT=3; PREFIX=""; _vx',
        'words=(vx profile show ""); CURRENT=4; PREFIX=""; _vx',
        'words=(vx erp sa); CURRENT=3; PREFIX=sa; _vx',
        'words=(vx -o ""); CURRENT=3; PREFIX=""; _vx',
        'words=(vx translate --file ""); CURRENT=4; PREFIX=""; _vx',
        'words=(vx translate --to de -- ""); CURRENT=6; PREFIX=""; _vx',
        // --opt=value: the value is completed as after a space (was: nothing)
        'words=(vx erp sales-orders list --output=); CURRENT=5; PREFIX="--output="; _vx',
        'words=(vx translate --file=); CURRENT=3; PREFIX="--file="; _vx',
        'words=(vx translate --whole=); CURRENT=3; PREFIX="--whole="; _vx',
        'words=(vx h); CURRENT=2; PREFIX=h; _vx',
        'words=(vx help ""); CURRENT=3; PREFIX=""; _vx',
      ].join('\n');
      const env = { PATH: `${bin}:${process.env.PATH}`, HOME: dir, VX_CONFIG_DIR: cfg };
      const r = spawnSync(zsh, ['-f', '-c', script], { encoding: 'utf8', env });
      expect(r.stderr).toBe('');
      expect(r.stdout.split('\n')).toEqual([
        'default staging',
        'default staging',
        'companies salespeople salespeoplepurchasers salespeople-purchasers currencies job-queue-entries jobqueueentries sales-orders salesorders sales-quotes salesquotes refresh help',
        'json yaml table wide tsv csv ndjson text none',
        'FILES',
        'FILES',
        'json yaml table wide tsv csv ndjson text none',
        'FILES',
        'translate erp mgmt auth profile api completion emulator version help',
        'translate erp mgmt auth profile api completion emulator version',
        '',
      ]);
    } finally {
      removeDir(dir);
    }
  });

  const fish = spawnSync('sh', ['-c', 'command -v fish'], { encoding: 'utf8' }).stdout.trim();
  it.skipIf(!fish)('fish completion: short options take their values (-o json), a list of values is offered alone (no file names), -- ends the options', () => {
    const { dir, bin, cfg } = completionSandbox({ profiles: { default: {}, staging: {} } });
    try {
      writeFileSync(join(dir, 'notes.txt'), '');
      const lines = [
        'vx -o ',
        'vx erp sales-orders list -o t',
        'vx erp sales-orders list --output ',
        'vx mgmt version-sets create v1 --scheme ',
        'vx api GET /x --service ',
        'vx translate -f ',
        'vx -p ',
        'vx --profile s',
        'vx translate --to de -- ',
        'vx translate --to de -- --fr',
        'vx emulator exec -- vx ',
        'vx h',
      ];
      const script = [
        `source ${JSON.stringify(join(ROOT, 'completions', 'vx.fish'))}`,
        ...lines.map((l) => `complete -C ${JSON.stringify(l)} | string join ' '`),
      ].join('\n');
      const env = { PATH: `${bin}:${process.env.PATH}`, HOME: dir, VX_CONFIG_DIR: cfg };
      const r = spawnSync(fish, ['--no-config', '-c', script], { encoding: 'utf8', env, cwd: dir });
      expect(r.stderr).toBe('');
      expect(r.stdout.split('\n')).toEqual([
        'csv json ndjson none table text tsv wide yaml',
        'table text tsv',
        'csv json ndjson none table text tsv wide yaml',
        'Header Query Segment',
        'erp lcs mgmt translator',
        'bin/ cfg/ notes.txt',
        'default staging',
        'staging',
        // after --, words are operands: file names, as bash and zsh offer (was nothing: `complete -f`);
        // none of vx's options (--fr matches no file: no line)
        'bin/ cfg/ notes.txt',
        'bin/ cfg/ notes.txt',
        'help',
        '',
      ]);
    } finally {
      removeDir(dir);
    }
  });

  // PowerShell's completer went on offering subcommands and options after `--` (bash, zsh and fish
  // stop there): `vx emulator exec -- vx <Tab>` offered vx's own nouns. The loop now stops at `--`
  // and returns nothing, so PowerShell falls back to file names as bash and zsh offer.
  it('powershell completion: after -- nothing of vx is offered (the loop over the words stops at --)', () => {
    const ps1 = readFileSync(join(ROOT, 'completions', 'vx.ps1'), 'utf8');
    const loop = /for \(\$i = 1; \$i -lt \$last; \$i\+\+\) \{\n([\s\S]*?)\n {2}\}\n/.exec(ps1)?.[1] ?? '';
    const lines = loop.split('\n').map((l) => l.trim()).filter((l) => !l.startsWith('#'));
    // the word is read, a value being skipped stays skipped, then -- ends everything before options and nouns are looked at
    expect(lines.slice(0, 4)).toEqual(['$w = $words[$i]', 'if ($skip) { $skip = $false; continue }', "if ($w -eq '--') { return }", '$node = $__vxTree[$path]']);
  });

  // PowerShell completed nothing after `--opt=` (bash and zsh complete the value), offered nouns
  // after an option that takes a file (`vx translate --file <Tab>`: file sync memory), and never
  // offered commander's `help` command. (pwsh is not here: the script text is checked.)
  it('powershell completion: --opt=value completes the value (written back with its --opt=), a file option gets file names, help is a noun', () => {
    const ps1 = readFileSync(join(ROOT, 'completions', 'vx.ps1'), 'utf8');
    const body = ps1.slice(ps1.indexOf('  $node = $__vxTree[$path]\n  #'));
    const lines = body.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    expect(lines.slice(0, 13)).toEqual([
      '$node = $__vxTree[$path]',
      // vx help erp <Tab>: no node (was a method called on $null)
      'if (-not $node) { return }',
      "$prev = if ($last -ge 1) { $words[$last - 1] } else { '' }",
      "$prefix = ''",
      "if ($wordToComplete -match '^(--[^=]+)=(.*)$') {",
      '$prev = $matches[1]; $prefix = "$prev="; $wordToComplete = $matches[2]',
      'if ($node.valued -notcontains $prev) { return }',
      "if ($prev -ne '--profile' -and -not $node.choices.ContainsKey($prev)) {",
      '[System.Management.Automation.CompletionCompleters]::CompleteFilename($wordToComplete) | ForEach-Object { [System.Management.Automation.CompletionResult]::new("$prefix$($_.CompletionText)", $_.ListItemText, $_.ResultType, $_.ToolTip) }',
      'return',
      '}',
      '}',
      "if ($node.valued -contains $prev -and $prev -ne '-p' -and $prev -ne '--profile' -and -not $node.choices.ContainsKey($prev)) { return }",
    ]);
    // every candidate (an option's value, a profile, a noun) is written back after the --opt= it completes
    expect(lines.at(-2)).toBe(`$candidates | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object { [System.Management.Automation.CompletionResult]::new("$prefix$_", $_, 'ParameterValue', $_) }`);
    expect(ps1).toContain("\n  'vx' = @{ cmds = @('translate', 'erp', 'mgmt', 'auth', 'profile', 'api', 'completion', 'emulator', 'version', 'help'); ");
    expect(ps1).toContain("\n  'vx help' = @{ cmds = @('translate', 'erp', 'mgmt', 'auth', 'profile', 'api', 'completion', 'emulator', 'version'); opts = @('--help'); ");
    expect(ps1).toContain("\n  'vx translate' = @{ cmds = @('file', 'sync', 'check', 'memory'); ");
  });

  const pwsh = spawnSync('sh', ['-c', 'command -v pwsh'], { encoding: 'utf8' }).stdout.trim();
  it.skipIf(!pwsh)('powershell completion (TabExpansion2): nouns, option values, nothing of vx after --', () => {
    const { dir, bin, cfg } = completionSandbox({ profiles: { default: {} } });
    try {
      const lines = ['vx erp sa', 'vx -o t', 'vx translate --to de -- ', 'vx emulator exec -- vx e', 'vx --output=t', 'vx erp sales-orders list --output=', 'vx h', 'vx translate --file '];
      const script = [
        `. ${JSON.stringify(join(ROOT, 'completions', 'vx.ps1'))}`,
        ...lines.map((l) => `((TabExpansion2 -inputScript '${l}' -cursorColumn ${l.length}).CompletionMatches | Where-Object { $_.ResultType -eq 'ParameterValue' } | ForEach-Object { $_.CompletionText }) -join ' '`),
      ].join('\n');
      const env = { PATH: `${bin}:${process.env.PATH}`, HOME: dir, VX_CONFIG_DIR: cfg };
      const r = spawnSync(pwsh, ['-NoProfile', '-NonInteractive', '-Command', script], { encoding: 'utf8', env, cwd: dir });
      expect(r.stdout.split('\n')).toEqual([
        'salespeople salespeoplepurchasers salespeople-purchasers sales-orders salesorders sales-quotes salesquotes',
        'table tsv text',
        '',
        '',
        '--output=table --output=tsv --output=text',
        '--output=json --output=yaml --output=table --output=wide --output=tsv --output=csv --output=ndjson --output=text --output=none',
        'help',
        '',
        '',
      ]);
    } finally {
      removeDir(dir);
    }
  });

  it('completion scripts are generated from the tree and match completions/ (run `npm run completions` on drift)', async () => {
    const files: Record<string, string> = { bash: 'vx.bash', zsh: '_vx', fish: 'vx.fish', powershell: 'vx.ps1' };
    for (const [shell, file] of Object.entries(files)) {
      const r = await runVx(['completion', shell]);
      expect(r.code).toBe(0);
      expect(r.stdout, `completions/${file} is stale`).toBe(readFileSync(join(ROOT, 'completions', file), 'utf8'));
    }
    const bash = readFileSync(join(ROOT, 'completions', 'vx.bash'), 'utf8');
    for (const c of all) expect(bash).toContain(`"${pathOf(c)}")`);
  });
});

/** A directory with a `vx` on a PATH entry (the built binary) and a config holding `config`. */
function completionSandbox(config: unknown): { dir: string; bin: string; cfg: string } {
  const dir = tempDir('vx-comp-');
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'vx'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin', 'vx.js'))} "$@"\n`, { mode: 0o755 });
  const cfg = join(dir, 'cfg');
  mkdirSync(cfg, { mode: 0o700 });
  writeFileSync(join(cfg, 'config.json'), JSON.stringify(config), { mode: 0o600 });
  return { dir, bin, cfg };
}

/** Sources the bash script and defines `comp <words...>`, which prints what _vx offers for the last word. */
const BASH_COMP = [
  `source ${JSON.stringify(join(ROOT, 'completions', 'vx.bash'))}`,
  'comp() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _vx; echo "${COMPREPLY[*]}"; }',
];
