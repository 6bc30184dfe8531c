// The input rules of the management commands, run in-process (test/helpers/inproc.ts): the whole
// command line parsed by buildProgram, exit 2, one line naming the rule, nothing sent (the
// httpmock registry has no stubs: any request would fail the test). Moved from
// e2e/mgmt-validation, which keeps one spawned case for the exit code end to end.
import { describe, expect, it } from 'vitest';
import { runInProc } from '../helpers/inproc.js';

const SUB = '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f';
const ENV = { VX_MGMT_ENDPOINT: 'http://127.0.0.1:9/mgmt', VX_MGMT_TOKEN: 'test-token', VX_SUBSCRIPTION: SUB };
const Q = ['--provider', 'Vendor.Compute', '--location', 'eastus'];
const S = ['--resource-group', 'web', '--service', 'contoso-api'];
const VM = `/subscriptions/${SUB}/resourceGroups/web/providers/Vendor.Compute/virtualMachines/vm1`;

const CASES: [string, string[], RegExp][] = [
  // subscription: a UUID for version sets, a non-empty segment elsewhere
  ['version sets: subscription UUID', ['mgmt', 'version-sets', 'list', ...S, '--subscription', 'abc'], /^vx: invalid subscription id from --subscription "abc": the subscription id must be a UUID/],
  ['version sets: subscription UUID from the environment', ['mgmt', 'version-sets', 'get', 'orders', ...S], /^vx: invalid subscription id from VX_SUBSCRIPTION \(--subscription\) "not-a-uuid": the subscription id must be a UUID/],
  // every mgmt command checks the subscription as a GUID before sending (the specs of events and quota say only "a string")
  ['events: subscription UUID', ['mgmt', 'health', 'events', 'list', '--subscription', 'abc'], /^vx: invalid subscription id from --subscription "abc": the subscription id must be a UUID/],
  ['events: subscription is one segment', ['mgmt', 'health', 'events', 'list', '--subscription', 'a/b'], /the subscription id must be a UUID/],
  ['quota: subscription UUID', ['mgmt', 'quota', 'get', 'cores', ...Q, '--subscription', 'a?b'], /the subscription id must be a UUID/],
  ['quota requests: subscription UUID', ['mgmt', 'quota', 'requests', 'list', ...Q, '--subscription', 'sub-1'], /the subscription id must be a UUID/],
  ['events --resource: its subscription UUID', ['mgmt', 'health', 'events', 'list', '--resource', '/subscriptions/abc/resourceGroups/web/providers/Vendor.Compute/virtualMachines/vm-1'], /^vx: invalid --resource ".*": its subscription id must be a UUID/],
  // resource group 1-90
  ['resource group too long', ['mgmt', 'version-sets', 'list', '--resource-group', 'r'.repeat(91), '--service', 'contoso-api'], /^vx: invalid --resource-group "r+…": the resource group name must be 1 to 90 characters long \(it has 91\); nothing was sent\n$/],
  ['resource group empty', ['mgmt', 'version-sets', 'list', '--resource-group', '', '--service', 'contoso-api'], /the resource group name must be 1 to 90 characters long \(it has 0\)/],
  // service name pattern and 1-50
  ['service name pattern', ['mgmt', 'version-sets', 'list', '--resource-group', 'web', '--service', '1api'], /^vx: invalid --service "1api": the service name must match the pattern \^\[a-zA-Z\]\(\?:\[a-zA-Z0-9-\]\*\[a-zA-Z0-9\]\)\?\$ \(letters, digits and hyphens, starting with a letter and not ending with a hyphen\); nothing was sent\n$/],
  ['service name ends with a hyphen', ['mgmt', 'version-sets', 'get', 'orders', '--resource-group', 'web', '--service', 'api-'], /the service name must match the pattern/],
  ['service name too long', ['mgmt', 'version-sets', 'list', '--resource-group', 'web', '--service', `a${'b'.repeat(50)}`], /the service name must be 1 to 50 characters long \(it has 51\)/],
  // version set id pattern and 1-80
  ['version set id pattern', ['mgmt', 'version-sets', 'get', 'a*b', ...S], /^vx: invalid version set id "a\*b": the version set id must match the pattern \^\[\^\*#&\+:<>\?\]\+\$ \(none of \* # & \+ : < > \?\); nothing was sent\n$/],
  ['version set id with a colon (create)', ['mgmt', 'version-sets', 'create', 'v:1', ...S, '--display-name', 'X', '--scheme', 'Segment'], /the version set id must match the pattern/],
  ['version set id too long (update)', ['mgmt', 'version-sets', 'update', 'v'.repeat(81), ...S, '--description', 'x'], /the version set id must be 1 to 80 characters long \(it has 81\)/],
  ['version set id with a slash (delete)', ['mgmt', 'version-sets', 'delete', 'a/b', ...S, '--yes'], /the version set id must fit in one URL path segment/],
  // displayName, header and query names 1-100
  ['display name too long', ['mgmt', 'version-sets', 'create', 'x1', ...S, '--display-name', 'd'.repeat(101), '--scheme', 'Segment'], /^vx: invalid --display-name "d+…": the display name must be 1 to 100 characters long \(it has 101\); nothing was sent\n$/],
  ['display name empty', ['mgmt', 'version-sets', 'update', 'orders', ...S, '--display-name', ''], /the display name must be 1 to 100 characters long \(it has 0\)/],
  ['header name too long', ['mgmt', 'version-sets', 'create', 'x1', ...S, '--display-name', 'X', '--scheme', 'Header', '--header-name', 'h'.repeat(101)], /the version header name must be 1 to 100 characters long/],
  ['query name empty', ['mgmt', 'version-sets', 'create', 'x1', ...S, '--display-name', 'X', '--scheme', 'Query', '--query-name', ''], /the version query parameter name must be 1 to 100 characters long \(it has 0\)/],
  // --top >= 1, --skip >= 0
  ['--top 0 (version sets)', ['mgmt', 'version-sets', 'list', ...S, '--top', '0'], /^vx: invalid --top "0": --top must be at least 1; nothing was sent\n$/],
  ['--top not a number (requests)', ['mgmt', 'quota', 'requests', 'list', ...Q, '--top', 'ten'], /invalid --top "ten": --top must be a whole number/],
  ['--top 0 (events)', ['mgmt', 'health', 'events', 'list', '--top', '0'], /--top must be at least 1/],
  ['--skip -1', ['mgmt', 'version-sets', 'list', ...S, '--skip', '-1'], /^vx: invalid --skip "-1": --skip must be at least 0; nothing was sent\n$/],
  ['--skip 1.5', ['mgmt', 'version-sets', 'list', ...S, '--skip', '1.5'], /--skip must be a whole number/],
  // limit: a whole int32 >= 0
  ['limit above int32', ['mgmt', 'quota', 'set', 'cores', ...Q, '--limit', '2147483648', '--yes'], /^vx: invalid --limit "2147483648": a quota limit must be at most 2147483647 \(a 32-bit integer\); nothing was sent\n$/],
  ['limit negative', ['mgmt', 'quota', 'set', 'cores', ...Q, '--limit', '-1', '--yes'], /a quota limit must be at least 0/],
  ['limit fraction', ['mgmt', 'quota', 'set', 'cores', ...Q, '--limit', '1.5', '--yes'], /a quota limit must be a whole number/],
  ['limit missing', ['mgmt', 'quota', 'set', 'cores', ...Q, '--yes'], /--limit is required; nothing was sent/],
  // quota path segments
  ['provider id', ['mgmt', 'quota', 'get', 'cores', '--provider', 'Compute', '--location', 'eastus'], /^vx: invalid --provider "Compute": the resource provider id must match the pattern .* \(dotted names such as Vendor\.Compute\); nothing was sent\n$/],
  ['location', ['mgmt', 'quota', 'requests', 'list', '--provider', 'Vendor.Compute', '--location', 'east us'], /invalid --location "east us": the location must match the pattern/],
  ['quota resource name', ['mgmt', 'quota', 'get', 'a/b', ...Q], /invalid quota resource name "a\/b": the quota resource name must fit in one URL path segment/],
  ['quota request id', ['mgmt', 'quota', 'requests', 'get', 'x#y', ...Q], /invalid quota request id "x#y": the quota request id must fit in one URL path segment/],
  ['poll interval', ['mgmt', 'quota', 'set', 'cores', ...Q, '--limit', '5', '--poll-interval', 'soon'], /invalid --poll-interval "soon"/],
  // events
  ['tracking id', ['mgmt', 'health', 'events', 'details', 'a b'], /^vx: invalid tracking id "a b": the tracking id must match the pattern/],
  ['resource id shape', ['mgmt', 'health', 'events', 'list', '--resource', '/subscriptions/x/resourceGroups/web'], /^vx: invalid --resource "\/subscriptions\/x\/resourceGroups\/web": a resource id must have the form \/subscriptions\/<id>\/resourceGroups\/<group>\/providers\/<provider>\/<type>\/<name>/],
  ['resource id with two nesting levels', ['mgmt', 'health', 'events', 'list', '--resource', `${VM}/a/b/c/d`], /a resource id must have the form/],
  ['resource id resource group', ['mgmt', 'health', 'events', 'list', '--resource', `/subscriptions/${SUB}/resourceGroups/${'g'.repeat(91)}/providers/Vendor.Compute/vm/x`], /resource group name must be 1 to 90 characters/],
  ['--since with --resource', ['mgmt', 'health', 'events', 'list', '--resource', VM, '--since', '7d'], /--since works with the subscription list only/],
  ['--subscription differing from --resource', ['mgmt', 'health', 'events', 'list', '--resource', VM, '--subscription', '0f0e0d0c-0b0a-4909-8807-060504030201'], /differs from the subscription in --resource/],
  ['--since not a date', ['mgmt', 'health', 'events', 'list', '--since', '2025-02-30'], /^vx: invalid --since "2025-02-30": expected a date as YYYY-MM-DD or M\/D\/YYYY, or a number of days back such as 7d; nothing was sent\n$/],
  ['empty --filter', ['mgmt', 'health', 'events', 'list', '--filter', ' '], /--filter may not be empty/],
  ['unknown option', ['mgmt', 'quota', 'get', 'cores', ...Q, '--limitt', '3'], /unknown option '--limitt'/],
];

describe('input rules: exit 2, the rule named, nothing sent', () => {
  for (const [name, args, message] of CASES) {
    it(name, async () => {
      const r = await runInProc(args, { env: name.includes('from the environment') ? { ...ENV, VX_SUBSCRIPTION: 'not-a-uuid' } : ENV });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
      expect(r.http.requests).toEqual([]);
    });
  }

  it('no subscription configured is a usage error naming how to set it', async () => {
    const { VX_SUBSCRIPTION: _, ...env } = ENV;
    const r = await runInProc(['mgmt', 'health', 'events', 'list'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('vx: the subscription id (--subscription) is not set: set VX_SUBSCRIPTION or run `vx profile set mgmt.subscription <value>`\n');
    expect(r.http.requests).toEqual([]);
  });
});
