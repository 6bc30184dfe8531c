// vx mgmt version-sets list|get|create|update|delete against the emulator.
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/api/settings.js';
import { run as runVsDelete } from '../../src/cli/mgmt/version-sets/delete.js';
import { Ctx, type GlobalOptions } from '../../src/core/context.js';
import { NotFoundError, UsageError } from '../../src/core/errors.js';
import { confirmingPrompter } from '../helpers/ctx.js';
import { useEmulator } from '../helpers/emulator.js';
import { tty } from '../helpers/tty.js';
import { withoutRequestLines } from '../helpers/vx.js';

const e2e = useEmulator();
const json = (s: string) => JSON.parse(s);
const SUB = () => e2e.emu.state.mgmt.defaultSubscription as string;
const S = ['--resource-group', 'web', '--service', 'contoso-api'];
const base = () => `/subscriptions/${SUB()}/resourceGroups/web/providers/Vendor.ApiManagement/service/contoso-api/apiVersionSets`;
const mgmtLog = async (): Promise<{ method: string; path: string; status: number }[]> =>
  ((await (await fetch(`${e2e.emu.url}/_emulator/requests`)).json()) as any[]).filter((e) => e.family === 'mgmt');
const writes = () => e2e.emu.state.mgmt.writes as { method: string; path: string; ifMatch?: string; body: any }[];
const stored = (id: string) => e2e.emu.state.mgmt.versionSets[`${SUB().toLowerCase()}|web|contoso-api`][id];

describe('vx mgmt version-sets list', () => {
  it('follows nextLink across pages until it is empty and prints one array', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'list', ...S]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const list = json(r.stdout);
    expect(list).toHaveLength(12);
    expect(list[0]).toEqual({
      id: `${base()}/orders`,
      type: 'Vendor.ApiManagement/service/api-version-sets',
      name: 'orders',
      properties: { displayName: 'Orders', versioningScheme: 'Segment', description: 'Order API' },
    });
    const log = await mgmtLog();
    expect(log.map((l) => l.path.replace(base(), ''))).toEqual(['?api-version=2024-05-01', '?api-version=2024-05-01&$skip=5', '?api-version=2024-05-01&$skip=10']);
  });

  it('--top is sent as $top and caps the total across pages; --skip as $skip', async () => {
    const r = await e2e.run(['mgmt', 'versionsets', 'list', ...S, '--top', '7', '--skip', '2']);
    const list = json(r.stdout);
    expect(list.map((v: any) => v.name)).toEqual(['customers', 'inventory', 'shipping', 'payments', 'catalog', 'pricing', 'returns']);
    const log = await mgmtLog();
    expect(log[0].path).toBe(`${base()}?api-version=2024-05-01&$top=7&$skip=2`);
    expect(log).toHaveLength(2);
  });

  it('--filter is sent as $filter', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'list', ...S, '--filter', "versioningScheme eq 'Header'"]);
    expect(json(r.stdout).map((v: any) => v.name)).toEqual(['customers', 'shipping', 'returns']);
    expect((await mgmtLog())[0].path).toBe(`${base()}?api-version=2024-05-01&$filter=versioningScheme%20eq%20%27Header%27`);
  });

  it('the table shows name, display name, scheme and where the version goes', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'list', ...S, '--top', '3', '-o', 'table'], { env: { COLUMNS: '200' } });
    expect(r.stdout.trimEnd().split('\n').map((l) => l.split(/\s{2,}/))).toEqual([
      ['NAME', 'DISPLAY NAME', 'SCHEME', 'VERSION IN', 'DESCRIPTION'],
      ['orders', 'Orders', 'Segment', 'Order API'],
      ['billing', 'Billing', 'Query', 'api-version'],
      ['customers', 'Customers', 'Header', 'Api-Version', 'Customer master data'],
    ]);
  });

  it('an unknown service is exit 4 with the ErrorResponse message', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'list', '--resource-group', 'web', '--service', 'nosuch']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^vx: HTTP 404 Not Found ResourceNotFound: The API management service 'nosuch' was not found in resource group 'web'\. \(request id /);
  });
});

describe('vx mgmt version-sets get', () => {
  it('prints the version set; --verbose shows its ETag', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'get', 'customers', ...S, '--verbose']);
    expect(r.code).toBe(0);
    expect(json(r.stdout).properties).toEqual({ displayName: 'Customers', versioningScheme: 'Header', versionHeaderName: 'Api-Version', description: 'Customer master data' });
    expect(withoutRequestLines(r.stderr)).toMatch(/^ETag: "[0-9a-f]{8}"\n/);
    const missing = await e2e.run(['mgmt', 'version-sets', 'get', 'nosuch', ...S]);
    expect(missing.code).toBe(4);
  });
});

describe('vx mgmt version-sets create', () => {
  it('reads first, then PUTs without If-Match; 201 prints the new version set', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'create', 'tracking', ...S, '--display-name', 'Tracking', '--scheme', 'Header', '--header-name', 'Api-Version', '--description', 'Parcel tracking']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(json(r.stdout).name).toBe('tracking');
    expect(writes()).toEqual([
      { method: 'PUT', path: `${base()}/tracking`, ifMatch: undefined, body: { properties: { displayName: 'Tracking', versioningScheme: 'Header', description: 'Parcel tracking', versionHeaderName: 'Api-Version' } } },
    ]);
    expect((await mgmtLog()).map((l) => `${l.method} ${l.status}`)).toEqual(['GET 404', 'PUT 201']);
  });

  it('an existing version set is never replaced: exit 5 pointing at update, nothing written', async () => {
    const before = stored('orders').properties;
    const r = await e2e.run(['mgmt', 'version-sets', 'create', 'orders', ...S, '--display-name', 'Orders v2', '--scheme', 'Query', '--query-name', 'v']);
    expect(r.code).toBe(5);
    expect(r.stderr).toBe(
      'vx: version set orders already exists; change it with `vx mgmt version-sets update orders` (or replace it with create --force); nothing was written\n',
    );
    expect(stored('orders').properties).toEqual(before);
    expect(writes()).toEqual([]);
  });

  it('--force replaces only with --yes off a terminal, guarded by the ETag of the read', async () => {
    const args = ['mgmt', 'version-sets', 'create', 'orders', ...S, '--display-name', 'Orders v2', '--scheme', 'Query', '--query-name', 'v', '--force'];
    const asked = await e2e.run(args);
    expect(asked.code).toBe(2);
    expect(asked.stderr).toMatch(/^vx: Replace version set orders \(Orders\) of service contoso-api with the given fields: confirmation needed; pass --yes to proceed without a terminal \(nothing was written\)\n$/);
    expect(writes()).toEqual([]);
    const etag = (await e2e.run(['mgmt', 'version-sets', 'get', 'orders', ...S, '--verbose'])).stderr.match(/ETag: (\S+)/)![1];
    const r = await e2e.run([...args, '--yes']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('replaced version set orders with the given fields\n');
    expect(stored('orders').properties).toEqual({ displayName: 'Orders v2', versioningScheme: 'Query', versionQueryName: 'v' });
    expect(writes()).toEqual([{ method: 'PUT', path: `${base()}/orders`, ifMatch: etag, body: { properties: { displayName: 'Orders v2', versioningScheme: 'Query', versionQueryName: 'v' } } }]);
  });

  it('--dry-run shows the read and the PUT', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'create', 'tracking', ...S, '--display-name', 'T', '--scheme', 'Segment', '--dry-run']);
    expect(r.code).toBe(0);
    expect(json(r.stdout).map((p: any) => p.method)).toEqual(['GET', 'PUT']);
    expect(await mgmtLog()).toEqual([]);
  });

  it('--scheme Header without --header-name is refused: exit 2, nothing sent (every scheme rule: unit/mgmt-versionsets-inproc)', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'create', 'x1', ...S, '--display-name', 'X', '--scheme', 'Header']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^vx: .*--scheme Header needs --header-name/);
    expect(await mgmtLog()).toEqual([]);
  });
});

describe('vx mgmt version-sets update', () => {
  it('reads, merges the given field into the current ones and PUTs with the If-Match of the read', async () => {
    const etag = (await e2e.run(['mgmt', 'version-sets', 'get', 'customers', ...S, '--verbose'])).stderr.match(/ETag: (\S+)/)![1];
    e2e.emu.reset();
    const r = await e2e.run(['mgmt', 'version-sets', 'update', 'customers', ...S, '--display-name', 'Customer master']);
    expect(r.code).toBe(0);
    expect(json(r.stdout).properties).toEqual({ displayName: 'Customer master', versioningScheme: 'Header', versionHeaderName: 'Api-Version', description: 'Customer master data' });
    expect(writes()).toEqual([
      { method: 'PUT', path: `${base()}/customers`, ifMatch: etag, body: { properties: { displayName: 'Customer master', versioningScheme: 'Header', versionHeaderName: 'Api-Version', description: 'Customer master data' } } },
    ]);
    expect((await mgmtLog()).map((l) => `${l.method} ${l.status}`)).toEqual(['GET 200', 'PUT 200']);
  });

  it("--description '' removes the description; changing the scheme keeps the other fields", async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'update', 'orders', ...S, '--description', '', '--scheme', 'Query', '--query-name', 'api-version']);
    expect(r.code).toBe(0);
    expect(stored('orders').properties).toEqual({ displayName: 'Orders', versioningScheme: 'Query', versionQueryName: 'api-version' });
  });

  it('switching to Header without a header name is refused after the read; nothing is written', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'update', 'orders', ...S, '--scheme', 'Header']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('vx: --scheme Header needs --header-name (the header that carries the version); the version set was left as it was\n');
    expect(writes()).toEqual([]);
    // the current header name is kept when the scheme goes back to Header
    const ok = await e2e.run(['mgmt', 'version-sets', 'update', 'customers', ...S, '--scheme', 'Header']);
    expect(ok.code).toBe(0);
  });

  it('a stale ETag (412) exits 5 and changes nothing', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'update', 'orders', ...S, '--if-match', '"00000999"', '--display-name', 'X', '--scheme', 'Segment']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^vx: the version set orders was changed by someone else since its ETag was read; it was left as it was\. Read it again and retry \(HTTP 412 Precondition Failed PreconditionFailed: /);
    expect(stored('orders').properties.displayName).toBe('Orders');
    expect((await mgmtLog()).map((l) => `${l.method} ${l.status}`)).toEqual(['GET 200', 'PUT 412']);
    expect(writes()[0].ifMatch).toBe('"00000999"');
  });

  it('--if-match with one field: the set is read, the field merged, and the PUT carries the given ETag', async () => {
    const etag = (await e2e.run(['mgmt', 'version-sets', 'get', 'customers', ...S, '--verbose'])).stderr.match(/ETag: (\S+)/)![1];
    e2e.emu.reset();
    const r = await e2e.run(['mgmt', 'version-sets', 'update', 'customers', ...S, '--if-match', etag, '--description', 'x']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(writes()).toEqual([
      { method: 'PUT', path: `${base()}/customers`, ifMatch: etag, body: { properties: { displayName: 'Customers', versioningScheme: 'Header', versionHeaderName: 'Api-Version', description: 'x' } } },
    ]);
    const any = await e2e.run(['mgmt', 'version-sets', 'update', 'orders', ...S, '--if-match', '*', '--description', 'y']);
    expect(any.code).toBe(0);
    expect(stored('orders').properties).toMatchObject({ displayName: 'Orders', description: 'y' });
  });

  it('--if-match as a shell leaves "00000012" (quotes stripped) is sent as the entity tag the ETag header gave, for update and delete', async () => {
    const etag = (await e2e.run(['mgmt', 'version-sets', 'get', 'customers', ...S, '--verbose'])).stderr.match(/ETag: (\S+)/)![1];
    expect(etag).toMatch(/^"[0-9a-f]{8}"$/);
    e2e.emu.reset();
    const bare = etag.slice(1, -1);
    const r = await e2e.run(['mgmt', 'version-sets', 'update', 'customers', ...S, '--if-match', bare, '--description', 'x']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(writes()[0].ifMatch).toBe(etag);
    const now = (await e2e.run(['mgmt', 'version-sets', 'get', 'customers', ...S, '--verbose'])).stderr.match(/ETag: "(\S+)"/)![1];
    const weak = await e2e.run(['mgmt', 'version-sets', 'delete', 'customers', ...S, '--yes', '--if-match', `W/${now}`]);
    expect(weak.code).toBe(0);
    expect(writes()[1]).toMatchObject({ method: 'DELETE', ifMatch: `W/"${now}"` });
    expect(stored('customers')).toBeUndefined();
  });

  it('--header-name (--query-name) for a set whose scheme stays another is refused after the read, nothing written; with --scheme it switches', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'update', 'inventory', ...S, '--header-name', 'X-Ver']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('vx: --header-name goes with the Header scheme, and version set inventory uses Segment; add --scheme Header to switch it; the version set was left as it was\n');
    const q = await e2e.run(['mgmt', 'version-sets', 'update', 'customers', ...S, '--query-name', 'v']);
    expect(q.code).toBe(2);
    expect(q.stderr).toMatch(/^vx: --query-name goes with the Query scheme, and version set customers uses Header;/);
    expect(writes()).toEqual([]);
    // the scheme the set already has: fine
    const same = await e2e.run(['mgmt', 'version-sets', 'update', 'customers', ...S, '--header-name', 'X-Api-Version', '-o', 'json']);
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout).properties.versionHeaderName).toBe('X-Api-Version');
    const sw = await e2e.run(['mgmt', 'version-sets', 'update', 'inventory', ...S, '--scheme', 'Header', '--header-name', 'X-Ver', '-o', 'json']);
    expect(sw.code).toBe(0);
    expect(JSON.parse(sw.stdout).properties).toMatchObject({ versioningScheme: 'Header', versionHeaderName: 'X-Ver' });
  });

  it('nothing to change is a usage error; an unknown version set is exit 4', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'update', 'orders', ...S]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/nothing to change/);
    const missing = await e2e.run(['mgmt', 'version-sets', 'update', 'nosuch', ...S, '--description', 'x']);
    expect(missing.code).toBe(4);
    expect(writes()).toEqual([]);
  });
});

describe('vx mgmt version-sets delete', () => {
  it('without a terminal needs --yes (exit 2, nothing sent)', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'delete', 'orders', ...S]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Delete version set orders of service contoso-api: confirmation needed; pass --yes/);
    expect(await mgmtLog()).toEqual([]);
  });

  it('reads the ETag and deletes with If-Match', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'delete', 'orders', ...S, '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(stored('orders')).toBeUndefined();
    expect(writes()[0]).toMatchObject({ method: 'DELETE', path: `${base()}/orders`, ifMatch: expect.stringMatching(/^"[0-9a-f]{8}"$/) });
    expect((await mgmtLog()).map((l) => `${l.method} ${l.status}`)).toEqual(['GET 200', 'DELETE 200']);
  });

  it('--if-match skips the read; a stale one exits 5', async () => {
    const stale = await e2e.run(['mgmt', 'version-sets', 'delete', 'orders', ...S, '--yes', '--if-match', '"00000999"']);
    expect(stale.code).toBe(5);
    expect(stored('orders')).toBeDefined();
    const any = await e2e.run(['mgmt', 'version-sets', 'delete', 'orders', ...S, '--yes', '--if-match', '*']);
    expect(any.code).toBe(0);
    expect((await mgmtLog()).map((l) => `${l.method} ${l.status}`)).toEqual(['DELETE 412', 'DELETE 200']);
  });

  it('--dry-run shows the read and the DELETE with a placeholder', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'delete', 'orders', ...S, '--dry-run']);
    expect(r.code).toBe(0);
    const planned = json(r.stdout);
    expect(planned.map((p: any) => p.method)).toEqual(['GET', 'DELETE']);
    expect(planned[1].headers['if-match']).toBe('<ETag of a fresh GET>');
    expect(await mgmtLog()).toEqual([]);
  });
});

// at a terminal, in-process with a scripted prompter: the question comes after the read, so a
// version set that is not there is exit 4 without a question (as gh and az do)
describe('vx mgmt version-sets delete at a terminal', () => {
  function session(answer: boolean, globals: GlobalOptions = {}) {
    const { prompter, asked } = confirmingPrompter(answer);
    const stdout = tty();
    const stderr = tty();
    const env = { ...e2e.env, VX_CONFIG_DIR: e2e.configDir, NO_COLOR: '1' };
    const ctx = new Ctx({ output: 'json', ...globals }, SETTINGS, { io: { stdout: stdout as any, stderr: stderr as any, stdin: process.stdin }, signal: new AbortController().signal, prompter, env });
    return { ctx, asked, stdout, stderr };
  }
  const methods = async () => (await mgmtLog()).map((l) => `${l.method} ${l.status}`);

  it('a version set that does not exist: exit 4, no question, no DELETE (also with --if-match)', async () => {
    for (const ifMatch of [undefined, '*']) {
      e2e.emu.reset();
      const s = session(true);
      const err = await runVsDelete(s.ctx, { resourceGroup: 'web', service: 'contoso-api', ifMatch }, 'nosuch').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NotFoundError);
      expect(s.asked).toEqual([]);
      expect(await methods()).toEqual(['GET 404']);
      await s.ctx.http.close();
    }
  });

  it('asks after the read, naming the set; "no" deletes nothing; "yes" deletes with the ETag of that read', async () => {
    const no = session(false);
    await expect(runVsDelete(no.ctx, { resourceGroup: 'web', service: 'contoso-api' }, 'orders')).rejects.toThrow(UsageError);
    expect(no.asked).toEqual(['Delete version set orders (Orders) of service contoso-api?']);
    expect(await methods()).toEqual(['GET 200']);
    expect(stored('orders')).toBeDefined();
    await no.ctx.http.close();
    e2e.emu.reset();
    const yes = session(true);
    await runVsDelete(yes.ctx, { resourceGroup: 'web', service: 'contoso-api' }, 'orders');
    expect(yes.asked).toEqual(['Delete version set orders (Orders) of service contoso-api?']);
    expect(await methods()).toEqual(['GET 200', 'DELETE 200']);
    expect(yes.stderr.text).toBe('deleted version set orders\n');
    expect(stored('orders')).toBeUndefined();
    await yes.ctx.http.close();
  });

  it('--if-match at a terminal: read to name it, then the DELETE sends the given tag', async () => {
    const s = session(true);
    await runVsDelete(s.ctx, { resourceGroup: 'web', service: 'contoso-api', ifMatch: '*' }, 'orders');
    expect(s.asked).toEqual(['Delete version set orders (Orders) of service contoso-api?']);
    expect(await methods()).toEqual(['GET 200', 'DELETE 200']);
    expect(writes()[0]).toMatchObject({ method: 'DELETE', ifMatch: '*' });
    await s.ctx.http.close();
  });
});
