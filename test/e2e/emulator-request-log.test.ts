// The emulator's request log is bounded (a ring of requests, a byte budget for
// bodies) and `/_emulator/requests` shows no credential in clear.
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';

describe('11. the emulator request log', () => {
  it('keeps the last logLimit requests and at most logBodyBytes of bodies (600 requests of 60 KB)', async () => {
    const emu = await startEmulator({ port: 0, logLimit: 100, logBodyBytes: 512 * 1024 });
    try {
      const body = JSON.stringify([{ Text: 'x'.repeat(60_000) }]);
      for (let round = 0; round < 6; round++) {
        await Promise.all(
          Array.from({ length: 100 }, () =>
            fetch(`${emu.url}/erp/api/v2.0/nosuch`, { method: 'POST', headers: { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' }, body }).then((r) => r.arrayBuffer()),
          ),
        );
      }
      expect(emu.log.length).toBe(100);
      const kept = emu.log.filter((e) => e.body !== undefined);
      expect(kept.reduce((n, e) => n + e.body!.length, 0)).toBeLessThanOrEqual(512 * 1024);
      // the newest bodies are the ones kept, whole
      expect(emu.log.at(-1)!.body).toBe(body);
      expect(emu.log[0].bodyDropped).toBe(true);
    } finally {
      await emu.close();
    }
  }, 120_000);

  it('/_emulator/requests masks keys, tokens and secrets; the in-process log keeps them for tests', async () => {
    const emu = await startEmulator({ port: 0 });
    try {
      await fetch(`${emu.url}/translator/languages?api-version=3.0`, { headers: { 'vendor-subscription-key': emu.key } });
      await fetch(`${emu.url}/erp/api/v2.0/companies`, { headers: { authorization: `Bearer ${emu.token}` } });
      await fetch(`${emu.url}/auth/common/oauth2/v2.0/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&client_id=app&client_secret=S3cret-Value&scope=x',
      });
      await fetch(`${emu.url}/erp/api/v2.0/companies?access_token=Tok-In-Query`, { headers: { cookie: 'session=abc' } });
      const shown = await (await fetch(`${emu.url}/_emulator/requests`)).text();
      for (const secret of [emu.key, emu.token, 'S3cret-Value', 'Tok-In-Query', 'session=abc']) expect(shown).not.toContain(secret);
      const entries = JSON.parse(shown);
      expect(entries[0].headers['vendor-subscription-key']).toBe('***');
      expect(entries[1].headers.authorization).toBe('Bearer ***');
      expect(entries[2].body).toBe('grant_type=client_credentials&client_id=app&client_secret=***&scope=x');
      expect(entries[3].path).toBe('/api/v2.0/companies?access_token=***');
      expect(emu.log[1].headers!.authorization).toBe(`Bearer ${emu.token}`);
    } finally {
      await emu.close();
    }
  });
});
