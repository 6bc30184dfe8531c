// Property-based tests over the command line of the whole tree (walked from buildProgram()): for
// every command, values typed by what each option holds (choices, counts, ids, JSON, OData,
// files) drawn both valid and hostile (invalid enum values, negative and huge numbers, bad GUIDs,
// unknown flags, missing required options and arguments, extra arguments, any order, globals
// before or after the command). Each case is a whole command line run in-process (the same
// run(argv, factory) as bin/vx.js) against an emulator of its own:
//  - the exit code is one of the contract's (docs/cli-contract.md);
//  - stderr never shows a stack trace or a JavaScript error class;
//  - exit 2 means the emulator received nothing;
//  - a destructive command without --yes and without a terminal sends no write and exits 2.
// The same again with 10% injected faults. Two cases run at once (two lanes). Fixed seed; VX_REL_FUZZ_SEED / VX_REL_FUZZ_RUNS replay or
// extend it (bench/soak.mjs runs 2,000). fast-check prints the seed and the shrunk case on failure.
import type { Option } from 'commander';
import fc from 'fast-check';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedGuid } from '../../src/emulator/erp/seed.js';
import { CONTRACT_CODES, crashSigns, leafCommands, openLane, ownExitCodes, type Lane, type LeafCommand } from '../helpers/lanes.js';

const SEED = Number(process.env.VX_REL_FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.VX_REL_FUZZ_RUNS ?? 100);

// left out: servers and child programs (emulator), the browser/device sign-in (waits for a person)
// and health watch without --once (it polls until stopped; its --once runs are in mgmt-fleet-health)
const SKIP = new Set(['emulator start', 'emulator exec', 'auth login', 'mgmt health watch']);
const { program, leaves: all } = leafCommands();
const leaves = all.filter((l) => !SKIP.has(l.path.join(' ')));
const DESTRUCTIVE = (l: LeafCommand) => /(^| )(delete|refresh)$|^mgmt quota set$/.test(l.path.join(' '));
const destructive = leaves.filter(DESTRUCTIVE);

// ---------------------------------------------------------------- values

const noNul = (s: string) => !s.includes('\0');
const anyText = fc
  .oneof(
    { weight: 4, arbitrary: fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 8 })) },
    // control characters: a value that could break a message into lines or drive the terminal
    { weight: 1, arbitrary: fc.constantFrom('\u001b[2J\u001b[31mred', 'two\nlines', 'tab\there', 'bell\u0007', 'cr\rx') },
  )
  .filter(noNul);
const one = (...v: string[]) => fc.constantFrom(...v);
/** mostly valid values (so cases get past validation to the service), sometimes hostile ones */
const mix = (valid: fc.Arbitrary<string>, hostile: fc.Arbitrary<string>) => fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: hostile });

const guid = mix(
  one(seedGuid(14, 1), seedGuid(11, 1), seedGuid(10, 1), seedGuid(16, 1), seedGuid(12, 1)),
  fc.oneof(fc.uuid(), one('not-a-guid', '0000100e-0000-4000-8000-0000000e000', '{0000100e-0000-4000-8000-0000000e0001}', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', "x')/../y", '')),
);
const count = mix(
  fc.integer({ min: 0, max: 50 }).map(String),
  fc.oneof(fc.integer({ min: -1_000_000, max: -1 }).map(String), one('99999999999999999999', '1e309', '2.5', 'NaN', 'Infinity', '-0', '0x10', ' 3 ', '', 'abc', '1e3')),
);
const seconds = mix(one('0', '0.5', '1'), one('-1', '1e9', 'abc', '', '86401', '0.0001', 'NaN'));
const json = mix(
  one('{}', '{"code":"FZ1","displayName":"Fuzz"}', '{"displayName":"Fuzz"}', '{"commisionPercent":5}'),
  fc.oneof(one('[1', 'null', '[]', '""', '{"id":1}', '@/nonexistent/file.json', '@', '-', ''), fc.json({ maxDepth: 2 })),
);
const assignment = mix(
  one('code=FZ2', 'displayName=Fuzz', 'discountAmount=1', 'commisionPercent=2.5'),
  fc.oneof(one('nosuch=1', '=', 'code', 'amountRoundingPrecision=abc', 'discountAmount=-1e400', 'id=x', '@odata.etag=1'), fc.tuple(anyText, anyText).map(([k, v]) => `${k}=${v}`)),
);
const odata = mix(one("code eq 'EUR'", "status eq 'Open'", 'displayName', 'id,code', 'number desc'), fc.oneof(one("code eq 'x", '(((', 'nosuch', ''), anyText));
const formats = mix(one('json', 'yaml', 'table', 'tsv', 'ndjson', 'text', 'none'), one('JSON', 'xml', '', 'csv'));
const queries = mix(one('length(@)', '[0]', '@', '[].id', '`1`'), one('[?', '', 'foo.bar', '&&'));
const langs = mix(one('de', 'fr', 'de,fr', 'zh-Hans', 'en'), fc.oneof(one('xx', '', ',', 'DE', 'en-US'), anyText));

/** A value for an option, chosen by what the option holds. */
function valueFor(o: Option): fc.Arbitrary<string> {
  const name = o.attributeName();
  const choices = (o as unknown as { argChoices?: string[] }).argChoices;
  if (choices?.length) return mix(one(...choices), fc.oneof(one(...choices).map((c) => c.toUpperCase()), anyText));
  switch (name) {
    case 'top':
    case 'skip':
    case 'pageSize':
    case 'concurrency':
    case 'limit':
    case 'retries':
    case 'port':
      return count;
    case 'timeout':
    case 'pollInterval':
    case 'wait':
      return seconds;
    case 'company':
    case 'subscription':
    case 'traceId':
    case 'project':
      return guid;
    case 'ifMatch':
      return mix(one('*'), one('W/"JzE7Jw=="', '"x"', '', 'W/"', 'garbage'));
    case 'data':
      return json;
    case 'set':
      return assignment;
    case 'filter':
    case 'select':
    case 'expand':
    case 'orderby':
      return odata;
    case 'output':
      return formats;
    case 'query':
      return queries;
    case 'to':
    case 'from':
    case 'suggestedFrom':
      return langs;
    case 'profile':
      return mix(one('default'), one('nosuch', '', 'a/b', '..'));
    case 'provider':
      return mix(one('Vendor.Compute', 'Vendor.Network'), one('nosuch', '', 'a/b'));
    case 'location':
      return mix(one('eastus'), one('westeurope', '', 'EAST US', '../x'));
    case 'resourceGroup':
      return mix(one('web'), one('nosuch', '', 'a b', '-'));
    case 'service':
      return mix(one('contoso-api', 'translator', 'erp', 'mgmt', 'lcs'), one('nosuch', ''));
    case 'file':
      return mix(one('-', 'input.txt'), one('/nonexistent/input.txt', '', '.'));
    case 'out':
      // (a path under a regular file can never be created, even by root)
      return mix(one('out.txt', 'sub/out.txt'), one('input.txt/out.txt', '', '.'));
    case 'write':
      // never a directory outside the working directory (the tests may run as root, and --write creates it)
      return mix(one('completions'), one('', 'input.txt/dir'));
    case 'header':
      return mix(one('X-Fuzz: 1', 'a:b:c'), one('nocolon', ':', 'Authorization: Bearer x'));
    case 'since':
      return mix(one('2025-01-01', '1d'), one('-1d', 'yesterday', '', '2025-13-40', '99999d'));
    case 'resource':
      return mix(one('/subscriptions/x/resourceGroups/web/providers/Vendor.Compute/virtualMachines/vm-web-01'), one('nosuch', '', '/subscriptions/'));
    case 'displayName':
    case 'description':
      return mix(one('Fuzz', 'A fuzzed set'), anyText);
    case 'headerName':
    case 'queryName':
      return mix(one('Api-Version', 'api-version'), anyText);
    case 'scheme':
      return mix(one('Segment', 'Query', 'Header'), anyText);
    default:
      return anyText;
  }
}

/** A value for a positional argument, chosen by its name. */
function argValue(name: string): fc.Arbitrary<string> {
  switch (name) {
    case 'id':
      return guid;
    case 'resourceName':
      return mix(one('cores', 'standardDSv3Family'), one('nosuch', '', 'a/b'));
    case 'versionSetId':
      return mix(one('orders', 'billing', 'fuzz-set'), one('', 'a b', 'x'.repeat(300)));
    case 'trackingId':
    case 'requestId':
      return fc.oneof(one('SH01-ABC', 'nosuch', ''), fc.uuid());
    case 'method':
      return mix(one('GET', 'get', 'POST', 'DELETE', 'PATCH'), one('TRACE', 'BREW', ''));
    case 'path':
      return mix(one('/api/v2.0/companies', '/translate?api-version=3.0&to=de'), one('relative', 'http://127.0.0.1:9/x', '/../../etc/passwd', ''));
    case 'shell':
      return mix(one('bash', 'zsh', 'fish', 'powershell'), one('cmd', ''));
    case 'key':
      return mix(one('output', 'erp.company'), one('translator.endpoint', 'nosuch.key', ''));
    case 'value':
      return mix(one('json', 'yaml'), one('http://127.0.0.1:9', ''));
    case 'name':
      return mix(one('default', 'other'), one('', 'a/b'));
    case 'navigation':
      return mix(one('salesOrderLines', 'customer'), one('nosuch', ''));
    case 'text':
      return mix(one('Good morning', 'Hello'), anyText);
    default:
      return anyText;
  }
}

const globalOptions = program.options.filter((o) => !['version', 'help'].includes(o.attributeName()));
const UNKNOWN = fc.constantFrom('--bogus', '-Z', '--to-scriptx', '--yes=maybe', '--', '-');

type Part = string[];

/** One option as it may appear: long or short flag, with a value when it takes one (or without, by mistake). */
function optionPart(o: Option): fc.Arbitrary<Part> {
  const flags = [o.long, o.short].filter((f): f is string => Boolean(f));
  const flag = fc.constantFrom(...flags);
  if (!o.required && !o.optional) return flag.map((f) => [f]);
  return fc.oneof({ weight: 24, arbitrary: fc.tuple(flag, valueFor(o)).map(([f, v]) => [f, v]) }, { weight: 1, arbitrary: flag.map((f) => [f]) });
}

/** a case is its command line (so that fast-check prints just that on failure) */
interface Case {
  argv: string[];
}

function caseFor(leaf: LeafCommand, opts: { withYes: boolean | undefined }): fc.Arbitrary<Case> {
  const own = leaf.options.filter((o) => o.attributeName() !== 'help');
  const globals = globalOptions.filter((o) => opts.withYes === undefined || o.attributeName() !== 'yes');
  // required options are present most of the time (else every case would stop at the first check)
  const mandatory = own.filter((o) => o.mandatory);
  const optional = own.filter((o) => !o.mandatory);
  return fc
    .record({
      mandatory: fc.tuple(...mandatory.map((o) => fc.option(optionPart(o), { freq: 20, nil: undefined }))),
      own: optional.length ? fc.array(fc.constantFrom(...optional).chain(optionPart), { maxLength: 3 }) : fc.constant([] as Part[]),
      globalsBefore: fc.array(fc.constantFrom(...globals).chain(optionPart), { maxLength: 1 }),
      globalsAfter: fc.array(fc.constantFrom(...globals).chain(optionPart), { maxLength: 1 }),
      args: fc.tuple(...leaf.args.map((a) => (a.variadic ? fc.array(argValue(a.name), { maxLength: 3 }) : argValue(a.name).map((v) => [v])))),
      // -1: one argument short, +1: one too many
      argShift: fc.constantFrom(0, 0, 0, 0, 0, 0, 0, -1, 1),
      // now and then an unknown flag or a stray word
      extra: fc.oneof({ weight: 9, arbitrary: fc.constant([] as Part[]) }, { weight: 1, arbitrary: fc.oneof(UNKNOWN, anyText).map((t) => [[t]]) }),
      order: fc.array(fc.integer(), { minLength: 12, maxLength: 12 }),
    })
    .map((r) => {
      let positionals = r.args.flat();
      if (r.argShift < 0) positionals = positionals.slice(0, -1);
      if (r.argShift > 0) positionals.push('surplus');
      const groups: Part[] = [...r.mandatory.filter((m): m is Part => m !== undefined), ...r.own, ...r.globalsAfter, ...r.extra];
      // options may come before, between or after the positionals (an option keeps its value)
      const mixed: Part[] = [...groups, ...positionals.map((p) => [p])];
      const keyed = mixed.map((p, i) => ({ p, k: r.order[i % r.order.length] ^ (i * 2654435761) }));
      // positionals keep their relative order
      keyed.sort((a, b) => a.k - b.k);
      const positionalOrder = keyed.filter((x) => x.p.length === 1 && positionals.includes(x.p[0]));
      let next = 0;
      const ordered = keyed.map((x) => (positionalOrder.includes(x) ? [positionals[next++]] : x.p));
      // short timeouts and few retries first, so that a drawn value overrides them
      // (and no waiting between polls, unless a drawn value says otherwise: refresh polls every 15 s by default)
      const polls = leaf.options.some((o) => o.attributeName() === 'pollInterval') ? ['--poll-interval', '0'] : [];
      const argv = ['--timeout', '5', '--retries', '1', ...r.globalsBefore.flat(), ...leaf.path, ...polls, ...ordered.flat()];
      if (opts.withYes) argv.push('--yes');
      return { argv };
    });
}

const anyCase = fc.constantFrom(...leaves).chain((l) => caseFor(l, { withYes: undefined }));
const destructiveCase = fc.constantFrom(...destructive).chain((l) => caseFor(l, { withYes: false }));

// ---------------------------------------------------------------- running

let lanes: Lane[] = [];
beforeAll(async () => {
  lanes = await Promise.all([openLane(), openLane()]);
});
afterAll(async () => {
  await Promise.all(lanes.map((l) => l.close()));
});

/** the faults of the current property ('' for none) */
let faults = '';

function prepare(lane: Lane): void {
  lane.emu.reset();
  lane.emu.setFaults(faults);
  // every case starts from the same files: no config yet (profile set/use/delete may have written one), an input file
  rmSync(join(lane.configDir, 'config.json'), { force: true });
  for (const f of ['out.txt', 'sub', 'completions']) rmSync(join(lane.cwd, f), { recursive: true, force: true });
  writeFileSync(join(lane.cwd, 'input.txt'), 'Good morning\nGood night\n');
}

const describeCase = (argv: string[]) => `vx ${argv.map((a) => (/^[\w@./:=,-]+$/.test(a) ? a : JSON.stringify(a))).join(' ')}`;

/** Runs one case on a lane and checks what holds for every command line. */
async function check(lane: Lane, c: Case, setup?: () => void): Promise<{ code: number | null; writes: number }> {
  prepare(lane);
  setup?.();
  const r = await lane.run(c.argv, { timeoutMs: 25_000, env: { VX_MGMT_PROVIDER: 'Vendor.Compute', VX_MGMT_LOCATION: 'eastus' } });
  if (process.env.VX_REL_FUZZ_TRACE) process.stderr.write(`${r.code} ${describeCase(c.argv)}\n    ${r.stderr.split('\n')[0]}\n`);
  const where = `${describeCase(c.argv)}\nexit ${r.code} ${r.signal ?? ''}\nstderr: ${r.stderr.slice(0, 600)}`;
  expect(r.signal, `killed (hung?): ${where}`).toBeNull();
  const own = ownExitCodes(c.argv);
  const allowed = own === 'plugin' ? [0, 1, 2, 3, 130].includes(r.code ?? -1) : CONTRACT_CODES.has(r.code ?? -1) || (own === 'short' && r.code === 9);
  expect(allowed, `exit code outside the contract: ${where}`).toBe(true);
  // docs/cli-contract.md: no stack trace without --debug
  if (!c.argv.includes('--debug')) {
    expect(crashSigns(r.stderr), where).toEqual([]);
    // what was typed is echoed escaped: no terminal control characters reach stderr
    expect(r.stderr, where).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
  }
  else expect(r.stderr, where).not.toMatch(/\b(TypeError|ReferenceError)\b/);
  const sent = lane.emu.count();
  // exit 2 is "nothing was sent"; the one allowed exception is a --query that fails on a result (it says so)
  // (health check's 2 is CRITICAL and its 1-3 are said on stdout: README, "Exit codes")
  if (r.code === 2 && own !== 'plugin' && !/the request itself was sent/.test(r.stderr)) expect(sent, `exit 2 after a request: ${where}`).toBe(0);
  if (r.code !== 0) expect((own === 'plugin' ? r.stdout + r.stderr : r.stderr).trim(), `failure without a message: ${where}`).not.toBe('');
  return { code: r.code, writes: lane.emu.log.filter((e) => e.method !== 'GET' && e.method !== 'HEAD').length };
}

describe('random command lines over the whole tree', () => {
  it('walks a tree with every family', () => {
    const nouns = new Set(leaves.map((l) => l.path[0]));
    expect([...nouns].sort()).toEqual(['api', 'auth', 'completion', 'erp', 'mgmt', 'profile', 'translate', 'version']);
    expect(leaves.length).toBeGreaterThan(50);
    expect(destructive.map((l) => l.path.join(' '))).toEqual(expect.arrayContaining(['erp currencies delete', 'erp refresh', 'mgmt quota set', 'mgmt version-sets delete', 'profile delete']));
  });

  it('exit codes from the contract, no stack traces, nothing sent on exit 2', async () => {
    const seen = new Map<number | null, number>();
    await fc.assert(
      fc.asyncProperty(fc.tuple(anyCase, anyCase), async ([a, b]) => {
        const [ra, rb] = await Promise.all([check(lanes[0], a), check(lanes[1], b)]);
        for (const r of [ra, rb]) seen.set(r.code, (seen.get(r.code) ?? 0) + 1);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    // the generator reaches past validation too: successes and service answers, not only usage errors
    expect(seen.get(2) ?? 0).toBeGreaterThan(0);
    expect(seen.get(0) ?? 0).toBeGreaterThan(0);
    expect([...seen.keys()].filter((k) => k !== 0 && k !== 2).length).toBeGreaterThan(0);
  }, 600_000);

  it('the same under 10% faults (429, 503, 500, resets before and after the work): still the contract, no stack traces', async () => {
    faults = '429:0.03,503:0.025,500:0.02,reset:0.015,reset-after:0.01,retry-after:0';
    try {
      await fc.assert(
        fc.asyncProperty(fc.tuple(anyCase, anyCase), async ([a, b]) => {
          await Promise.all([check(lanes[0], a), check(lanes[1], b)]);
        }),
        { numRuns: Math.max(10, Math.round(RUNS / 4)), seed: SEED + 2, endOnFailure: true },
      );
    } finally {
      faults = '';
    }
  }, 600_000);

  it('destructive commands without --yes and without a terminal: exit 2, no write sent, the profile kept', async () => {
    await fc.assert(
      fc.asyncProperty(fc.tuple(destructiveCase, destructiveCase), async (pair) => {
        await Promise.all(
          pair.map(async (c, i) => {
            const lane = lanes[i];
            // profiles that `profile delete` would remove
            const cfg = join(lane.configDir, 'config.json');
            const profiles = JSON.stringify({ activeProfile: 'default', profiles: { default: { output: 'json' }, other: { output: 'yaml' } } });
            const { code, writes } = await check(lane, c, () => writeFileSync(cfg, profiles, { mode: 0o600 }));
            expect(readFileSync(cfg, 'utf8'), `the profile changed: ${describeCase(c.argv)}`).toBe(profiles);
            const where = describeCase(c.argv);
            expect(writes, `a write was sent without --yes: ${where}`).toBe(0);
            expect(code === 2 || (c.argv.includes('--dry-run') && code === 0), `exit ${code}: ${where}`).toBe(true);
          }),
        );
      }),
      { numRuns: Math.max(10, Math.round(RUNS / 4)), seed: SEED + 1, endOnFailure: true },
    );
  }, 600_000);
});

// ---------------------------------------------------------------- path segments (issue 13, item 1)

/** positional arguments and options whose value becomes (part of) a URL path */
const PATH_ARGS = new Set(['id', 'resourceName', 'versionSetId', 'trackingId', 'requestId', 'path', 'navigation']);
const PATH_OPTS = new Set(['subscription', 'resourceGroup', 'service', 'provider', 'location', 'project', 'source', 'target', 'tenant', 'company']);
/** forms that a client or a server may read as another path: dot segments, encoded, separators */
const SEGMENT_FORMS = ['.', '..', '%2e%2e', '%2E.', '.%2e', '%2e', 'a/../b', '../x', '..%2fx', '%2f', 'a%2Fb', '..\\x', 'a%5cb', '%252e%252e', './.', '...'];
/** a valid value for everything else the command needs (so that only the drawn slot is hostile) */
const VALID_ARG: Record<string, string> = {
  id: 'EUR',
  resourceName: 'cores',
  versionSetId: 'orders',
  trackingId: 'SH01-ABC',
  requestId: '00000000-0000-4000-8000-000000000001',
  path: '/api/v2.0/companies',
  navigation: 'salesOrderLines',
  text: 'Hello',
  method: 'GET',
};
const VALID_OPT: Record<string, string> = { resourceGroup: 'web', service: 'contoso-api', limit: '5', project: '1', source: 'a', target: 'b', to: 'de', displayName: 'x', scheme: 'Segment' };

interface Slot {
  leaf: LeafCommand;
  /** a positional argument's name, or an option's attribute name */
  name: string;
  kind: 'arg' | 'opt';
}

// (health watch polls until stopped and health check speaks the monitoring-plugin convention on
// stdout; `service` of auth and api names a family, not a path)
const slots: Slot[] = leaves
  .filter((l) => !/^mgmt health (watch|check)$/.test(l.path.join(' ')))
  .flatMap((l) => [
    ...l.args.filter((a) => PATH_ARGS.has(a.name)).map((a): Slot => ({ leaf: l, name: a.name, kind: 'arg' })),
    ...l.options
      .filter((o) => PATH_OPTS.has(o.attributeName()) && !(o.attributeName() === 'service' && l.path[0] !== 'mgmt'))
      .map((o): Slot => ({ leaf: l, name: o.attributeName(), kind: 'opt' })),
  ]);

function slotArgv(s: Slot, form: string): string[] {
  const l = s.leaf;
  const positionals = l.args.filter((a) => a.required).map((a) => (s.kind === 'arg' && a.name === s.name ? form : (VALID_ARG[a.name] ?? 'x')));
  const opts: string[] = [];
  for (const o of l.options) {
    const name = o.attributeName();
    if (s.kind === 'opt' && name === s.name) opts.push(o.long!, form);
    else if (o.mandatory) opts.push(o.long!, VALID_OPT[name] ?? 'x');
  }
  const yes = l.options.some((o) => o.attributeName() === 'yes') || DESTRUCTIVE(l) ? ['--yes'] : [];
  const polls = l.options.some((o) => o.attributeName() === 'pollInterval') ? ['--poll-interval', '0'] : [];
  return ['--timeout', '5', '--retries', '1', ...l.path, ...positionals, ...opts, ...polls, ...yes];
}

const safeDecode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** Runs one slot with one form: refused before anything is sent, or the value arrived inside its own place. */
async function checkSlot(lane: Lane, s: Slot, form: string): Promise<void> {
  const r = await check(lane, { argv: slotArgv(s, form) });
  const where = `${describeCase(slotArgv(s, form))}\nexit ${r.code}`;
  const paths = lane.emu.log.filter((e) => e.family !== 'control').map((e) => e.path);
  if (r.code === 2 || paths.length === 0) return; // check() proved exit 2 sent nothing
  // the value moved nothing: at least one request carries it, decoded, where it was put
  expect(
    paths.some((p) => safeDecode(p).includes(form) || safeDecode(safeDecode(p)).includes(form)),
    `the value ${JSON.stringify(form)} is in no request (a path moved?): ${where}\n${paths.join('\n')}`,
  ).toBe(true);
}

describe('path segments: dot segments and encoded forms in every argument that goes into a URL path', () => {
  it('covers every family that builds paths', () => {
    const names = new Set(slots.map((s) => s.name));
    for (const n of ['id', 'resourceName', 'versionSetId', 'trackingId', 'requestId', 'path', 'subscription', 'resourceGroup', 'service', 'provider', 'location', 'project', 'company']) expect(names, n).toContain(n);
  });

  it('".." in each kind of slot (one command of each): refused, nothing sent, or kept in place', async () => {
    const byName = new Map<string, Slot>();
    for (const s of slots) if (!byName.has(`${s.leaf.path[0]} ${s.name}`)) byName.set(`${s.leaf.path[0]} ${s.name}`, s);
    const list = [...byName.values()];
    for (let i = 0; i < list.length; i += 2) await Promise.all(list.slice(i, i + 2).map((s, j) => checkSlot(lanes[j], s, '..')));
  }, 300_000);

  it('random forms in random slots of every command', async () => {
    // drawn as text (the command line part), so that fast-check prints a readable case
    const slotCase = fc.tuple(fc.integer({ min: 0, max: slots.length - 1 }), fc.constantFrom(...SEGMENT_FORMS)).map(([i, form]) => `${i} ${form}`);
    const run = (lane: Lane, c: string) => {
      const [i, form] = [Number(c.slice(0, c.indexOf(' '))), c.slice(c.indexOf(' ') + 1)];
      return checkSlot(lane, slots[i], form);
    };
    await fc.assert(
      fc.asyncProperty(fc.tuple(slotCase, slotCase), async ([a, b]) => {
        await Promise.all([run(lanes[0], a), run(lanes[1], b)]);
      }),
      { numRuns: Math.max(10, Math.round(RUNS / 4)), seed: SEED + 3, endOnFailure: true },
    );
  }, 600_000);
});
