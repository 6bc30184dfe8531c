// HTTP(S)_PROXY and NO_PROXY are honoured (undici's EnvHttpProxyAgent): a loopback CONNECT proxy
// records what goes through it.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const e2e = useEmulator();
let proxy: Server;
let proxyUrl = '';
const through: string[] = [];
beforeAll(async () => {
  proxy = createServer((req, res) => {
    // absolute-form requests (no tunnel)
    through.push(`${req.method} ${req.url}`);
    const u = new URL(req.url!);
    const upstream = connect(Number(u.port), u.hostname, () => {
      upstream.write(`${req.method} ${u.pathname}${u.search} HTTP/1.1\r\n${Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\nconnection: close\r\n\r\n`);
      req.pipe(upstream);
      upstream.pipe(res.socket!);
    });
  });
  proxy.on('connect', (req, client, head) => {
    through.push(`CONNECT ${req.url}`);
    const [host, port] = req.url!.split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((r) => proxy.close(() => r()));
});
beforeEach(() => void (through.length = 0));

describe('proxy', () => {
  it('HTTP_PROXY carries the request; NO_PROXY bypasses it', async () => {
    const target = new URL(e2e.env.VX_ERP_PREFIX).host;
    const via = await e2e.run(['api', 'GET', '/api/v2.0/companies', '--service', 'erp', '-q', 'length(value)'], { env: { HTTP_PROXY: proxyUrl, NO_PROXY: '' } });
    expect(via.stderr).toBe('');
    expect(via.stdout).toBe('2\n');
    expect(through.length).toBeGreaterThan(0);
    expect(through[0]).toMatch(new RegExp(`^(CONNECT ${target}|GET http://${target}/erp/api/v2.0/companies)$`));

    through.length = 0;
    const direct = await e2e.run(['api', 'GET', '/api/v2.0/companies', '--service', 'erp', '-q', 'length(value)'], { env: { HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' } });
    expect(direct.stdout).toBe('2\n');
    expect(through).toEqual([]);
  });

  it('a proxy that is down is a network error (exit 8)', async () => {
    const r = await e2e.run(['--retries', '0', 'api', 'GET', '/api/v2.0/companies', '--service', 'erp'], { env: { HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '' } });
    expect(r.code).toBe(8);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(e2e.emu.count()).toBe(0);
  });
});
