// `import --check-unknown` never sends again a row whose request may still be running on the
// service: the run it recovers was stopped while its batches were out (the emulator holds each
// POST before doing it), and the rerun at once leaves those rows unknown, saying until when; once
// that time is past, the lookups find every record, and none is created twice. In-process.
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { runInProc } from '../helpers/inproc.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const dir = tempDir('vx-check-unknown-');
afterAll(() => removeDir(dir));

const batches = () => e2e.emu.log.filter((e) => e.family === 'erp' && e.method === 'POST' && e.path.endsWith('/$batch'));
const lines = (s: string) => s.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

async function codes(): Promise<string[]> {
  const r = await e2e.run(['erp', 'salespeople', 'list', '-o', 'json']);
  return (JSON.parse(r.stdout) as { code: string }[]).map((x) => x.code).filter((c) => c.startsWith('RUN'));
}

/** Resolves once every logged request has been answered (the held POSTs done). */
async function served(): Promise<void> {
  while (e2e.emu.log.some((e) => !e.status)) await new Promise((r) => setTimeout(r, 20));
}

describe('import --check-unknown and the requests of the run it recovers', () => {
  it('rows whose batch may still be running stay unknown (until when), nothing looked up or sent; after that they are found, none created twice', async () => {
    const p = join(dir, 'held.csv');
    writeFileSync(p, 'code,displayName\nRUN1,A\nRUN2,B\nRUN3,C\nRUN4,D\n');
    const journal = `${p}.vx-journal`;
    e2e.emu.setFaults('erp/POST/latency:300');
    // the run is stopped (as by Ctrl-C) once both batches are with the service
    const stop = new AbortController();
    const watch = setInterval(() => batches().length >= 2 && stop.abort(), 5);
    const first = await runInProc(['erp', 'salespeople', 'import', '--file', p, '--batch-size', '2', '--concurrency', '2', '-o', 'ndjson'], { env: e2e.env, network: true, signal: stop.signal });
    clearInterval(watch);
    expect(first.code).toBe(130);
    expect(lines(first.stdout).map((x) => x.status)).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);
    const sentAt = [...readFileSync(journal, 'utf8').matchAll(/"state":"sent","at":(\d+)/g)].map((m) => Number(m[1]));
    expect(sentAt).toHaveLength(4);

    // at once: the batches may still be running; the rerun neither looks them up nor sends them
    const logged = e2e.emu.log.length;
    const soon = await runInProc(['erp', 'salespeople', 'import', '--file', p, '--check-unknown', '-o', 'ndjson'], { env: e2e.env, network: true });
    expect(e2e.emu.log.length).toBe(logged);
    const until = `${new Date(Math.max(...sentAt) + 11 * 60_000).toISOString().slice(0, 19)}Z`;
    expect(soon.stderr).toContain(`--check-unknown: 4 rows sent by an earlier run may still be running on the service (it ends a request after at most 10 minutes): left unknown, neither looked up nor sent; run again after ${until}\n`);
    expect(soon.stderr).toContain('imported 4 rows: 4 unknown\n');
    expect(soon.code).toBe(1);
    const row2 = lines(soon.stdout)[0];
    expect(row2.status).toBe('unknown');
    expect(row2.message).toBe(
      `sent by an earlier run at ${new Date(sentAt[0]).toISOString().slice(0, 19)}Z whose outcome is unknown; its request may still be running on the service until ${new Date(sentAt[0] + 11 * 60_000).toISOString().slice(0, 19)}Z (the service ends a request after at most 10 minutes): not looked up and not sent again; run with --check-unknown after that`,
    );

    // the held batches were done meanwhile: four records, once each
    await served();
    e2e.emu.setFaults('');
    expect((await codes()).sort()).toEqual(['RUN1', 'RUN2', 'RUN3', 'RUN4']);

    // later (the send times an hour back): the rows are looked up and found, nothing is created twice
    const hour = 3_600_000;
    writeFileSync(journal, readFileSync(journal, 'utf8').replace(/"at":(\d+)/g, (_, at: string) => `"at":${Number(at) - hour}`));
    utimesSync(journal, (Date.now() - hour) / 1000, (Date.now() - hour) / 1000);
    const later = await runInProc(['erp', 'salespeople', 'import', '--file', p, '--check-unknown', '-o', 'ndjson'], { env: e2e.env, network: true });
    expect(later.stderr).toContain('--check-unknown: 4 rows looked up: 4 found done, 0 not there (sent now), 0 still unknown\n');
    expect(later.code).toBe(0);
    expect((await codes()).sort()).toEqual(['RUN1', 'RUN2', 'RUN3', 'RUN4']);
  }, 20_000);
});
