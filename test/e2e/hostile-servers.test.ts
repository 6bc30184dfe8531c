// Hostile servers and inputs: header injection, terminal escapes in --debug stacks, huge error
// bodies, credentials in headers, query strings and endpoint addresses, emulator state files. Each case is
// reproduced with the built CLI against a small loopback server.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runVxInProc } from '../helpers/inproc.js';
import { removeDir, tempDir, withoutRequestLines } from '../helpers/vx.js';

let server: Server;
let origin: string;
let configDir: string;
const seen: { method: string; url: string; headers: IncomingMessage['headers'] }[] = [];
let handler: (req: IncomingMessage, res: ServerResponse) => void = (_q, res) => res.end('[]');

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    req.resume();
    req.on('end', () => handler(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  configDir = tempDir();
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  removeDir(configDir);
});
beforeEach(() => {
  seen.length = 0;
  handler = (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
  };
});

const KEY = 'review-secret-key-7c1e';
const TOKEN = 'review-erp-token-93ab';
const env = () => ({ VX_TRANSLATOR_ENDPOINT: origin, VX_TRANSLATOR_KEY: KEY, VX_ERP_PREFIX: origin, VX_ERP_TOKEN: TOKEN });
const HEADER = /a header cannot carry \(a line break or another control character, or one beyond Latin-1\); nothing was sent/;

describe('header values with a line break (header injection)', () => {
  for (const transport of ['node', 'undici']) {
    it(`--header with CR/LF: exit 2, nothing sent (${transport})`, async () => {
      const r = await runVxInProc(['api', '--service', 'erp', 'GET', '/x', '-H', 'X-A: 1\r\nX-Injected: 2'], { env: { ...env(), VX_HTTP_CLIENT: transport }, configDir });
      expect(r.stderr).toMatch(new RegExp(`^vx: the X-A header holds a character ${HEADER.source}\\n$`));
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(seen).toHaveLength(0);
    });

    it(`a setting with a line break (the translator key): exit 2 naming the variable, the value never shown (${transport})`, async () => {
      const r = await runVxInProc(['translate', '--to', 'de', 'hello'], { env: { ...env(), VX_TRANSLATOR_KEY: `${KEY}\nX-Injected: 1`, VX_HTTP_CLIENT: transport }, configDir });
      expect(r.stderr).toBe(
        'vx: VX_TRANSLATOR_KEY holds a character a credential cannot carry (a line ending such as a carriage return, another control character, a space or one beyond ASCII); correct it (nothing was sent)\n',
      );
      expect(r.stderr).not.toContain(KEY);
      expect(r.stderr).not.toContain('Injected');
      expect(r.code).toBe(2);
      expect(seen).toHaveLength(0);
    });
  }

  it('--dry-run refuses it too (it would not be sent as shown)', async () => {
    const r = await runVxInProc(['api', '--service', 'erp', 'GET', '/x', '-H', 'X-A: 1\rX-B: 2', '--dry-run'], { env: env(), configDir });
    expect(r.stderr).toMatch(new RegExp(`^vx: the X-A header holds a character ${HEADER.source}\\n$`));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});

describe('--debug', () => {
  it('the stack printed after the error escapes a service\'s terminal escape sequences as the message does', async () => {
    handler = (_q, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'Bad', message: 'boom \u001b]0;pwned\u0007 \u001b[2J \u009b31m' } }));
    };
    const r = await runVxInProc(['api', '--service', 'erp', 'GET', '/x', '--debug', '--retries', '0'], { env: env(), configDir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('vx: HTTP 400 Bad Request Bad: boom \\u001b]0;pwned\\u0007 \\u001b[2J \\u009b31m');
    expect(r.stderr).toMatch(/\nServiceError: HTTP 400 Bad Request Bad: boom \\u001b\]0;pwned\\u0007 \\u001b\[2J \\u009b31m\n\s+at /);
    expect(r.stderr).not.toMatch(/[\u001b\u0007\u009b]/);
    expect(r.stderr).not.toContain(TOKEN);
  });
});

describe('a huge error body in the service\'s own error shape', () => {
  const huge = { code: 'C'.repeat(5000), message: `start ${'m'.repeat(3_000_000)}`, details: Array.from({ length: 100_000 }, (_, i) => ({ code: 'D', message: `detail ${i} ${'d'.repeat(i === 0 ? 5000 : 1)}` })) };

  it('a 4xx: the code, message and details are cut, the line stays short (was 4.5 MB on stderr)', async () => {
    handler = (_q, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: huge }));
    };
    const r = await runVxInProc(['api', '--service', 'erp', 'GET', '/x', '--retries', '0'], { env: env(), configDir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const line = r.stderr.trimEnd();
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toMatch(
      new RegExp(`^vx: HTTP 400 Bad Request C{200}… \\(5000 chars\\): start m{994}… \\(3000006 chars\\) \\[D detail 0 d{289}… \\(5011 chars\\); (D detail \\d+ d; ){19}… 99980 more\\]$`),
    );
    expect(line.length).toBeLessThan(2000);
  });

  it('a 500 KB request id header: cut in the error line and in --verbose (was printed whole)', async () => {
    handler = (_q, res) => {
      res.writeHead(400, { 'content-type': 'application/json', 'x-request-id': 'r'.repeat(500_000) });
      res.end(JSON.stringify({ error: { code: 'Bad', message: 'bad' } }));
    };
    const r = await runVxInProc(['api', '--service', 'erp', 'GET', '/x', '--retries', '0', '--verbose'], { env: env(), configDir });
    expect(r.code).toBe(1);
    expect(withoutRequestLines(r.stderr)).toMatch(/^vx: HTTP 400 Bad Request Bad: bad \(request id r{200}… \(500000 chars\)\)\n/);
    expect(r.stderr).toMatch(/^GET \S+ -> 400 in \d+ ms \(request id r{200}… \(500000 chars\)\)\n/);
    expect(r.stderr.length).toBeLessThan(1500);
  });

  it('a 200 carrying the error shape: cut the same way', async () => {
    handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: huge.code, message: huge.message } }));
    };
    const r = await runVxInProc(['api', '--service', 'erp', 'GET', '/x'], { env: env(), configDir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^vx: HTTP 200 from GET http:\/\/127\.0\.0\.1:\d+\/x carried an error instead of a result: C{200}… \(5000 chars\): start m{994}… \(3000006 chars\)\n$/);
  });
});

describe('an id that looks like a --dry-run placeholder', () => {
  const C = '11111111-1111-4111-8111-111111111111';
  for (const verb of ['get', 'restart']) {
    it(`erp job-queue-entries ${verb} '<id of x)/salesOrderLines?$top=1#': exit 2, nothing sent (was sent raw with the token)`, async () => {
      const r = await runVxInProc(['erp', 'job-queue-entries', verb, '<id of x)/salesOrderLines?$top=1#', '--yes'], { env: { ...env(), VX_ERP_COMPANY: C }, configDir });
      expect(r.stderr).toBe('vx: invalid job queue entry id "<id of x)/salesOrderLines?$top=1#": a --dry-run placeholder, not a record; expected a GUID or a description\n');
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(seen).toHaveLength(0);
    });
  }
});

describe('emulator: device codes', () => {
  it('GET /_emulator/state and the --state file do not show a pending device code (whoever polls with it gets the tokens)', async () => {
    const { readFileSync: read } = await import('node:fs');
    const { join } = await import('node:path');
    const { startEmulator } = await import('../../src/emulator/index.js');
    const dir = tempDir();
    const statePath = join(dir, 'state.json');
    const emu = await startEmulator({ port: 0, statePath });
    try {
      const issued = await fetch(`${emu.url}/auth/common/oauth2/devicecode`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'client_id=vx-cli&scope=user_impersonation',
      });
      expect(issued.status).toBe(200);
      const { device_code: code, user_code: userCode } = (await issued.json()) as { device_code: string; user_code: string };
      expect(code).toMatch(/^[0-9a-f-]{36}$/);
      const state = await (await fetch(`${emu.url}/_emulator/state`)).text();
      expect(state).toContain('"tokenTtl"');
      expect(state).not.toContain(code);
      expect(state).not.toContain(userCode);
      emu.flushState();
      const saved = read(statePath, 'utf8');
      expect(saved).toContain('"tokenTtl"');
      expect(saved).not.toContain(code);
      // the code still works: polling with it is answered "pending", not "invalid"
      const poll = await fetch(`${emu.url}/auth/common/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=urn:ietf:params:oauth:grant-type:device_code&client_id=vx-cli&device_code=${code}`,
      });
      expect(((await poll.json()) as { error: string }).error).toBe('authorization_pending');
    } finally {
      await emu.close();
      removeDir(dir);
    }
  });
});

describe('profile show', () => {
  it('hides a password in an endpoint address, as errors and --dry-run do (was printed in every format)', async () => {
    const dir = tempDir();
    try {
      const set = await runVxInProc(['-p', 'p1', 'profile', 'set', 'translator.endpoint', 'http://alice:pw-R13-secret@127.0.0.1:9/x'], { configDir: dir });
      expect(set.code).toBe(0);
      const json = await runVxInProc(['profile', 'show', 'p1', '-o', 'json'], { configDir: dir });
      expect(JSON.parse(json.stdout).settings).toContainEqual({ key: 'translator.endpoint', value: 'http://***@127.0.0.1:9/x', source: 'profile' });
      const table = await runVxInProc(['-p', 'p1', 'profile', 'show', '-o', 'tsv'], { configDir: dir });
      expect(table.stdout).toContain('translator.endpoint\thttp://***@127.0.0.1:9/x\tprofile\n');
      for (const r of [json, table]) {
        expect(r.code).toBe(0);
        expect(r.stdout + r.stderr).not.toContain('pw-R13-secret');
      }
    } finally {
      removeDir(dir);
    }
  });
});

describe('a proxy that refuses the tunnel', () => {
  for (const [status, hint, user] of [
    // the proxy refused the user and password it was given: saying to add them misled
    [407, 'the proxy refused the user and password in HTTP_PROXY: check them (an @, :, / or % inside them must be percent-encoded)\n', 'alice:pw-R13-proxy@'],
    [407, 'the proxy asks for a user and password: put them in its address in HTTPS_PROXY or HTTP_PROXY, as user:password@ before its host\n', ''],
    [403, '', 'alice:pw-R13-proxy@'],
  ] as const) {
    it(`CONNECT answered ${status}${user ? ' (a user in the proxy address)' : ''}: exit 8 naming the request and the proxy's status (was "network error: Proxy response (${status}) !== 200 when HTTP Tunneling")`, async () => {
      const proxy = createServer((_q, res) => res.end());
      const connects: string[] = [];
      proxy.on('connect', (req, socket) => {
        connects.push(String(req.headers['proxy-authorization'] ?? ''));
        socket.end(`HTTP/1.1 ${status} No\r\nContent-Length: 0\r\n\r\n`);
      });
      await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
      try {
        const port = (proxy.address() as AddressInfo).port;
        const r = await runVxInProc(['api', '--service', 'erp', 'GET', '/x', '--retries', '0'], {
          env: { ...env(), HTTP_PROXY: `http://${user}127.0.0.1:${port}`, NO_PROXY: '' },
          configDir,
        });
        const text = status === 407 ? 'Proxy Authentication Required' : 'Forbidden';
        expect(r.stderr).toBe(`vx: GET ${origin}/x: the proxy refused to connect to the service (HTTP ${status} ${text}); nothing was sent\n${hint}`);
        expect(r.code).toBe(8);
        expect(connects).toEqual([user ? `Basic ${Buffer.from('alice:pw-R13-proxy').toString('base64')}` : '']);
        expect(r.stderr).not.toContain('pw-R13-proxy');
        expect(seen).toHaveLength(0);
      } finally {
        await new Promise<void>((r) => proxy.close(() => r()));
      }
    });
  }
});

describe('credentials given with --header', () => {
  const H = ['-H', 'X-Auth-Token: hdr-secret-1234', '-H', 'api-key: hdr-secret-5678', '-H', 'Private-Token: hdr-secret-9012', '-H', 'X-Trace: visible'];
  it('are masked in --debug traces by their names, other headers shown (were shown whole)', async () => {
    const r = await runVxInProc(['api', '--service', 'erp', 'GET', '/x', ...H, '--debug'], { env: env(), configDir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('[debug] > x-auth-token: ***\n');
    expect(r.stderr).toContain('[debug] > api-key: ***\n');
    expect(r.stderr).toContain('[debug] > private-token: ***\n');
    expect(r.stderr).toContain('[debug] > x-trace: visible\n');
    expect(r.stderr).not.toContain('hdr-secret');
    // and they were sent as given
    expect(seen[0]!.headers['x-auth-token']).toBe('hdr-secret-1234');
  });

  it('are masked in --dry-run', async () => {
    const r = await runVxInProc(['api', '--service', 'erp', 'GET', '/x', ...H, '--dry-run'], { env: env(), configDir });
    expect(r.code).toBe(0);
    const [plan] = JSON.parse(r.stdout) as { headers: Record<string, string> }[];
    expect(plan!.headers).toMatchObject({ 'x-auth-token': '***', 'api-key': '***', 'private-token': '***', 'x-trace': 'visible' });
    expect(r.stdout).not.toContain('hdr-secret');
  });
});

describe('SAS-like query parameters', () => {
  const PATH = '/x?sig=sas-secret-123&se=2030&Subscription-Key=qk-secret-9&$skiptoken=page2';
  it('a signature or key in a URL is masked in --debug and --dry-run; other parameters shown (were shown whole)', async () => {
    const debug = await runVxInProc(['api', '--service', 'erp', 'GET', PATH, '--debug'], { env: env(), configDir });
    expect(debug.code).toBe(0);
    expect(debug.stderr).toContain(`[debug] > GET ${origin}/x?sig=***&se=2030&Subscription-Key=***&$skiptoken=page2\n`);
    expect(seen[0]!.url).toBe(PATH);
    const dry = await runVxInProc(['api', '--service', 'erp', 'GET', PATH, '--dry-run'], { env: env(), configDir });
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)[0].url).toBe(`${origin}/x?sig=***&se=2030&Subscription-Key=***&$skiptoken=page2`);
    for (const r of [debug, dry]) expect(r.stdout + r.stderr).not.toMatch(/sas-secret|qk-secret/);
  });
});

describe('emulator --state', () => {
  it('the temporary file of a state save is not a predictable name a planted symbolic link can redirect', async () => {
    const { symlinkSync, writeFileSync: write, readFileSync: read, readdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { startEmulator } = await import('../../src/emulator/index.js');
    const dir = tempDir();
    try {
      const victim = join(dir, 'victim.txt');
      write(victim, 'keep me\n');
      const statePath = join(dir, 'state.json');
      // what another user of a shared directory could plant: the old name was <state>.<pid>.tmp
      symlinkSync(victim, `${statePath}.${process.pid}.tmp`);
      const emu = await startEmulator({ port: 0, statePath });
      try {
        emu.flushState();
      } finally {
        await emu.close();
      }
      expect(read(victim, 'utf8')).toBe('keep me\n');
      expect(JSON.parse(read(statePath, 'utf8'))).toHaveProperty('erp');
      expect(readdirSync(dir).sort()).toEqual(['state.json', `state.json.${process.pid}.tmp`, 'victim.txt']);
    } finally {
      removeDir(dir);
    }
  });
});
