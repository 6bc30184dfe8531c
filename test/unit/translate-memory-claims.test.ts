// The claims of concurrent runs sharing a memory (store.ts's contract): a text a run sends is
// claimed, another run is told it is held (and holds none of its targets), the answer ends the
// claim, an expired lease is taken over, a run that ends gives up what it still holds; lookups,
// exports and stats never see a claim. Batched lookups answer whole results and parts. The same
// contract of both stores: the LMDB file, and PostgreSQL (when the test server is there).
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, describe, expect, it as itRun, vi } from 'vitest';

const itSkip = itRun.skip;
import { runOwner } from '../../src/api/translator/memory/claims.js';
import { entryKey, keyOptions, TranslationMemory, type OpenMemoryOptions } from '../../src/api/translator/memory/index.js';
import { LmdbStore } from '../../src/api/translator/memory/store-lmdb.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { freshDatabase, NO_PG, PG_URL } from '../helpers/postgres.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const require = createRequire(import.meta.url);
const dir = tempDir('vx-tm-claims-');
afterAll(() => removeDir(dir));

let n = 0;
const STORES = [
  { name: 'LMDB', location: async () => join(dir, `m${n++}.tm`), skip: false },
  { name: `PostgreSQL${PG_URL ? '' : ` (skipped: ${NO_PG})`}`, location: freshDatabase, skip: !PG_URL },
];

const de = (text: string) => ({ translations: [{ text, to: 'de' }] });

describe.each(STORES)('memory claims, $name', ({ location, skip }) => {
  /** a fresh memory, opened by two runs */
  async function twoRuns(opts: OpenMemoryOptions = {}): Promise<[TranslationMemory, TranslationMemory]> {
    const path = await location();
    const a = await TranslationMemory.open(path, { owner: 'run-a', ...opts });
    const b = await TranslationMemory.open(path, { owner: 'run-b', ...opts });
    return [a, b];
  }
  const it = skip ? itSkip : itRun;

  it('a text one run claimed is held for another until the answer is stored, which the other then gets', async () => {
    const [a, b] = await twoRuns();
    const ids = a.idsFor(keyOptions({ to: ['de'] }));
    b.idsFor(keyOptions({ to: ['de'] }));
    expect(await a.claim(ids, ['Save', 'Open'])).toEqual([
      { parts: [undefined], missing: [0] },
      { parts: [undefined], missing: [0] },
    ]);
    // claiming again is the same run renewing its lease
    expect(await a.claim(ids, ['Save'])).toEqual([{ parts: [undefined], missing: [0] }]);
    expect(await b.claim(ids, ['Save', 'Open', 'Quit'])).toEqual(['held', 'held', { parts: [undefined], missing: [0] }]);
    // a claim is no entry: lookups, exports and stats do not see it
    expect(await b.lookupMany(ids, ['Save', 'Quit'])).toEqual([undefined, undefined]);
    a.store(ids, 'Save', de('Speichern'));
    await a.flush();
    expect(await b.claim(ids, ['Save', 'Open'])).toEqual([{ result: de('Speichern') }, 'held']);
    expect((await b.stats()).entries).toBe(1);
    expect([...(await collect(b.entries()))].map((e) => e.source)).toEqual(['Save']);
    await a.close();
    await b.close();
  });

  it('a run that ends gives up what it still holds; the next claim takes it', async () => {
    const [a, b] = await twoRuns();
    const ids = a.idsFor(keyOptions({ to: ['de'] }));
    await a.claim(ids, ['Save', 'Open']);
    await a.release(ids, ['Save']);
    expect(await b.claim(ids, ['Save', 'Open'])).toEqual([{ parts: [undefined], missing: [0] }, 'held']);
    await a.close();
    expect(await b.claim(ids, ['Open'])).toEqual([{ parts: [undefined], missing: [0] }]);
    await b.close();
  });

  it('a claim whose lease ran out (its run died) is taken over', async () => {
    // (a lease of 0 runs out at once, by the store's clock: the database's for PostgreSQL; and it
    // is not renewed, as a run that died does not renew its leases)
    const [a, b] = await twoRuns({ leaseMs: 0 });
    const ids = a.idsFor(keyOptions({ to: ['de'] }));
    b.idsFor(keyOptions({ to: ['de'] }));
    await a.claim(ids, ['Save']);
    // (a few milliseconds, so that the store's clock is past the lease's end even where the clock
    // of a busy virtual machine is coarse or stepped back a little between two statements)
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await b.claim(ids, ['Save'])).toEqual([{ parts: [undefined], missing: [0] }]);
    await b.close();
    await a.close();
  });

  it('the claims of a process of this machine that no longer runs are taken over at once; of one that runs, not', async () => {
    const path = await location();
    const ended = spawnSync(process.execPath, ['-e', '0']).pid!;
    const dead = await TranslationMemory.open(path, { owner: runOwner(ended) });
    const alive = await TranslationMemory.open(path, { owner: runOwner() });
    const b = await TranslationMemory.open(path, { owner: 'run-b' });
    const ids = [dead, alive, b].map((m) => m.idsFor(keyOptions({ to: ['de'] })))[0];
    await dead.claim(ids, ['Save', 'Open']);
    await alive.claim(ids, ['Quit']);
    expect(await b.claim(ids, ['Save', 'Quit', 'Open'])).toEqual([{ parts: [undefined], missing: [0] }, 'held', { parts: [undefined], missing: [0] }]);
    // (taken: the dead run's claims are b's now)
    expect(await alive.claim(ids, ['Save'])).toEqual(['held']);
    // the same host name and number in another process space (a container of that name, on this
    // host or another): that number says nothing here, the claim holds until its lease runs out
    const elsewhere = await TranslationMemory.open(path, { owner: runOwner(ended).replace(/:[^:]*$/, ':0ther5pc') });
    await elsewhere.claim(ids, ['Help']);
    expect(await b.claim(ids, ['Help'])).toEqual(['held']);
    for (const m of [dead, alive, b, elsewhere]) await m.close();
  });

  it('with several targets, a text is claimed for the missing ones, all or none (a run waiting holds nothing)', async () => {
    const [a, b] = await twoRuns();
    const deFr = a.idsFor(keyOptions({ to: ['de', 'fr'] }));
    const frIt = b.idsFor(keyOptions({ to: ['fr', 'it'] }));
    a.store([deFr[0]], 'Save', de('Speichern'));
    await a.flush();
    expect(await a.claim(deFr, ['Save'])).toEqual([{ parts: [de('Speichern'), undefined], missing: [1] }]);
    // fr is held by a: b holds neither fr nor it
    expect(await b.claim(frIt, ['Save'])).toEqual(['held']);
    expect(await a.claim([frIt[1]], ['Save'])).toEqual([{ parts: [undefined], missing: [0] }]);
    a.store([deFr[1]], 'Save', { translations: [{ text: 'Enregistrer', to: 'fr' }] });
    a.store([frIt[1]], 'Save', { translations: [{ text: 'Salva', to: 'it' }] });
    await a.flush();
    expect(await b.claim(frIt, ['Save'])).toEqual([{ result: { translations: [{ text: 'Enregistrer', to: 'fr' }, { text: 'Salva', to: 'it' }] } }]);
    await a.close();
    await b.close();
  });

  it('a read-only memory claims nothing: what is missing is to send', async () => {
    const [a, b] = await twoRuns();
    await b.close();
    const ids = a.idsFor(keyOptions({ to: ['de'] }));
    a.store(ids, 'Save', de('Speichern'));
    await a.claim(ids, ['Open']);
    await a.close();
    const r = await TranslationMemory.open(a.path, { readOnly: true, owner: 'reader' });
    expect(await r.claim(ids, ['Save', 'Open'])).toEqual([{ result: de('Speichern') }, { parts: [undefined], missing: [0] }]);
    await r.close();
  });
});

describe('memory claims, LMDB', () => {
  itRun('a lease runs out by the wall clock; the run that lost its claim is then told it is held', async () => {
    let now = 1_000_000;
    const path = join(dir, `m${n++}.tm`);
    const a = await TranslationMemory.open(path, { owner: 'run-a', leaseMs: 30_000, wallClock: () => now });
    const b = await TranslationMemory.open(path, { owner: 'run-b', leaseMs: 30_000, wallClock: () => now });
    const ids = a.idsFor(keyOptions({ to: ['de'] }));
    await a.claim(ids, ['Save']);
    now += 29_999;
    expect(await b.claim(ids, ['Save'])).toEqual(['held']);
    now += 2;
    expect(await b.claim(ids, ['Save'])).toEqual([{ parts: [undefined], missing: [0] }]);
    expect(await a.claim(ids, ['Save'])).toEqual(['held']);
    await b.close();
    await a.close();
  });
});

describe('the claims of a run alone on a memory file, LMDB', () => {
  const raw = (m: TranslationMemory) => (m as unknown as { backend: { db: { transaction: unknown; get(k: string): string | undefined; putSync(k: string, v: string): void } } }).backend.db;

  itRun('are kept in the process (no write transaction); a run that comes waits for every text without an answer until they are in the store', async () => {
    const path = join(dir, `m${n++}.tm`);
    const a = await TranslationMemory.open(path, { owner: 'run-a' });
    const ids = a.idsFor(keyOptions({ to: ['de'] }));
    expect(await a.claim(ids, ['Save'])).toEqual([{ parts: [undefined], missing: [0] }]);
    const txn = vi.spyOn(raw(a) as { transaction(): unknown }, 'transaction');
    expect(await a.claim(ids, ['Open'])).toEqual([{ parts: [undefined], missing: [0] }]);
    expect(txn).not.toHaveBeenCalled();
    txn.mockRestore();
    // what a run alone claimed is not in the store
    expect(raw(a).get(entryKey(ids[0], 'Open'))).toBeUndefined();
    const b = await TranslationMemory.open(path, { owner: 'run-b' });
    b.idsFor(keyOptions({ to: ['de'] }));
    // b finds a's mark: it waits, also for a text a never claimed
    expect(await b.claim(ids, ['Save', 'Quit'])).toEqual(['held', 'held']);
    // a's next write transaction sees b: a's claims go to the store
    a.store(ids, 'Save', de('Speichern'));
    await a.flush();
    expect(raw(a).get(entryKey(ids[0], 'Open'))?.startsWith('\u0004run-a\u0000')).toBe(true);
    expect(await b.claim(ids, ['Save', 'Open', 'Quit'])).toEqual([{ result: de('Speichern') }, 'held', { parts: [undefined], missing: [0] }]);
    await a.close();
    await b.close();
  });

  itRun('a run is not alone while another process has the file open (it holds a reader slot): its claims go to the store', async () => {
    const path = join(dir, `m${n++}.tm`);
    const a = await TranslationMemory.open(path, { owner: 'run-a' });
    const ids = a.idsFor(keyOptions({ to: ['de'] }));
    await a.flush();
    // another process opens the file and reads it (as every run does at open), then waits
    const script = `const db = require(${JSON.stringify(require.resolve('lmdb'))}).open({ path: ${JSON.stringify(path)}, noSubdir: true, encoding: 'string' }); db.get('\\u0000format'); process.stdout.write('ready'); process.stdin.on('data', () => undefined).on('end', () => process.exit(0));`;
    const other = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      await new Promise((resolve) => other.stdout.once('data', resolve));
      expect(await a.claim(ids, ['Save'])).toEqual([{ parts: [undefined], missing: [0] }]);
      expect(raw(a).get(entryKey(ids[0], 'Save'))?.startsWith('\u0004run-a\u0000')).toBe(true);
    } finally {
      other.stdin.end();
      await new Promise((resolve) => other.once('exit', resolve));
      await a.close();
    }
  });

  itRun('the mark of a run alone whose process no longer runs is no reason to wait', async () => {
    const path = join(dir, `m${n++}.tm`);
    const b = await TranslationMemory.open(path, { owner: 'run-b' });
    const ids = b.idsFor(keyOptions({ to: ['de'] }));
    await b.flush();
    const ended = spawnSync(process.execPath, ['-e', '0']).pid!;
    await (raw(b) as unknown as { transaction(f: () => void): Promise<void> }).transaction(() => raw(b).putSync('\u0005solo', `${runOwner(ended)}\u0000${Date.now() + 30_000}`));
    expect(await b.claim(ids, ['Save'])).toEqual([{ parts: [undefined], missing: [0] }]);
    await b.close();
  });
});

describe('memory commits, LMDB', () => {
  itRun("a run's answers ride with its next claim (one write transaction), or are committed on their own when no claim comes", async () => {
    const clock = new FakeClock();
    const path = join(dir, `m${n++}.tm`);
    const a = await TranslationMemory.open(path, { owner: 'run-a', clock });
    const b = await TranslationMemory.open(path, { owner: 'run-b', clock });
    const ids = a.idsFor(keyOptions({ to: ['de'] }));
    b.idsFor(keyOptions({ to: ['de'] }));
    await a.flush();
    const writes = vi.spyOn(LmdbStore.prototype, 'write');
    const claims = vi.spyOn(LmdbStore.prototype, 'claim');
    try {
      await a.claim(ids, ['Save', 'Open']);
      a.store(ids, 'Save', de('Speichern'));
      await a.commit();
      // the answer waits for the run's next claim: another run still finds the text held
      expect(writes).not.toHaveBeenCalled();
      expect(await b.claim(ids, ['Save'])).toEqual(['held']);
      await a.claim(ids, ['Quit']);
      expect(claims.mock.calls.at(-2)?.[3]).toHaveLength(2);
      expect(writes).not.toHaveBeenCalled();
      expect(await b.claim(ids, ['Save'])).toEqual([{ result: de('Speichern') }]);
      // no claim comes: committed on its own once the wait is over
      a.store(ids, 'Open', de('Öffnen'));
      await a.commit();
      expect(writes).not.toHaveBeenCalled();
      await clock.run(199);
      expect(writes).not.toHaveBeenCalled();
      await clock.run(200);
      expect(writes).toHaveBeenCalledTimes(1);
      await a.flush();
      expect(await b.claim(ids, ['Open'])).toEqual([{ result: de('Öffnen') }]);
    } finally {
      writes.mockRestore();
      claims.mockRestore();
      await a.close();
      await b.close();
    }
  });
});

describe.each(STORES)('memory lookups in batches, $name', ({ location, skip }) => {
  const it = skip ? itSkip : itRun;
  it('answers whole results, parts for several targets, and misses, in input order', async () => {
    const a = await TranslationMemory.open(await location());
    const ids = a.idsFor(keyOptions({ to: ['de', 'fr'] }));
    const long = 'x'.repeat(700);
    a.store(ids, 'both', { translations: [{ text: 'beide', to: 'de' }, { text: 'les deux', to: 'fr' }] });
    a.store([ids[1]], 'fr only', { translations: [{ text: 'fr seulement', to: 'fr' }] });
    a.store(ids, long, { translations: [{ text: 'lang', to: 'de' }, { text: 'long', to: 'fr' }] });
    await a.flush();
    const texts = ['none', 'both', 'fr only', long];
    expect(await a.recall(ids, texts)).toEqual([undefined, { result: { translations: [{ text: 'beide', to: 'de' }, { text: 'les deux', to: 'fr' }] } }, { parts: [undefined, { translations: [{ text: 'fr seulement', to: 'fr' }] }], missing: [0] }, { result: { translations: [{ text: 'lang', to: 'de' }, { text: 'long', to: 'fr' }] } }]);
    expect(await a.lookupMany(ids, texts)).toEqual([undefined, { translations: [{ text: 'beide', to: 'de' }, { text: 'les deux', to: 'fr' }] }, undefined, { translations: [{ text: 'lang', to: 'de' }, { text: 'long', to: 'fr' }] }]);
    await a.close();
  });
});

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
