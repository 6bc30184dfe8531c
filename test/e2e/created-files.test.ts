// Files vx creates beside the user's are named the first time they are created: at a terminal (or
// with --verbose) stderr says what each one is; the next run, which finds them, says nothing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { runInProc } from '../helpers/inproc.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
let dir: string;
beforeAll(() => {
  dir = tempDir('vx-created-');
});
afterAll(() => removeDir(dir));

const atTerminal = (args: string[]) => runInProc(args, { env: e2e.env, network: true, stderrTTY: true });

describe('files created beside the user files are named once', () => {
  it("an import's journal (and its lock while it runs)", async () => {
    const p = join(dir, 'people.csv');
    writeFileSync(p, 'code\nCR1\n');
    const first = await atTerminal(['erp', 'salespeople', 'import', '--file', p, '-o', 'none']);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`created ${p}.vx-journal: the journal of this import (each row's outcome; a rerun goes on from it), and ${p}.vx-journal.lock while it runs\n`);
    const again = await atTerminal(['erp', 'salespeople', 'import', '--file', p, '-o', 'none']);
    expect(again.stderr).not.toContain('created ');
    // off a terminal: only with --verbose
    const q = join(dir, 'quiet.csv');
    writeFileSync(q, 'code\nCR2\n');
    const quiet = await runInProc(['erp', 'salespeople', 'import', '--file', q, '-o', 'none'], { env: e2e.env, network: true });
    expect(quiet.stderr).not.toContain('created ');
  });

  it('the lock file of translate file and a new translation memory with the lock of its store', async () => {
    mkdirSync(join(dir, 'i18n'));
    const src = join(dir, 'i18n', 'en.json');
    writeFileSync(src, '{"hello":"Hello"}\n');
    const mem = join(dir, 'notes.tm');
    const first = await atTerminal(['translate', 'file', src, '--to', 'de', '--memory', mem]);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`created the translation memory ${mem} (and ${mem}-lock beside it, the lock of its store): keep it to pay for each text once\n`);
    expect(first.stderr).toContain(`created ${src}.vxlock: what was translated from ${src}, so that \`vx translate sync\` sends only what changed; keep it with the targets\n`);
    writeFileSync(src, '{"hello":"Hello","bye":"Goodbye"}\n');
    const again = await atTerminal(['translate', 'sync', src, '--to', 'de', '--memory', mem]);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('created ');
  });
});
