// TLS verification is always on and NODE_EXTRA_CA_CERTS is honoured (a self-signed loopback HTTPS
// server, its certificate made with openssl at test time); the config file stays private and valid
// under a permissive umask and concurrent writers.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, removeDir, runVx, tempDir } from '../helpers/vx.js';

const TOKEN = 'tls-test-token-8e1b2c';
/** a company id (profile set checks it is a GUID) */
const companyId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
let dir: string;
let server: Server;
let origin: string;
let hits = 0;

beforeAll(async () => {
  dir = tempDir();
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ], { stdio: 'ignore' });
  server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ value: [{ tls: true, auth: req.headers.authorization === `Bearer ${TOKEN}` }] }));
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  removeDir(dir);
});

const env = (extra: Record<string, string> = {}) => ({ VX_MGMT_ENDPOINT: `${origin}/mgmt`, VX_MGMT_TOKEN: TOKEN, ...extra });

describe('TLS', () => {
  it('an untrusted self-signed certificate is refused at once (exit 8, not retried, hint), nothing sent', async () => {
    hits = 0;
    const r = await runVx(['api', 'GET', '/x', '--service', 'mgmt'], { env: env() });
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/^vx: GET https:\/\/127\.0\.0\.1:\d+\/mgmt\/x: the server's TLS certificate is not trusted \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)[^)]*\); nothing was sent\n/);
    expect(r.stderr).toContain('point NODE_EXTRA_CA_CERTS at that CA certificate');
    expect(r.stderr).not.toContain('after');
    expect(r.stderr).not.toContain(TOKEN);
    expect(hits).toBe(0);
  });

  it('NODE_TLS_REJECT_UNAUTHORIZED=0 does not turn verification off', async () => {
    hits = 0;
    const r = await runVx(['api', 'GET', '/x', '--service', 'mgmt'], { env: env({ NODE_TLS_REJECT_UNAUTHORIZED: '0' }) });
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/TLS certificate is not trusted/);
    expect(hits).toBe(0);
  });

  it('NODE_EXTRA_CA_CERTS makes the certificate trusted', async () => {
    hits = 0;
    const r = await runVx(['api', 'GET', '/x', '--service', 'mgmt', '--paginate'], { env: env({ NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') }) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ tls: true, auth: true }]);
    expect(hits).toBe(1);
  });

  it('a certificate for another name is refused even when its CA is trusted', async () => {
    const r = await runVx(['api', 'GET', '/x', '--service', 'mgmt'], {
      env: env({ NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem'), VX_MGMT_ENDPOINT: `${origin.replace('127.0.0.1', 'localhost')}/mgmt` }),
    });
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/TLS certificate is not trusted \(ERR_TLS_CERT_ALTNAME_INVALID/);
  });
});

describe('config file safety', () => {
  it('0600 file in a 0700 directory even under umask 000', async () => {
    const cfg = join(dir, 'umask', 'deep', 'vx');
    const out = execFileSync('sh', ['-c', `umask 000 && printf %s secret-value-1 | "${process.execPath}" "${BIN}" profile set erp.token && umask`], {
      env: baseEnv(cfg),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(out.trim()).toBe('0000');
    expect(statSync(cfg).mode & 0o777).toBe(0o700);
    expect(statSync(join(cfg, 'config.json')).mode & 0o777).toBe(0o600);
    // what else vx created in the directory: nothing readable by others, no leftovers
    expect(execFileSync('ls', ['-A', cfg], { encoding: 'utf8' }).trim()).toBe('config.json');
  });

  it('eight processes writing at once leave a valid file with every change', async () => {
    const cfg = join(dir, 'race');
    const n = 8;
    const codes = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        new Promise<number | null>((resolve) => {
          const c = spawn(process.execPath, [BIN, '-p', `p${i}`, 'profile', 'set', 'erp.company', companyId(i)], { env: baseEnv(cfg), stdio: 'ignore' });
          c.on('exit', (code) => resolve(code));
        }),
      ),
    );
    expect(codes).toEqual(Array(n).fill(0));
    const stored = JSON.parse(readFileSync(join(cfg, 'config.json'), 'utf8'));
    expect(Object.keys(stored.profiles).sort()).toEqual(Array.from({ length: n }, (_, i) => `p${i}`).sort());
    for (let i = 0; i < n; i++) expect(stored.profiles[`p${i}`]).toEqual({ 'erp.company': companyId(i) });
    expect(execFileSync('ls', ['-A', cfg], { encoding: 'utf8' }).trim()).toBe('config.json');
  });

  it('a stale lock left by a killed vx is taken over; a fresh one makes writers wait', async () => {
    const cfg = join(dir, 'lock');
    const first = await runVx(['profile', 'set', 'erp.company', companyId(1)], { configDir: cfg });
    expect(first.code).toBe(0);
    const lock = join(cfg, 'config.json.lock');
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    const { utimesSync } = await import('node:fs');
    utimesSync(lock, old, old);
    const r = await runVx(['profile', 'set', 'erp.company', companyId(2)], { configDir: cfg });
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(cfg, 'config.json'), 'utf8')).profiles.default['erp.company']).toBe(companyId(2));
  });
});
