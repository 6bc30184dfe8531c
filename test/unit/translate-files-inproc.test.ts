// vx translate file, in-process (test/helpers/inproc.ts), where a spawned run cannot reach: a
// target that cannot be written once the translations are in (a full disk). That is a failure
// after the requests, exit 1 (not 2, which says nothing was sent), every target as it was.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { offlineEnv, runInProc } from '../helpers/inproc.js';
import { json } from '../helpers/httpmock.js';

const full = { on: false };
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof import('node:fs/promises')>();
  const open: typeof fs.open = (path, ...rest) =>
    full.on && String(path).endsWith('.tmp') ? Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })) : fs.open(path, ...rest);
  return { ...fs, open, default: { ...fs, open } };
});

describe('a target that cannot be written after the translations came', () => {
  it('is exit 1 naming it, every target as it was, no temporary file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vx-files-inproc-'));
    writeFileSync(join(dir, 'en.json'), '{ "a": "One" }\n');
    writeFileSync(join(dir, 'de.json'), '{ "a": "Eins" }\n');
    full.on = true;
    try {
      const r = await runInProc(['translate', 'file', join(dir, 'en.json'), '--to', 'de,fr'], {
        env: offlineEnv(),
        setup: (t) => void t.http.stub('POST', /\/translate\?/, (req) => json(200, (JSON.parse(req.text) as { Text: string }[]).map((i) => ({ translations: [{ to: 'de', text: `[de] ${i.Text}` }, { to: 'fr', text: `[fr] ${i.Text}` }] })))),
      });
      expect(r.http.requests).toHaveLength(1);
      expect([r.code, r.stderr]).toEqual([1, `vx: cannot write ${join(dir, 'de.json')}: no space left on the device\nno target was written (each stays as it was); the translations were sent\n`]);
      expect(readdirSync(dir).sort()).toEqual(['de.json', 'en.json']);
      expect(readFileSync(join(dir, 'de.json'), 'utf8')).toBe('{ "a": "Eins" }\n');
    } finally {
      full.on = false;
    }
  });
});
