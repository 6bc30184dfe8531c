// The fleet quota report: 3 subscriptions x 10 locations x 50 quotas against the built emulator
// answering every request after 50 ms (in this process, as a real service would take), compared
// in the same run with (a) the same report as a shell loop of `vx mgmt quota get` (one process a
// quota; a sample of the 1,500 is timed and extrapolated) and (b) a minimal raw concurrent client
// with the same number of requests in flight.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, report, timeCommands, ROOT, VX } from './lib.mjs';

/** runs a command asynchronously (the emulator answers from this process) and resolves with its stdout */
function output(file, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) => (code ? reject(new Error(`${args.join(' ')} exited ${code}: ${err.slice(-500)}`)) : resolve(out)));
  });
}

function sh(script, env) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn('sh', ['-c', script], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) => (code ? reject(new Error(`loop exited ${code}: ${err.slice(-500)}`)) : resolve(Number(process.hrtime.bigint() - t0) / 1e6)));
  });
}

export async function fleet({ rounds = 10, sample = 15, concurrency = 8 } = {}) {
  const { startEmulator, growFleet } = (await import('../dist/vendor/emulator.js')).__vxNs;
  const emu = await startEmulator({ port: 0, faults: 'latency:50' });
  try {
    const size = { subscriptions: 3, locations: 10, quotas: 50 };
    const { subscriptions, locations, provider } = growFleet(emu.state.mgmt, size);
    const total = size.subscriptions * size.locations * size.quotas;
    const env = { ...process.env, ...emu.env(), VX_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'vx-bench-')) };
    const args = ['mgmt', 'quota', 'report', '--provider', provider, '--location', locations.join(','), '--subscription', subscriptions.join(','), '--concurrency', String(concurrency), '-o', 'json'];
    // the list URLs exactly as vx builds them
    const urls = JSON.parse(await output(process.execPath, [VX, ...args, '--dry-run'], env)).map((r) => r.url);
    const rows = JSON.parse(await output(process.execPath, [VX, ...args], env));
    if (rows.length !== total) throw new Error(`the report has ${rows.length} rows, not ${total}`);
    const m = await timeCommands({ vx: [process.execPath, VX, ...args], raw: [process.execPath, join(ROOT, 'bench', 'raw-fleet.cjs'), String(concurrency), ...urls] }, { rounds, env });
    // the shell loop: one `vx mgmt quota get` per quota, timed on a sample spread over the fleet
    const picks = Array.from({ length: sample }, (_, i) => {
      const n = Math.floor((i * total) / sample);
      return [subscriptions[n % size.subscriptions], locations[Math.floor(n / size.subscriptions) % size.locations], `quota${String((n % size.quotas) + 1).padStart(3, '0')}`];
    });
    const loop = picks.map(([s, l, q]) => `node ${VX} mgmt quota get ${q} --provider ${provider} --location ${l} --subscription ${s} -o json > /dev/null`).join('\n');
    const loops = [];
    for (let r = 0; r < 3; r++) loops.push(await sh(loop, env));
    const loopMs = (median(loops) / sample) * total;
    report(`quota report of ${total} quotas (${size.subscriptions}x${size.locations}x${size.quotas}, 50 ms latency) vs a minimal raw concurrent client, concurrency ${concurrency}`, m.vx, m.raw, 1.5);
    report(`the same report as a shell loop of vx mgmt quota get (${sample} timed, x${total / sample}) vs vx mgmt quota report`, loopMs, m.vx, 5, { higherIsBetter: true });
  } finally {
    await emu.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await fleet();
