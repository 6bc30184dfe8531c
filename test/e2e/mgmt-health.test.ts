// vx mgmt health events list|details against the emulator.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

// the emulated clock held still: every reset (one per test, and within tests) seeds the same
// times, however long the machine takes between two of them
const T0 = Date.now();
const e2e = useEmulator({ clock: () => T0 });
const json = (s: string) => JSON.parse(s);
const SUB = () => e2e.emu.state.mgmt.defaultSubscription as string;
const mgmtLog = async (): Promise<{ method: string; path: string; status: number }[]> =>
  ((await (await fetch(`${e2e.emu.url}/_emulator/requests`)).json()) as any[]).filter((e) => e.family === 'mgmt');

describe('vx mgmt health events list', () => {
  it('follows nextLink across pages and prints every event of the last 3 days as one array', async () => {
    const r = await e2e.run(['mgmt', 'health', 'events', 'list']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const list = json(r.stdout);
    expect(list).toHaveLength(9);
    expect(list.map((e: any) => e.name)).toContain('9VS6-0W8');
    expect(list.map((e: any) => e.name)).not.toContain('OLD1-2AB');
    const log = await mgmtLog();
    expect(log).toHaveLength(3);
    expect(log[0].path).toBe(`/subscriptions/${SUB()}/providers/Vendor.ResourceHealth/events?api-version=2025-05-01`);
    expect(log[1].path).toBe(`/subscriptions/${SUB()}/providers/Vendor.ResourceHealth/events?api-version=2025-05-01&$skipToken=4`);
    expect(log.every((l) => l.status === 200)).toBe(true);
  });

  it('a sensitive event is listed without its summary and description', async () => {
    const list = json((await e2e.run(['mgmt', 'health', 'events', 'list'])).stdout);
    const sensitive = list.find((e: any) => e.name === 'KTL1-8PQ');
    expect(sensitive.properties.isEventSensitive).toBe(true);
    expect(sensitive.properties.summary).toBeUndefined();
    expect(sensitive.properties.description).toBeUndefined();
  });

  it('--since is sent as queryStartTime (M/D/YYYY) and reaches older events; --top caps the total', async () => {
    const r = await e2e.run(['mgmt', 'health', 'events', 'list', '--since', '2000-01-31']);
    expect(json(r.stdout)).toHaveLength(11);
    expect((await mgmtLog())[0].path).toContain('&queryStartTime=1/31/2000');
    e2e.emu.reset();
    const top = await e2e.run(['mgmt', 'health', 'events', 'list', '--since', '30d', '--top', '5']);
    expect(json(top.stdout)).toHaveLength(5);
    expect(await mgmtLog()).toHaveLength(2);
  });

  it('--filter is sent as $filter', async () => {
    const r = await e2e.run(['mgmt', 'health', 'events', 'list', '--filter', "service eq 'Virtual Machines' or region eq 'West Europe'"]);
    expect(r.code).toBe(0);
    expect(json(r.stdout).map((e: any) => e.name).sort()).toEqual(['9VS6-0W8', 'HA7C-11L', 'KTL1-8PQ']);
    expect((await mgmtLog())[0].path).toContain('&$filter=service%20eq%20%27Virtual%20Machines%27%20or%20region%20eq%20%27West%20Europe%27');
    const bad = await e2e.run(['mgmt', 'health', 'events', 'list', '--filter', 'nosuch eq 1']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^vx: HTTP 400 Bad Request InvalidFilter: Invalid \$filter/);
  });

  it('--active keeps active events only', async () => {
    const list = json((await e2e.run(['mgmt', 'health', 'events', 'list', '--active'])).stdout);
    expect(list.length).toBe(7);
    expect(list.every((e: any) => e.properties.status === 'Active')).toBe(true);
    const top = json((await e2e.run(['mgmt', 'health', 'events', 'list', '--active', '--top', '2'])).stdout);
    expect(top).toHaveLength(2);
  });

  it('--top at a table is the n highest-priority events (every page read); in JSON the first n in the service\'s order', async () => {
    const all = json((await e2e.run(['mgmt', 'health', 'events', 'list'])).stdout);
    const highest = ['KTL1-8PQ', '9VS6-0W8'];
    expect(all.slice(0, 2).map((e: any) => e.name)).not.toEqual(highest);
    e2e.emu.reset();
    const r = await e2e.run(['mgmt', 'health', 'events', 'list', '--top', '2', '-o', 'tsv']);
    expect(r.stdout.trimEnd().split('\n').map((l) => l.split('\t')[0])).toEqual(highest);
    // tsv carries the times as the service wrote them (the table's 2026-01-01 10:05Z lost the seconds)
    const byName = new Map(all.map((e: any) => [e.name, e.properties]));
    for (const l of r.stdout.trimEnd().split('\n')) {
      const f = l.split('\t');
      const p: any = byName.get(f[0]);
      expect(f.slice(-2)).toEqual([p.impactStartTime, p.lastUpdateTime]);
      expect(f.at(-1)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
    }
    expect(await mgmtLog()).toHaveLength(3);
    const j = json((await e2e.run(['mgmt', 'health', 'events', 'list', '--top', '2'])).stdout);
    expect(j.map((e: any) => e.name)).toEqual(all.slice(0, 2).map((e: any) => e.name));
  });

  it('the table has the columns of the issue and is sorted by priority', async () => {
    const r = await e2e.run(['mgmt', 'health', 'events', 'list', '-o', 'table'], { env: { COLUMNS: '300' } });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual(['TRACKING ID', 'TITLE', 'TYPE', 'LEVEL', 'STATUS', 'SERVICES', 'REGIONS', 'START', 'LAST UPDATE']);
    const ids = lines.slice(1).map((l) => l.split(/\s+/)[0]);
    expect(ids.slice(0, 3)).toEqual(['KTL1-8PQ', '9VS6-0W8', 'SQ2L-6KD']);
    expect(ids).toHaveLength(9);
    const vm = lines.find((l) => l.startsWith('9VS6-0W8'))!;
    expect(vm).toContain('Virtual Machines');
    expect(vm).toContain('East US, East US 2');
    expect(vm).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}Z\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}Z$/);
    // json keeps the service's order
    const raw = json((await e2e.run(['mgmt', 'health', 'events', 'list'])).stdout);
    expect(raw[0].name).toBe('9VS6-0W8');
    // Events_ListBySubscriptionId.json: no subscription in the id, and no systemData
    expect(raw[0].id).toBe('/providers/Vendor.ResourceHealth/events/9VS6-0W8');
    expect(raw.some((e: any) => 'systemData' in e)).toBe(false);
  });

  it('at 80 columns the table drops type and services, cuts the title, and never cuts a tracking id or wraps', async () => {
    const r = await e2e.run(['mgmt', 'health', 'events', 'list', '-o', 'table'], { env: { COLUMNS: '80' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('TRACKING ID  TITLE                    LEVEL          STATUS    LAST UPDATE');
    expect(lines).toHaveLength(10);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(lines[2]).toMatch(/^9VS6-0W8     Virtual Machines - Eas…  Error          Active    \d{4}-\d\d-\d\d \d\d:\d\dZ$/);
  });

  it('details at 80 columns wraps the summary under VALUE instead of cutting it', async () => {
    const r = await e2e.run(['mgmt', 'health', 'events', 'details', '9VS6-0W8', '-o', 'table'], { env: { COLUMNS: '80' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    const at = lines.findIndex((l) => l.startsWith('summary '));
    expect(lines.slice(at, at + 2)).toEqual([
      // the key column is as wide as the longest field name (impactMitigationTime)
      'summary               Customers may see intermittent connection failures to',
      '                      virtual machines.',
    ]);
    expect(r.stdout).not.toContain('…');
  });

  it('--resource lists the events of one resource, with one nesting level too', async () => {
    const vm = `/subscriptions/${SUB()}/resourceGroups/web/providers/Vendor.Compute/virtualMachines/vm-web-01`;
    const r = await e2e.run(['mgmt', 'health', 'events', 'list', '--resource', vm]);
    expect(r.code).toBe(0);
    expect(json(r.stdout).map((e: any) => e.name)).toEqual(['RH01-VM1', 'RH02-VM1']);
    expect((await mgmtLog())[0].path).toBe(`${vm}/providers/Vendor.ResourceHealth/events?api-version=2025-05-01`);
    const db = `/subscriptions/${SUB()}/resourceGroups/data/providers/Vendor.Sql/servers/sql-01/databases/orders`;
    const n = await e2e.run(['mgmt', 'health', 'events', 'list', '--resource', db.slice(1), '--filter', "status eq 'Active'"]);
    expect(json(n.stdout).map((e: any) => e.name)).toEqual(['RH03-DB1']);
    expect((await mgmtLog())[1].path).toMatch(new RegExp(`^${db.replace(/[.]/g, '\\.')}/providers/Vendor\\.ResourceHealth/events\\?api-version=2025-05-01&\\$filter=status%20eq%20%27Active%27$`));
  });

  it('--subscription beside --resource may write the same GUID in another case (health events list, watch and check)', async () => {
    const vm = `/subscriptions/${SUB()}/resourceGroups/web/providers/Vendor.Compute/virtualMachines/vm-web-01`;
    const upper = SUB().toUpperCase();
    const r = await e2e.run(['mgmt', 'health', 'events', 'list', '--resource', vm, '--subscription', upper]);
    expect(r.stderr).toBe('');
    expect(json(r.stdout).map((e: any) => e.name)).toEqual(['RH01-VM1', 'RH02-VM1']);
    const w = await e2e.run(['mgmt', 'health', 'watch', '--once', '--resource', vm, '--subscription', upper, '-o', 'ndjson']);
    expect(w.code).toBe(0);
    const c = await e2e.run(['mgmt', 'health', 'check', '--resource', vm, '--subscription', upper]);
    expect(c.stdout).toMatch(/^HEALTH CRITICAL - /);
    // another subscription still refused, now by health check too (it was ignored there)
    const other = await e2e.run(['mgmt', 'health', 'check', '--resource', vm, '--subscription', '0f0e0d0c-0b0a-4909-8807-060504030201']);
    expect(other.stdout).toMatch(/^HEALTH UNKNOWN - --subscription 0f0e0d0c-0b0a-4909-8807-060504030201 differs from the subscription in --resource/);
  });

  it('--subscription picks another subscription; an unknown one is 404 (exit 4) in the flat error shape', async () => {
    const other = await e2e.run(['mgmt', 'health', 'events', 'list', '--subscription', '0f0e0d0c-0b0a-4909-8807-060504030201']);
    expect(json(other.stdout)).toEqual([]);
    const missing = await e2e.run(['mgmt', 'health', 'events', 'list', '--subscription', '0f0e0d0c-0b0a-4909-8807-0605040302ff']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/^vx: HTTP 404 Not Found SubscriptionNotFound: The subscription '0f0e0d0c-0b0a-4909-8807-0605040302ff' could not be found\. \(request id [0-9a-f-]+\)\n$/);
  });

  it('a wrong token is exit 3 and the token never shows', async () => {
    const r = await e2e.run(['mgmt', 'health', 'events', 'list'], { env: { VX_MGMT_TOKEN: 'wrong-token-123' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/HTTP 401/);
    expect(r.stderr).not.toContain('wrong-token-123');
    const none = await e2e.run(['mgmt', 'health', 'events', 'list'], { env: { VX_MGMT_TOKEN: undefined } });
    expect(none.code).toBe(3);
    expect(await mgmtLog()).toHaveLength(1);
  });
});

describe('vx mgmt health events details', () => {
  it('POSTs fetchEventDetails and prints the event with its sensitive fields', async () => {
    const r = await e2e.run(['mgmt', 'health', 'events', 'details', 'KTL1-8PQ']);
    expect(r.code).toBe(0);
    const e = json(r.stdout);
    expect(e.name).toBe('KTL1-8PQ');
    expect(e.id).toBe('/providers/Vendor.ResourceHealth/events/KTL1-8PQ');
    expect(e.properties.summary).toMatch(/storage accounts/);
    expect(e.properties.description).toContain('WE-17');
    expect(e.properties.impact[0].impactedRegions[0].updates[0].summary).toBeTruthy();
    const log = await mgmtLog();
    expect(log).toEqual([
      expect.objectContaining({ method: 'POST', path: `/subscriptions/${SUB()}/providers/Vendor.ResourceHealth/events/KTL1-8PQ/fetchEventDetails?api-version=2025-05-01`, status: 200 }),
    ]);
  });

  it('shows a readable view at a table, HTML stripped', async () => {
    const r = await e2e.run(['mgmt', 'health', 'events', 'details', 'KTL1-8PQ', '-o', 'table']);
    expect(r.stdout).toMatch(/^FIELD\s+VALUE\n/);
    expect(r.stdout).toMatch(/trackingId\s+KTL1-8PQ/);
    expect(r.stdout).toMatch(/description\s+Engineers identified a faulty storage scale unit \(stamp WE-17\) and/);
  });

  it('an unknown tracking id is exit 4', async () => {
    const r = await e2e.run(['mgmt', 'health', 'events', 'details', 'NOPE-000']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/EventNotFound/);
  });
});
