// The management input rules, the ranking of events, the merge of version-set fields and the
// quota helpers: pure logic.
import { describe, expect, it } from 'vitest';
import { checkCount, checkLimit, checkResourceId, checkSegment, sinceToQueryStartTime } from '../../src/api/mgmt/validate.js';
import { priorityOf, sortByPriority, impactedRegions, impactedServices, type HealthEvent } from '../../src/api/mgmt/health.js';
import { isFailure, isFinal, patchBody, requestIdOf } from '../../src/api/mgmt/quota.js';
import { mergeProperties, schemeProblem } from '../../src/api/mgmt/versionsets.js';
import { checkNewLimit } from '../../src/api/mgmt/wizard.js';
import { percentUsed } from '../../src/cli/mgmt/quota/view.js';
import { UsageError } from '../../src/core/errors.js';
import { checkInt32, checkRule, eventPriority, parseResourceId, RULES } from '../../src/model/mgmt.js';

const SUB = '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f';

describe('rules of the spec', () => {
  it('subscription of version sets: a UUID', () => {
    expect(checkRule(RULES.subscriptionUuid, SUB)).toBeUndefined();
    expect(checkRule(RULES.subscriptionUuid, SUB.toUpperCase())).toBeUndefined();
    expect(checkRule(RULES.subscriptionUuid, 'not-a-uuid')).toMatch(/UUID/);
    expect(checkRule(RULES.subscriptionUuid, `${SUB}0`)).toMatch(/UUID/);
  });

  it('subscription of events and quota: at least one character, one path segment', () => {
    expect(checkRule(RULES.subscription, 'abc')).toBeUndefined();
    expect(checkRule(RULES.subscription, '')).toMatch(/at least 1 characters/);
    expect(checkRule(RULES.subscription, 'a/b')).toMatch(/one URL path segment/);
  });

  it('resource group: 1 to 90 characters', () => {
    expect(checkRule(RULES.resourceGroup, 'a')).toBeUndefined();
    expect(checkRule(RULES.resourceGroup, 'r'.repeat(90))).toBeUndefined();
    expect(checkRule(RULES.resourceGroup, 'r'.repeat(91))).toBe('must be 1 to 90 characters long (it has 91)');
    expect(checkRule(RULES.resourceGroup, '')).toBe('must be 1 to 90 characters long (it has 0)');
    expect(checkRule(RULES.resourceGroup, 'a?b')).toMatch(/path segment/);
  });

  it('service name: pattern and 1 to 50 characters', () => {
    for (const ok of ['a', 'contoso-api', 'A1', 'x'.repeat(50)]) expect(checkRule(RULES.serviceName, ok), ok).toBeUndefined();
    expect(checkRule(RULES.serviceName, 'x'.repeat(51))).toMatch(/1 to 50/);
    for (const bad of ['1abc', 'abc-', '-abc', 'a_b', 'a.b', 'a b']) expect(checkRule(RULES.serviceName, bad), bad).toMatch(/pattern \^\[a-zA-Z\]/);
  });

  it('version set id: pattern ^[^*#&+:<>?]+$ and 1 to 80 characters, no slash', () => {
    for (const ok of ['orders', 'v1.0', 'a b', 'x'.repeat(80)]) expect(checkRule(RULES.versionSetId, ok), ok).toBeUndefined();
    expect(checkRule(RULES.versionSetId, 'x'.repeat(81))).toMatch(/1 to 80/);
    for (const bad of ['a*b', 'a#b', 'a&b', 'a+b', 'a:b', 'a<b', 'a>b', 'a?b']) expect(checkRule(RULES.versionSetId, bad), bad).toMatch(/\^\[\^\*#&\+:<>\?\]\+\$/);
    expect(checkRule(RULES.versionSetId, 'a/b')).toMatch(/path segment/);
  });

  it('display name, header and query names: 1 to 100 characters', () => {
    for (const r of [RULES.displayName, RULES.headerName, RULES.queryName]) {
      expect(checkRule(r, 'x')).toBeUndefined();
      expect(checkRule(r, 'x'.repeat(100))).toBeUndefined();
      expect(checkRule(r, 'x'.repeat(101))).toMatch(/1 to 100/);
      expect(checkRule(r, '')).toMatch(/1 to 100/);
    }
    // length counts characters, not UTF-16 units
    expect(checkRule(RULES.displayName, '😀'.repeat(100))).toBeUndefined();
  });

  it('provider, location, tracking id', () => {
    expect(checkRule(RULES.providerId, 'Vendor.Compute')).toBeUndefined();
    expect(checkRule(RULES.providerId, 'Compute')).toMatch(/dotted/);
    expect(checkRule(RULES.location, 'eastus')).toBeUndefined();
    expect(checkRule(RULES.location, 'east us')).toMatch(/pattern/);
    expect(checkRule(RULES.trackingId, '9VS6-0W8')).toBeUndefined();
    expect(checkRule(RULES.trackingId, '9VS6/0W8')).toMatch(/pattern/);
  });

  it('int32 limits', () => {
    expect(checkInt32('0')).toEqual({ value: 0 });
    expect(checkInt32('2147483647')).toEqual({ value: 2147483647 });
    expect(checkInt32('2147483648').error).toMatch(/at most 2147483647/);
    expect(checkInt32('-1').error).toMatch(/at least 0/);
    expect(checkInt32('1.5').error).toMatch(/whole number/);
    expect(checkInt32('1e3').error).toMatch(/whole number/);
    expect(checkInt32('').error).toMatch(/whole number/);
  });
});

describe('validators of the commands', () => {
  it('name the flag, the value and the rule, and say nothing was sent', () => {
    expect(() => checkSegment('serviceName', '1abc', '--service')).toThrow(UsageError);
    expect(() => checkSegment('serviceName', '1abc', '--service')).toThrow(/^invalid --service "1abc": the service name must match the pattern .*; nothing was sent$/);
    expect(() => checkSegment('resourceGroup', undefined, '--resource-group')).toThrow('--resource-group is required; nothing was sent');
    expect(checkSegment('versionSetId', 'orders', 'version set id')).toBe('orders');
  });

  it('--top >= 1, --skip >= 0, --limit a whole int32 >= 0', () => {
    expect(checkCount('--top', '1', 1)).toBe(1);
    expect(() => checkCount('--top', '0', 1)).toThrow(/--top must be at least 1/);
    expect(checkCount('--skip', '0', 0)).toBe(0);
    expect(() => checkCount('--skip', '-1', 0)).toThrow(/--skip must be at least 0/);
    expect(checkCount('--top', undefined, 1)).toBeUndefined();
    expect(checkLimit('12')).toBe(12);
    expect(() => checkLimit('2147483648')).toThrow(/a quota limit must be at most 2147483647/);
    expect(() => checkLimit('ten')).toThrow(/whole number/);
    expect(() => checkLimit(undefined)).toThrow(/--limit is required/);
  });

  it('resource ids with and without nesting', () => {
    const flat = `/subscriptions/${SUB}/resourceGroups/web/providers/Vendor.Compute/virtualMachines/vm1`;
    expect(parseResourceId(flat)).toMatchObject({ subscription: SUB, resourceGroup: 'web', provider: 'Vendor.Compute', types: [{ type: 'virtualMachines', name: 'vm1' }] });
    expect(parseResourceId(`${flat.slice(1)}/`)).toMatchObject({ types: [{ name: 'vm1' }] });
    const nested = `/subscriptions/${SUB}/resourceGroups/data/providers/Vendor.Sql/servers/s1/databases/d1`;
    expect(parseResourceId(nested)).toMatchObject({ types: [{ type: 'servers', name: 's1' }, { type: 'databases', name: 'd1' }] });
    expect(checkResourceId(nested).resourceGroup).toBe('data');
    expect(() => checkResourceId(`/subscriptions/${SUB}/resourceGroups/web`)).toThrow(/must have the form/);
    expect(() => checkResourceId(`/subscriptions/${SUB}/resourceGroups/web/providers/Vendor.Compute/a/b/c/d/e/f`)).toThrow(/must have the form/);
    expect(() => checkResourceId(`/subscriptions/${SUB}/resourceGroups/${'r'.repeat(91)}/providers/Vendor.Compute/vm/x`)).toThrow(/resource group name must be 1 to 90/);
    expect(() => checkResourceId(`/subs/${SUB}/resourceGroups/web/providers/Vendor.Compute/vm/x`)).toThrow(/must have the form/);
  });

  it('--since becomes M/D/YYYY', () => {
    const now = new Date(Date.UTC(2025, 6, 24, 12));
    expect(sinceToQueryStartTime('2025-07-01', now)).toBe('7/1/2025');
    expect(sinceToQueryStartTime('7/24/2025', now)).toBe('7/24/2025');
    expect(sinceToQueryStartTime('7d', now)).toBe('7/17/2025');
    expect(sinceToQueryStartTime('30d', now)).toBe('6/24/2025');
    for (const bad of ['2025-02-30', '13/1/2025', 'yesterday', '']) expect(() => sinceToQueryStartTime(bad, now), bad).toThrow(/invalid --since/);
  });
});

describe('events', () => {
  const ev = (name: string, p: HealthEvent['properties']): HealthEvent => ({ name, properties: p });

  it('the rank of the spec: type, then level, then status (0..23)', () => {
    expect(eventPriority({ eventType: 'ServiceIssue', eventLevel: 'Critical', status: 'Active' })).toBe(0);
    expect(eventPriority({ eventType: 'HealthAdvisory', eventLevel: 'Informational', status: 'Resolved' })).toBe(23);
    expect(eventPriority({ eventType: 'ServiceIssue', eventLevel: 'Critical', status: 'Resolved' })).toBeLessThan(eventPriority({ eventType: 'ServiceIssue', eventLevel: 'Error', status: 'Active' }));
    expect(eventPriority({ eventType: 'ServiceIssue', eventLevel: 'Informational', status: 'Resolved' })).toBeLessThan(eventPriority({ eventType: 'PlannedMaintenance', eventLevel: 'Critical', status: 'Active' }));
  });

  it('sorts by the service priority when given, else by the rank; ties by last update', () => {
    const events = [
      ev('c', { priority: 9, lastUpdateTime: '2025-07-01T00:00:00Z' }),
      ev('a', { eventType: 'ServiceIssue', eventLevel: 'Critical', status: 'Active' }),
      ev('d', { priority: 9, lastUpdateTime: '2025-07-02T00:00:00Z' }),
      ev('b', { priority: 3 }),
    ];
    expect(sortByPriority(events).map((e) => e.name)).toEqual(['a', 'b', 'd', 'c']);
    expect(priorityOf(events[1])).toBe(0);
  });

  it('lists impacted services and regions once each', () => {
    const e = ev('x', { impact: [{ impactedService: 'VM', impactedRegions: [{ impactedRegion: 'East US' }, { impactedRegion: 'West US' }] }, { impactedService: 'Disk', impactedRegions: [{ impactedRegion: 'East US' }] }] });
    expect(impactedServices(e)).toBe('VM, Disk');
    expect(impactedRegions(e)).toBe('East US, West US');
  });
});

describe('quota helpers', () => {
  const q = { properties: { limit: 100, currentValue: 42, unit: 'Count', name: { value: 'cores', localizedValue: 'vCPUs' } } };

  it('the PATCH body reuses unit and name of the current quota', () => {
    expect(patchBody(q, 'cores', 150)).toEqual({ properties: { limit: 150, unit: 'Count', name: { value: 'cores' } } });
  });

  it('the new limit of the wizard: whole, int32, not below usage, not the current limit', () => {
    expect(checkNewLimit('150', q)).toBe(true);
    expect(checkNewLimit('42', q)).toBe(true);
    expect(checkNewLimit('41', q)).toBe('the limit may not be below the current usage of 42');
    expect(checkNewLimit('100', q)).toBe('100 is the current limit; enter a different number');
    expect(checkNewLimit('1.5', q)).toBe('the limit must be a whole number');
    expect(checkNewLimit('3000000000', q)).toMatch(/at most 2147483647/);
    expect(checkNewLimit('-5', q)).toMatch(/at least 0/);
  });

  it('request ids, final and failed states, percent used', () => {
    const sc = { subscription: '00000000-0000-0000-0000-000000000000', provider: 'Vendor.Compute', location: 'eastus' };
    expect(requestIdOf({ name: 'abc', id: '/x/serviceLimitsRequests/abc' }, undefined, sc)).toBe('abc');
    expect(requestIdOf({ id: '/x/serviceLimitsRequests/def' }, undefined, sc)).toBe('def');
    // the status body (getQuotaRequestStatusById.json): bare id, name `<subscription>/<id>`
    expect(requestIdOf({ id: '2B5C8515-37D8-4B6A-879B-CD641A2CF605', name: '00000000-0000-0000-0000-000000000000/2B5C8515-37D8-4B6A-879B-CD641A2CF605' }, undefined, sc)).toBe('2B5C8515-37D8-4B6A-879B-CD641A2CF605');
    expect(() => requestIdOf({}, undefined, sc)).toThrow(/no usable request id \(null\); find the request with: vx mgmt quota requests list --provider Vendor.Compute --location eastus --subscription 0{8}-/);
    expect(['Succeeded', 'Failed', 'Invalid'].every(isFinal)).toBe(true);
    expect(isFinal('InProgress') || isFinal('Accepted')).toBe(false);
    expect(isFailure('Failed') && isFailure('Invalid') && !isFailure('Succeeded')).toBe(true);
    expect(percentUsed(q)).toBe('42%');
    expect(percentUsed({ properties: { limit: 3, currentValue: 1 } })).toBe('33.3%');
    expect(percentUsed({ properties: { limit: 0, currentValue: 0 } })).toBe('0%');
  });
});

describe('version-set merge', () => {
  it('keeps the fields the user did not touch; null removes one', () => {
    const cur = { displayName: 'Orders', versioningScheme: 'Header', versionHeaderName: 'Api-Version', description: 'old' };
    expect(mergeProperties(cur, { displayName: undefined, description: 'new' })).toEqual({ ...cur, description: 'new' });
    expect(mergeProperties(cur, { description: null })).toEqual({ displayName: 'Orders', versioningScheme: 'Header', versionHeaderName: 'Api-Version' });
    expect(cur.description).toBe('old');
  });

  it('Header needs a header name, Query a query name', () => {
    expect(schemeProblem({ versioningScheme: 'Header' })).toMatch(/--scheme Header needs --header-name/);
    expect(schemeProblem({ versioningScheme: 'Query' })).toMatch(/--scheme Query needs --query-name/);
    expect(schemeProblem({ versioningScheme: 'Query', versionQueryName: 'v' })).toBeUndefined();
    expect(schemeProblem({ versioningScheme: 'Segment' })).toBeUndefined();
  });
});

describe('links handed out by the service', () => {
  it('get the api-version when they have none', async () => {
    const { withApiVersion } = await import('../../src/api/mgmt/client.js');
    expect(withApiVersion('http://127.0.0.1/x?$skipToken=4', '2025-05-01')).toBe('http://127.0.0.1/x?$skipToken=4&api-version=2025-05-01');
    expect(withApiVersion('http://127.0.0.1/x', '2020-10-25')).toBe('http://127.0.0.1/x?api-version=2020-10-25');
    expect(withApiVersion('http://127.0.0.1/x?api-version=1', '2')).toBe('http://127.0.0.1/x?api-version=1');
  });
});
