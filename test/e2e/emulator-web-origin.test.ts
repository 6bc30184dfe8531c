// The emulator against a web page. A page the person visits can reach a
// loopback port too: through DNS rebinding (a name of the page's own that it makes resolve to
// 127.0.0.1) it reads the answers, with its name in the Host header, which the emulator also
// used to build absolute links (nextLink, Location); and a plain cross-site POST (no preflight)
// reached the control routes.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { runVxInProc } from '../helpers/inproc.js';

let emu: Emulator;
let port = 0;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  port = Number(new URL(emu.url).port);
});
afterAll(async () => {
  await emu.close();
});

function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const TOKEN = { authorization: 'Bearer emulator-token' };

describe('the emulator answers loopback host names only', () => {
  it('a Host that is not this machine (DNS rebinding) gets 421 and no data, on every route', async () => {
    for (const path of ['/erp/api/v2.0/companies', '/_emulator/state', '/_emulator/requests', '/mgmt/nowhere']) {
      const r = await send('GET', path, { ...TOKEN, host: `rebind.attacker.example:${port}` });
      expect(r.status, path).toBe(421);
      expect(JSON.parse(r.text)).toEqual({
        error: { code: 'MisdirectedRequest', message: 'the emulator answers requests for this machine only (Host 127.0.0.1, localhost or ::1, with its port); not for rebind.attacker.example' },
      });
    }
    const reset = await send('POST', '/_emulator/reset', { host: 'attacker.example' });
    expect(reset.status).toBe(421);
  });

  it('loopback names are served as before', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `app.localhost:${port}`, '127.0.0.2']) {
      const r = await send('GET', '/erp/api/v2.0/companies', { ...TOKEN, host });
      expect(r.status, host).toBe(200);
      expect(JSON.parse(r.text).value.length).toBeGreaterThan(0);
    }
  });
});

describe('the control routes refuse a request from a web page of another origin', () => {
  it('POST /_emulator/reset and /_emulator/clock with a foreign Origin: 403, nothing changed', async () => {
    const before = await send('GET', '/_emulator/clock', {});
    for (const [path, body] of [
      ['/_emulator/reset', ''],
      ['/_emulator/clock', '{"advanceSeconds":3600}'],
    ]) {
      const r = await send('POST', path, { origin: 'https://attacker.example', 'content-type': 'text/plain' }, body);
      expect(r.status, path).toBe(403);
      expect(JSON.parse(r.text).error.code).toBe('Forbidden');
    }
    const after = await send('GET', '/_emulator/clock', {});
    expect(JSON.parse(after.text).offsetSeconds).toBe(JSON.parse(before.text).offsetSeconds);
  });

  it('a page on this machine (Origin http://localhost:3000) and clients without an Origin are served', async () => {
    expect((await send('POST', '/_emulator/reset', { origin: 'http://localhost:3000' })).status).toBe(204);
    expect((await send('POST', '/_emulator/reset', {})).status).toBe(204);
  });

  it('the families keep answering browsers of any origin as the real services do', async () => {
    const r = await send('POST', '/translator/translate?api-version=3.0&to=de', { origin: 'https://app.example', 'vendor-subscription-key': 'emulator-key', 'content-type': 'application/json' }, '[{"Text":"hi"}]');
    expect(r.status).toBe(200);
  });
});

// behind a company proxy (HTTP_PROXY/HTTPS_PROXY set, NO_PROXY without 127.0.0.1), the command run
// by `vx emulator exec` sent its requests, with the emulator's credentials, in clear to the proxy,
// which cannot reach this machine's loopback: exit 8 for every command
describe('vx emulator exec behind a proxy', () => {
  it('the command reaches the emulator directly (its address joins NO_PROXY), the proxy sees nothing', async () => {
    const { createServer } = await import('node:net');
    const { runVx } = await import('../helpers/vx.js');
    let proxied = 0;
    const proxy = createServer((s) => {
      proxied++;
      s.destroy();
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    const p = `http://127.0.0.1:${(proxy.address() as import('node:net').AddressInfo).port}`;
    try {
      const r = await runVx(['emulator', 'exec', '--port', '0', '--', 'sh', '-c', 'vx erp companies list -q "length(@)" -o json && printf "%s|%s" "$NO_PROXY" "$no_proxy"'], {
        env: { HTTP_PROXY: p, HTTPS_PROXY: p, NO_PROXY: 'corp.example' },
      });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('2\ncorp.example,127.0.0.1|corp.example,127.0.0.1');
      expect(r.code).toBe(0);
      expect(proxied).toBe(0);
      // an IPv6 emulator (undici matches [::1], curl ::1), and NO_PROXY=* left a wildcard
      for (const [host, given, expected] of [
        ['::1', undefined, '[::1],::1'],
        ['127.0.0.1', '*', '*'],
      ] as const) {
        const v6 = await runVx(['emulator', 'exec', '--host', host, '--port', '0', '--', 'sh', '-c', 'vx erp companies list -q "length(@)" -o json && printf "%s" "$NO_PROXY"'], {
          env: { HTTP_PROXY: p, NO_PROXY: given },
        });
        expect([v6.code, v6.stdout, v6.stderr]).toEqual([0, `2\n${expected}`, '']);
      }
      expect(proxied).toBe(0);
      // `emulator start` prints the same for the shell that sources its lines
      const start = await runVx(['emulator', 'start', '--port', '0'], {
        env: { HTTP_PROXY: p, NO_PROXY: 'corp.example' },
        onSpawn: (child) => child.stdout!.once('data', () => setTimeout(() => child.kill('SIGINT'), 100)),
      });
      expect(start.stdout).toContain('\nexport NO_PROXY=corp.example,127.0.0.1\nexport no_proxy=corp.example,127.0.0.1\n');
    } finally {
      proxy.close();
    }
  });
});

// `vx emulator start --save-profile prod` with prod already holding a real subscription key and
// endpoint replaced them with the emulator's, without a word: the key was gone
describe('emulator start --save-profile over a profile of a real service', () => {
  it('refuses without --yes (nothing changed, no emulator left running); an emulator profile is refreshed; --yes replaces', async () => {
    const { runVx, tempDir, removeDir } = await import('../helpers/vx.js');
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = tempDir('vx-save-profile-');
    const stopSoon = { onSpawn: (child: import('node:child_process').ChildProcess) => child.stderr!.on('data', (d: Buffer) => /listening/.test(String(d)) && setTimeout(() => child.kill('SIGINT'), 100)) };
    try {
      await runVxInProc(['-p', 'prod', 'profile', 'set', 'translator.key'], { configDir: dir, input: 'REAL-KEY-0123456789' });
      await runVxInProc(['-p', 'prod', 'profile', 'set', 'translator.endpoint', 'https://api.example.com'], { configDir: dir });
      const before = readFileSync(join(dir, 'config.json'), 'utf8');
      const r = await runVx(['emulator', 'start', '--port', '0', '--save-profile', 'prod'], { configDir: dir, ...stopSoon });
      expect(r.stderr).toBe('vx: Replace the settings of profile "prod" (translator.endpoint, translator.key: a service of its own) with the emulator\'s: confirmation needed; pass --yes to proceed without a terminal (nothing was changed)\n');
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
      // a profile an emulator saved before is refreshed without a question
      expect((await runVx(['emulator', 'start', '--port', '0', '--save-profile', 'emu'], { configDir: dir, ...stopSoon })).code).toBe(130);
      const again = await runVx(['emulator', 'start', '--port', '0', '--save-profile', 'emu'], { configDir: dir, ...stopSoon });
      expect(again.stderr).toContain('saved profile "emu"');
      expect(again.code).toBe(130);
      const forced = await runVx(['emulator', 'start', '--port', '0', '--save-profile', 'prod', '--yes'], { configDir: dir, ...stopSoon });
      expect(forced.stderr).toContain('saved profile "prod"');
    } finally {
      removeDir(dir);
    }
  });
});

describe('emulator start --state naming a file that is not JSON', () => {
  it('says where, never a piece of it', async () => {
    const { tempDir, removeDir } = await import('../helpers/vx.js');
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = tempDir('vx-emu-state-');
    try {
      writeFileSync(join(dir, '.env'), 'SK_live_9f8e7d6c5b4a\n');
      const r = await runVxInProc(['emulator', 'start', '--port', '0', '--state', join(dir, '.env')], { configDir: dir });
      expect(r.stderr).toBe(`vx: cannot load emulator state from ${join(dir, '.env')}: Unexpected token 'S'\n`);
      expect(r.code).toBe(2);
    } finally {
      removeDir(dir);
    }
  });
});
