// Management lists whose items or fields have another shape than the spec's (a null item, an
// `impact` that is not a list): a one-line service failure or an empty cell, never a TypeError
// surfacing as "Cannot read properties of null".
import { describe, expect, it } from 'vitest';
import { runInProc } from '../helpers/inproc.js';
import { json } from '../helpers/httpmock.js';

const SUB = '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f';
const env = { VX_MGMT_ENDPOINT: 'http://127.0.0.1:9/mgmt', VX_MGMT_TOKEN: 't', VX_SUBSCRIPTION: SUB };

describe('malformed management lists', () => {
  it('an item that is not a resource is a service failure (exit 1) naming it', async () => {
    const r = await runInProc(['mgmt', 'health', 'events', 'list', '-o', 'table'], {
      env,
      setup: (t) => t.http.stub('GET', /\/events\?/, json(200, { value: [{ name: 'A', properties: { title: 'a' } }, null] })),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^vx: the service listed an item that is not a resource: null \(in the list at http:\/\/127\.0\.0\.1:9\/mgmt\/subscriptions\/.*\/events\?api-version=2025-05-01\)\n$/);
    const v = await runInProc(['mgmt', 'version-sets', 'list', '-g', 'web', '--service', 'api', '-o', 'json'], {
      env,
      setup: (t) => t.http.stub('GET', /\/apiVersionSets\?/, json(200, { value: ['x'], count: 1, nextLink: '' })),
    });
    expect(v.code).toBe(1);
    expect(v.stderr).toMatch(/^vx: the service listed an item that is not a resource: "x"/);
  });

  it('an impact that is not a list (or holds regions of another shape) leaves the cells empty', async () => {
    const events = [
      { name: 'A', properties: { title: 'a', eventType: 'ServiceIssue', impact: {} } },
      { name: 'B', properties: { title: 'b', eventType: 'ServiceIssue', impact: [null, { impactedService: 'S', impactedRegions: 'r' }, { impactedService: 'T', impactedRegions: [null, { impactedRegion: 'R' }] }] } },
    ];
    const r = await runInProc(['mgmt', 'health', 'events', 'list', '-o', 'tsv'], { env, setup: (t) => t.http.stub('GET', /\/events\?/, json(200, { value: events })) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(rows.find((x) => x[0] === 'A')!.slice(5, 7)).toEqual(['', '']);
    expect(rows.find((x) => x[0] === 'B')!.slice(5, 7)).toEqual(['S, T', 'R']);
  });
});

describe('events details, readable view', () => {
  it('strips the tags and decodes the character references of the HTML text (R&amp;D, &nbsp;, &#39;)', async () => {
    const event = { name: 'X1', properties: { title: 't', summary: '<p>R&amp;D&nbsp;servers &lt;EU&gt; don&#39;t &#x2014; see <a href="https://x">status</a></p>', description: 'Tom &amp; Jerry &bogus;' } };
    const r = await runInProc(['mgmt', 'health', 'events', 'details', 'X1', '-o', 'table'], {
      env,
      stdoutTTY: true,
      setup: (t) => t.http.stub('POST', /\/events\/X1\/fetchEventDetails\?/, json(200, event)),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("summary      R&D servers <EU> don't — see status\n");
    expect(r.stdout).toContain('description  Tom & Jerry &bogus;\n');
  });
});
