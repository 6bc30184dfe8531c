// Property-based test over the command line: random commands from the tree, random flags, values
// and argument orders never give a stack trace or an exit code outside the contract's table, and
// when validation fails (exit 2) nothing was sent. Fixed seed, so a failure can be replayed.
import type { Command } from 'commander';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { useEmulator } from '../helpers/emulator.js';
import { ownExitCodes } from '../helpers/lanes.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator({ resetEach: false });
const cwd = tempDir();
afterAll(() => removeDir(cwd));

const CONTRACT = new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 130]);
// commands that start servers, run other programs or poll for minutes are left out
const SKIP = /^vx (emulator|help)\b|\brefresh\b|\bwizard\b|\blogin\b|\bhealth watch\b/;

interface Leaf {
  path: string[];
  options: { flags: string; takesValue: boolean }[];
  positionals: number;
}
const leaves: Leaf[] = [];
const program = buildProgram();
const globals = program.options.map((o) => ({ flags: o.long ?? o.short!, takesValue: o.required || o.optional }));
const walk = (c: Command, path: string[]) => {
  if (!c.commands.length) {
    const full = `vx ${path.join(' ')}`;
    if (!SKIP.test(full)) {
      leaves.push({
        path,
        options: [...c.options.map((o) => ({ flags: o.long ?? o.short!, takesValue: o.required || o.optional })), ...globals].filter((o) => !['--version', '--help'].includes(o.flags)),
        positionals: (c as unknown as { registeredArguments: unknown[] }).registeredArguments.length,
      });
    }
  }
  for (const s of c.commands) walk(s, [...path, s.name()]);
};
walk(program, []);

const VALUES = ['', '0', '-1', '1', '2.5', 'abc', 'json', 'table', 'yaml', 'none', 'GET', 'erp', '-', '--', '@/nonexistent', '{"a":1}', '[1', "status eq 'Open'", '[?', 'length(@)', 'ü日本語', "it's", 'x'.repeat(300), '99999999999999', '0000100e-0000-4000-8000-0000000e0001', 'k=v', 'a:b'];

const argvArb = fc
  .record({
    leaf: fc.constantFrom(...leaves),
    picks: fc.array(fc.nat(), { maxLength: 6 }),
    values: fc.array(fc.constantFrom(...VALUES), { minLength: 12, maxLength: 12 }),
    extra: fc.array(fc.constantFrom(...VALUES), { maxLength: 3 }),
    order: fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
  })
  .map(({ leaf, picks, values, extra, order }) => {
    const parts: string[][] = [];
    let v = 0;
    for (const p of picks) {
      const o = leaf.options[p % leaf.options.length];
      parts.push(o.takesValue ? [o.flags, values[v++ % values.length]] : [o.flags]);
    }
    for (let i = 0; i < leaf.positionals; i++) parts.push([values[v++ % values.length]]);
    for (const x of extra) parts.push([x]);
    // shuffle the groups (an option stays next to its value)
    const shuffled = parts.map((p, i) => ({ p, k: order[i % order.length] + i / 100 })).sort((a, b) => a.k - b.k).map((x) => x.p);
    return [...leaf.path, ...shuffled.flat(), '--timeout', '5'];
  });

describe('random command lines', () => {
  it('stay inside the contract', async () => {
    expect(leaves.length).toBeGreaterThan(10);
    await fc.assert(
      fc.asyncProperty(argvArb, async (argv) => {
        e2e.emu.reset();
        const r = await e2e.run(argv, { cwd, timeoutMs: 20_000 });
        const where = `vx ${argv.map((a) => JSON.stringify(a)).join(' ')}\n${r.stderr.slice(0, 500)}`;
        // the documented exceptions: health check's monitoring-plugin codes, quota check's 9 (README, "Exit codes")
        const own = ownExitCodes(argv);
        const allowed = own === 'plugin' ? [0, 1, 2, 3, 130].includes(r.code ?? -1) : CONTRACT.has(r.code ?? -1) || (own === 'short' && r.code === 9);
        expect(allowed, `exit ${r.code}: ${where}`).toBe(true);
        // --debug prints the stack of the error on purpose (docs/cli-contract.md: no stack trace without --debug)
        if (!argv.includes('--debug')) expect(r.stderr, where).not.toMatch(/\n\s+at .+:\d+:\d+/);
        expect(r.stderr, where).not.toMatch(/\b(TypeError|ReferenceError|RangeError|undefined is not|Cannot read properties)\b/);
        // the one exit 2 that comes after a request: a valid --query that does not fit the result (it says so)
        if (r.code === 2 && own !== 'plugin' && !/--query ".*" failed on the result: .*\(the request itself was sent and succeeded\)/.test(r.stderr)) {
          expect(e2e.emu.count(), `sent despite exit 2: ${where}`).toBe(0);
        }
      }),
      { numRuns: Number(process.env.VX_FUZZ_RUNS ?? 30), seed: Number(process.env.VX_FUZZ_SEED ?? 20261122), endOnFailure: true },
    );
  }, 600_000);
});
