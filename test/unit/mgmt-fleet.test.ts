// The pure parts of the fleet commands: the manifest's checks (each names the entry), --need and
// --min-headroom parsing, the report's order and threshold, the plan's decisions, what health
// watch counts as news and how it reads a corrupt state file, health check's grading, and the
// emulator's timeline of events on its clock.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planItem } from '../../src/api/mgmt/apply.js';
import { belowHeadroom, checkItems, listValues, parseHeadroom, parseNeed, percentOf, sortByHeadroom, type QuotaRow, type RowResult } from '../../src/api/mgmt/fleet.js';
import { checkManifest, parseManifestText } from '../../src/api/mgmt/manifest.js';
import { diffEvents, emptyState, gradeEvents, loadState, parseTypes, saveState, summaryLine } from '../../src/api/mgmt/watch.js';
import { UsageError } from '../../src/core/errors.js';
import { eventAt, throttleRead, TIMELINE } from '../../src/emulator/mgmt/fleet.js';
import { seedMgmt } from '../../src/emulator/mgmt/seed.js';

const SUB = '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f';

function usage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).exitCode).toBe(2);
    return (e as Error).message;
  }
  throw new Error('no usage error');
}

describe('quota apply manifest', () => {
  const entry = { subscription: SUB, provider: 'Vendor.Compute', location: 'eastus', name: 'cores', limit: 120 };

  it('takes a list or {quotas} with top-level defaults, and fills what is missing from the flags', () => {
    expect(checkManifest([entry], 'm.yaml')).toEqual([{ index: 1, ...entry, allowDecrease: false }]);
    const e = checkManifest({ provider: 'Vendor.Compute', allowDecrease: true, quotas: [{ location: 'westus2', name: 'cores', limit: 5 }] }, 'm.yaml', { subscription: SUB });
    expect(e).toEqual([{ index: 1, subscription: SUB, provider: 'Vendor.Compute', location: 'westus2', name: 'cores', limit: 5, allowDecrease: true }]);
  });

  it('names the entry and the rule, and says nothing was sent', () => {
    expect(usage(() => checkManifest([entry, { ...entry, name: 'x', limti: 3 }], 'm.yaml'))).toBe(
      'the manifest m.yaml: entry 2 (x in eastus): unknown key "limti" (allowed: subscription, provider, location, name, limit, allowDecrease); nothing was sent',
    );
    expect(usage(() => checkManifest([{ ...entry, limit: 1.5 }], 'm.yaml'))).toBe('the manifest m.yaml: entry 1 (cores in eastus): "limit" must be a whole number, not 1.5; nothing was sent');
    expect(usage(() => checkManifest([{ ...entry, limit: '10' }], 'm.yaml'))).toContain('entry 1 (cores in eastus): "limit" must be a whole number, not "10"');
    expect(usage(() => checkManifest([{ ...entry, limit: -1 }], 'm.yaml'))).toContain('entry 1 (cores in eastus): "limit" -1 is negative');
    expect(usage(() => checkManifest([{ ...entry, limit: 2 ** 31 }], 'm.yaml'))).toContain('"limit" 2147483648 is above 2147483647');
    expect(usage(() => checkManifest([entry, { ...entry, name: 'CORES', limit: 5 }], 'm.yaml'))).toBe(
      `the manifest m.yaml: entries 1 and 2 both set CORES of Vendor.Compute in eastus (subscription ${SUB}); keep one; nothing was sent`,
    );
    expect(usage(() => checkManifest([{ ...entry, location: 'east us' }], 'm.yaml'))).toContain('entry 1 (cores in east us): "location" "east us": the location must match the pattern');
    expect(usage(() => checkManifest([{ ...entry, provider: 'Compute' }], 'm.yaml'))).toContain('"provider" "Compute": the resource provider id must match the pattern');
    expect(usage(() => checkManifest([{ ...entry, provider: 'Vendor..Compute' }], 'm.yaml'))).toContain('the resource provider id must match the pattern');
    expect(usage(() => checkManifest([{ ...entry, subscription: undefined }], 'm.yaml'))).toContain('entry 1 (cores in eastus): "subscription" is missing (or at the top, or --subscription / VX_SUBSCRIPTION)');
    expect(usage(() => checkManifest({ quota: [] }, 'm.yaml'))).toContain('unknown key "quota" at the top');
    expect(usage(() => checkManifest({ quotas: [] }, 'm.yaml'))).toContain('the list of quotas is empty');
    expect(usage(() => checkManifest([{ ...entry, allowDecrease: 'yes' }], 'm.yaml'))).toContain('"allowDecrease" must be true or false');
    expect(usage(() => checkManifest(['cores'], 'm.yaml'))).toContain('entry 1 must be an object');
    // a subscription is a UUID here as in every --subscription (not a GET that ends in a 404 row)
    expect(usage(() => checkManifest([{ ...entry, subscription: 'prod-sub' }], 'm.yaml'))).toBe(
      'the manifest m.yaml: entry 1 (cores in eastus): "subscription" "prod-sub": the subscription id must be a UUID (8-4-4-4-12 hexadecimal digits); nothing was sent',
    );
    expect(usage(() => checkManifest({ subscription: 'prod-sub', quotas: [{ ...entry, subscription: undefined }] }, 'm.yaml'))).toContain('"subscription" "prod-sub": the subscription id must be a UUID');
  });

  it('reads YAML and JSON, refuses duplicate keys and syntax errors with the line', async () => {
    expect(await parseManifestText('- {name: cores, limit: 3}\n', 'm.yaml')).toEqual([{ name: 'cores', limit: 3 }]);
    expect(await parseManifestText('{"quotas":[{"name":"cores","limit":3}]}', 'm.json')).toEqual({ quotas: [{ name: 'cores', limit: 3 }] });
    await expect(parseManifestText('- name: cores\n  name: x\n', 'm.yaml')).rejects.toThrow(/^the manifest m.yaml is not valid YAML or JSON \(line 2\): Map keys must be unique/);
    await expect(parseManifestText('  \n', 'm.yaml')).rejects.toThrow('the manifest m.yaml is empty; nothing was sent');
  });
});

describe('plan', () => {
  const e = { index: 1, subscription: SUB, provider: 'Vendor.Compute', location: 'eastus', name: 'cores', limit: 100, allowDecrease: false };
  const q = (limit: number, used: number) => ({ properties: { limit, currentValue: used, unit: 'Count' } });
  it('raises, keeps a higher limit unless allowDecrease, refuses a decrease below usage', () => {
    expect(planItem(e, q(80, 10))).toMatchObject({ action: 'increase', from: 80, note: '80 -> 100 (+20)' });
    expect(planItem(e, q(100, 10))).toMatchObject({ action: 'unchanged', note: 'already 100' });
    expect(planItem(e, q(150, 10))).toMatchObject({ action: 'kept' });
    expect(planItem({ ...e, allowDecrease: true }, q(150, 10))).toMatchObject({ action: 'decrease', note: '150 -> 100 (-50)' });
    expect(planItem({ ...e, allowDecrease: true }, q(150, 120))).toMatchObject({ action: 'refused', note: '100 is below the current usage of 120; not submitted' });
  });
});

describe('report and check helpers', () => {
  const row = (name: string, limit: number, usage: number, extra: Partial<QuotaRow> = {}): RowResult => ({
    row: { subscription: SUB, provider: 'P.Q', location: 'eastus', name, limit, usage, headroom: limit - usage, percentUsed: percentOf(usage, limit), ...extra },
  });

  it('sorts failures first, then the least free share, then the least free units', () => {
    const rows = [row('a', 1000, 500), row('b', 10, 9), row('c', 100, 90), { row: { subscription: SUB, provider: 'P.Q', location: 'westus', name: '', error: 'boom' } }, row('d', 0, 0)];
    // b and c both have 10% free: b has fewer units free
    expect(sortByHeadroom(rows).map((r) => r.row.name)).toEqual(['', 'd', 'b', 'c', 'a']);
  });

  it('--min-headroom in units or percent keeps the rows below it and every failure', () => {
    expect(parseHeadroom('10%')).toEqual({ value: 10, percent: true });
    expect(parseHeadroom('20')).toEqual({ value: 20, percent: false });
    for (const bad of ['-1', '10.5', '101%', 'x', '']) expect(() => parseHeadroom(bad)).toThrow(/invalid --min-headroom/);
    expect(belowHeadroom(row('a', 100, 95).row, { value: 10, percent: true })).toBe(true);
    expect(belowHeadroom(row('a', 100, 85).row, { value: 10, percent: true })).toBe(false);
    expect(belowHeadroom(row('a', 100, 85).row, { value: 20, percent: false })).toBe(true);
    expect(belowHeadroom({ ...row('a', 100, 0).row, error: 'x' }, { value: 1, percent: false })).toBe(true);
  });

  it('--need parses quota=n[@location]; the same quota needed twice in a place is summed', () => {
    expect(parseNeed('cores=64@westus2')).toEqual({ name: 'cores', amount: 64, location: 'westus2' });
    expect(parseNeed('cores=0')).toEqual({ name: 'cores', amount: 0, location: undefined });
    expect(() => parseNeed('cores')).toThrow('invalid --need "cores": expected <quota>=<n> or <quota>=<n>@<location>');
    expect(() => parseNeed('cores=-1')).toThrow('invalid --need "cores=-1": the amount must be at least 0');
    expect(() => parseNeed('cores=1@bad loc')).toThrow(/location in --need "cores=1@bad loc" "bad loc"/);
    const items = checkItems(['s1', 's2'], 'P.Q', ['eastus', 'westus'], [parseNeed('cores=4'), parseNeed('cores=6@eastus'), parseNeed('gpu=1@westus')]);
    expect(items.map((i) => `${i.scope.subscription} ${i.scope.location} ${i.name}=${i.need}`)).toEqual([
      's1 eastus cores=10',
      's1 westus cores=4',
      's1 westus gpu=1',
      's2 eastus cores=10',
      's2 westus cores=4',
      's2 westus gpu=1',
    ]);
    expect(listValues(['a,b', ' b ', 'A', '', 'c'])).toEqual(['a', 'b', 'c']);
  });
});

describe('health watch state and news', () => {
  const ev = (name: string, status: string, lastUpdateTime: string, eventLevel = 'Error', eventType = 'ServiceIssue') => ({ name, properties: { status, lastUpdateTime, eventLevel, eventType } });
  const dir = mkdtempSync(join(tmpdir(), 'vx-watch-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports new events, then only changes of status, level or update time', () => {
    const first = diffEvents(emptyState(), [ev('A', 'Active', 't1'), ev('B', 'Active', 't1')]);
    expect(first.changes.map((c) => `${c.change} ${c.event.name}`)).toEqual(['new A', 'new B']);
    const second = diffEvents(first.next, [ev('A', 'Active', 't1'), ev('B', 'Active', 't2', 'Warning'), ev('C', 'Active', 't1')]);
    expect(second.changes.map((c) => `${c.change} ${c.event.name}`)).toEqual(['updated B', 'new C']);
    expect(second.changes[0].previous).toEqual({ status: 'Active', eventLevel: 'Error', lastUpdateTime: 't1' });
    const third = diffEvents(second.next, [ev('A', 'Resolved', 't3'), ev('C', 'Active', 't1')]);
    expect(third.changes.map((c) => `${c.change} ${c.event.name}`)).toEqual(['resolved A']);
    expect(Object.keys(third.next.events)).toEqual(['A', 'C']);
    expect(diffEvents(third.next, [ev('A', 'Active', 't4')]).changes[0].change).toBe('reactivated');
  });

  it('an event listed twice in one poll is news once', () => {
    const once = diffEvents(emptyState(), [ev('A', 'Active', 't1'), ev('B', 'Active', 't1'), ev('A', 'Active', 't1')]);
    expect(once.changes.map((c) => `${c.change} ${c.event.name}`)).toEqual(['new A', 'new B']);
    const later = diffEvents(once.next, [ev('A', 'Resolved', 't2'), ev('A', 'Resolved', 't2')]);
    expect(later.changes.map((c) => `${c.change} ${c.event.name}`)).toEqual(['resolved A']);
  });

  it('a missing state file is a first run; a corrupt one is named and left as it is', async () => {
    expect(await loadState(join(dir, 'none.json'))).toEqual(emptyState());
    const path = join(dir, 'state.json');
    await saveState(path, { version: 1, events: { A: { status: 'Active' } } });
    expect(await loadState(path)).toEqual({ version: 1, events: { A: { status: 'Active' } } });
    for (const text of ['{"version":1,"events":', '[]', '{"version":2,"events":{}}', '{"version":1,"events":{"A":{"status":3}}}']) {
      writeFileSync(path, text);
      await expect(loadState(path)).rejects.toThrow(new RegExp(`^the state file ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is corrupt \\(.*\\); it was left as it is`));
      expect(readFileSync(path, 'utf8')).toBe(text);
    }
  });

  it('--type takes the spec types case-insensitively; an unknown one is exit 2', () => {
    expect(parseTypes(['serviceissue,PlannedMaintenance', 'ServiceIssue'], '--type')).toEqual(['ServiceIssue', 'PlannedMaintenance']);
    expect(parseTypes(undefined, '--type')).toBeUndefined();
    expect(usage(() => parseTypes(['Outage'], '--type'))).toBe('invalid --type "Outage": the event types are ServiceIssue, PlannedMaintenance, HealthAdvisory, RCA, EmergingIssues, SecurityAdvisory, Billing; nothing was sent');
  });

  it('health check grades active events: critical over warning, resolved ones do not count', () => {
    const events = [ev('A', 'Active', 't', 'Error', 'ServiceIssue'), ev('B', 'Resolved', 't', 'Error', 'ServiceIssue'), ev('C', 'Active', 't', 'Warning', 'PlannedMaintenance')];
    const g = gradeEvents(events, ['ServiceIssue'], ['PlannedMaintenance']);
    expect(g.code).toBe(2);
    expect(summaryLine(g)).toBe('HEALTH CRITICAL - 1 critical (ServiceIssue: A), 1 warning (PlannedMaintenance: C) | critical=1 warning=1 active=2');
    expect(summaryLine(gradeEvents(events, ['RCA'], ['PlannedMaintenance']))).toBe('HEALTH WARNING - 1 warning (PlannedMaintenance: C) | critical=0 warning=1 active=2');
    expect(gradeEvents(events, ['RCA'], []).code).toBe(0);
  });
});

describe('emulator fleet', () => {
  it('timeline events appear, change and resolve at their minutes, with exact times', () => {
    const t = TIMELINE.find((x) => x.seed.id === 'FLT1-A01')!;
    const origin = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(eventAt(t, origin, SUB, origin + 9 * 60_000)).toBeUndefined();
    const a = eventAt(t, origin, SUB, origin + 10 * 60_000)!;
    expect(a.properties).toMatchObject({ status: 'Active', eventLevel: 'Error', impactStartTime: '2026-01-01T12:10:00Z', lastUpdateTime: '2026-01-01T12:10:00Z' });
    // the same minute polled twice is the same event (nothing for a watcher to report)
    expect(eventAt(t, origin, SUB, origin + 11 * 60_000)).toEqual({ ...a, properties: a.properties });
    const b = eventAt(t, origin, SUB, origin + 30 * 60_000)!;
    expect(b.properties).toMatchObject({ status: 'Active', eventLevel: 'Warning', lastUpdateTime: '2026-01-01T12:25:00Z' });
    const c = eventAt(t, origin, SUB, origin + 50 * 60_000)!;
    expect(c.properties).toMatchObject({ status: 'Resolved', impactMitigationTime: '2026-01-01T12:45:00Z', duration: 35 * 60 });
    expect(c.properties.impact[0].impactedRegions[0].updates).toHaveLength(3);
  });

  it('throttles reads with a token bucket when readLimit is set', () => {
    const s = seedMgmt();
    expect(throttleRead(s, 'GET', 0)).toBe(0);
    s.readLimit = { perSecond: 2, burst: 2 };
    expect([throttleRead(s, 'GET', 0), throttleRead(s, 'GET', 0), throttleRead(s, 'GET', 0), throttleRead(s, 'PATCH', 0)]).toEqual([0, 0, 1, 0]);
    expect(throttleRead(s, 'GET', 600)).toBe(0);
  });
});

describe('mapPool', () => {
  it('keeps the items order, never runs more than the concurrency, and stops starting tasks after an abort', async () => {
    const { mapPool } = await import('../../src/core/pool.js');
    let running = 0;
    let most = 0;
    const out = await mapPool([5, 1, 4, 2, 3], 2, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, n * 3));
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
    const ac = new AbortController();
    const started: number[] = [];
    await expect(
      mapPool([1, 2, 3, 4], 1, async (n) => {
        started.push(n);
        if (n === 2) ac.abort();
      }, ac.signal),
    ).rejects.toThrow('interrupted');
    expect(started).toEqual([1, 2]);
  });
});
