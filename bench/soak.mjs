// `npm run soak`: the reliability scenarios of issue 8 at scale, against the built emulator on
// loopback, each ending in one summary line (PASS/FAIL). Not part of `npm test` (minutes, not
// seconds). SOAK_SEED=<n> changes the fault and fast-check seeds; SOAK_ONLY=translate,erp,quota,fuzz
// runs a subset; SOAK_FUZZ_RUNS sets the number of random command lines (default 2,000).
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, VX } from './lib.mjs';

// the built emulator (dist/vendor/emulator.js exposes its module as __vxNs)
const { startEmulator } = (await import('../dist/vendor/emulator.js')).__vxNs;

const SEED = Number(process.env.SOAK_SEED ?? 8);
const ONLY = process.env.SOAK_ONLY ? new Set(process.env.SOAK_ONLY.split(',')) : undefined;
const FUZZ_RUNS = Number(process.env.SOAK_FUZZ_RUNS ?? 2000);
/** 10% of answers: 429 (Retry-After 1 s), 503, 500, connection resets before and after the work, slow */
const TEN_PERCENT = (seed) => `429:0.025,503:0.02,500:0.02,reset:0.015,reset-after:0.01,slow:0.01,slow-ms:500,retry-after:1,seed:${seed}`;

const work = mkdtempSync(join(tmpdir(), 'vx-soak-'));
const results = [];

function summary(name, ok, detail) {
  const line = `${ok ? 'PASS' : 'FAIL'}  ${name}: ${detail}`;
  results.push({ name, ok });
  console.log(line);
}

/** Runs vx; resolves with code, stdout (as a Buffer), stderr and wall ms. */
function vx(args, env) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [VX, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: err, ms: performance.now() - t0 }));
  });
}

function envFor(emu) {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    VX_CONFIG_DIR: mkdtempSync(join(work, 'cfg-')),
    VX_BACKOFF_BASE_MS: '20',
    VX_POLL_FLOOR_MS: '20',
    NO_COLOR: '1',
    ...emu.env(),
  };
}

const sha = (b) => createHash('sha256').update(b).digest('hex').slice(0, 12);
const faultsOf = (emu, family) => {
  const counts = {};
  for (const l of emu.log) if (l.family === family && l.fault) counts[l.fault === 'status' ? l.status : l.fault] = (counts[l.fault === 'status' ? l.status : l.fault] ?? 0) + 1;
  return counts;
};
const fmtCounts = (c) => Object.entries(c).map(([k, v]) => `${v}x${k}`).join(' ') || 'none';

async function translateScenario() {
  const lines = 100_000;
  const file = join(work, 'translate.txt');
  const out = createWriteStream(file);
  for (let i = 0; i < lines; i++) if (!out.write(`Line ${i}: the quarterly report of the shipping department, part ${i % 97}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  const emu = await startEmulator({ port: 0 });
  try {
    const env = envFor(emu);
    const args = ['translate', '--to', 'de', '--from', 'en', '--concurrency', '4', '--retries', '8', '-f', file];
    const clean = await vx(args, env);
    const cleanRequests = emu.count({ family: 'translator' });
    emu.reset();
    emu.setFaults(TEN_PERCENT(SEED));
    const r = await vx(args, env);
    const log = emu.log.filter((l) => l.family === 'translator');
    const failedAttempts = log.filter((l) => ['status', 'reset', 'reset-after'].includes(l.fault)).length;
    const outLines = r.stdout.toString('utf8').split('\n').length - 1;
    const ok = clean.code === 0 && r.code === 0 && r.stdout.equals(clean.stdout) && outLines === lines && log.length === cleanRequests + failedAttempts;
    summary(
      'translate 100,000 lines, 10% faults',
      ok,
      `exit ${r.code}, ${outLines} lines, output ${sha(r.stdout)} ${r.stdout.equals(clean.stdout) ? '=' : '!='} fault-free ${sha(clean.stdout)}; ` +
        `${log.length} requests = ${cleanRequests} + ${failedAttempts} repeated; faults ${fmtCounts(faultsOf(emu, 'translator'))}; ${(r.ms / 1000).toFixed(1)} s (fault-free ${(clean.ms / 1000).toFixed(1)} s)` +
        (r.code ? `; ${r.stderr.trim()}` : ''),
    );
  } finally {
    await emu.close();
  }
}

async function erpScenario() {
  const total = 50_000;
  const emu = await startEmulator({ port: 0 });
  try {
    const company = emu.state.erp.defaultCompany;
    const orders = emu.state.erp.data[company].salesOrders;
    const template = orders[0];
    orders.length = 0;
    for (let i = 0; i < total; i++) orders.push({ ...template, id: randomUUID(), number: `S-${String(i).padStart(6, '0')}` });
    const env = envFor(emu);
    emu.setFaults(TEN_PERCENT(SEED + 1));
    const r = await vx(['--retries', '8', 'erp', 'sales-orders', 'list', '--page-size', '200', '--select', 'id,number', '-o', 'ndjson'], env);
    const numbers = r.stdout.toString('utf8').trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l).number);
    let inOrder = numbers.length === total;
    for (let i = 0; inOrder && i < total; i++) inOrder = numbers[i] === `S-${String(i).padStart(6, '0')}`;
    const requests = emu.count({ family: 'erp' });
    summary(
      'erp list 50,000 records, 10% faults',
      r.code === 0 && inOrder,
      `exit ${r.code}, ${numbers.length} records, ${new Set(numbers).size} distinct, ${inOrder ? 'every one once in order' : 'NOT complete/in order'}; ${requests} requests for ${total / 200} pages; faults ${fmtCounts(faultsOf(emu, 'erp'))}; ${(r.ms / 1000).toFixed(1)} s` +
        (r.code ? `; ${r.stderr.trim()}` : ''),
    );
  } finally {
    await emu.close();
  }
}

async function quotaScenario() {
  const changes = 40;
  const emu = await startEmulator({ port: 0 });
  try {
    emu.state.mgmt.retryAfter = 0;
    const env = { ...envFor(emu), VX_MGMT_PROVIDER: 'Vendor.Compute', VX_MGMT_LOCATION: 'eastus' };
    emu.setFaults(TEN_PERCENT(SEED + 2).replace('retry-after:1', 'retry-after:0'));
    const exits = {};
    let reached = 0;
    let extraPatches = 0;
    const t0 = performance.now();
    for (let i = 0; i < changes; i++) {
      const target = 101 + i;
      let done = false;
      for (let attempt = 0; attempt < 12 && !done; attempt++) {
        const before = emu.log.length;
        const r = await vx(['--retries', '6', 'mgmt', 'quota', 'set', 'cores', '--limit', String(target), '--yes', '--poll-interval', '0'], env);
        exits[r.code] = (exits[r.code] ?? 0) + 1;
        const patches = emu.log.slice(before).filter((l) => l.family === 'mgmt' && l.method === 'PATCH');
        const repeatable = patches.filter((l) => l.fault === 'status' && (l.status === 429 || l.status === 503)).length;
        if (patches.length > 1 + repeatable) extraPatches++;
        if (r.code === 0) done = true;
        else if (r.code === 8 && /outcome is unknown/.test(r.stderr)) {
          const list = await vx(['--retries', '8', 'mgmt', 'quota', 'requests', 'list'], env);
          const mine = list.code === 0 ? JSON.parse(list.stdout.toString()).find((q) => q.properties.provisioningState === 'InProgress' && q.properties.value?.[0]?.limit === target) : undefined;
          for (let k = 0; mine && k < 10 && !done; k++) {
            const g = await vx(['--retries', '8', 'mgmt', 'quota', 'requests', 'get', mine.name], env);
            done = g.code === 0 && JSON.parse(g.stdout.toString()).properties.provisioningState === 'Succeeded';
          }
        }
      }
      const sub = emu.state.mgmt.defaultSubscription.toLowerCase();
      if (done && emu.state.mgmt.quotas[`${sub}|vendor.compute|eastus`].cores.quota.properties.limit === target) reached++;
    }
    summary(
      `quota set x${changes}, 10% faults`,
      reached === changes && extraPatches === 0,
      `${reached}/${changes} reached their final state; runs by exit code ${fmtCounts(exits)}; PATCH repeated outside 429/503: ${extraPatches}; faults ${fmtCounts(faultsOf(emu, 'mgmt'))}; ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  } finally {
    await emu.close();
  }
}

async function fuzzScenario() {
  const pairs = Math.ceil(FUZZ_RUNS / 2);
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/e2e/cli-fuzz-options.test.ts'], {
    cwd: ROOT,
    env: { ...process.env, VX_REL_FUZZ_RUNS: String(pairs), VX_REL_FUZZ_SEED: String(SEED * 1000 + 7) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const code = await new Promise((r) => child.on('close', r));
  const failure = /Counterexample: (.*)/.exec(out)?.[1] ?? /(Property failed.*)/.exec(out)?.[1];
  summary(
    `fast-check ${pairs * 2} command lines (+${Math.max(10, Math.round(pairs / 4)) * 2} destructive)`,
    code === 0,
    `seed ${SEED * 1000 + 7}; ${((performance.now() - t0) / 1000).toFixed(1)} s${code ? `; ${failure ?? out.slice(-1500)}` : ''}`,
  );
}

const scenarios = { translate: translateScenario, erp: erpScenario, quota: quotaScenario, fuzz: fuzzScenario };
console.log(`soak: seed ${SEED}; ${Object.keys(scenarios).filter((k) => !ONLY || ONLY.has(k)).join(', ')}`);
for (const [name, fn] of Object.entries(scenarios)) {
  if (ONLY && !ONLY.has(name)) continue;
  try {
    await fn();
  } catch (e) {
    summary(name, false, `crashed: ${e?.stack ?? e}`);
  }
}
rmSync(work, { recursive: true, force: true });
const failed = results.filter((r) => !r.ok).length;
console.log(failed ? `soak: ${failed} of ${results.length} scenarios FAILED` : `soak: all ${results.length} scenarios passed`);
process.exit(failed ? 1 : 0);
