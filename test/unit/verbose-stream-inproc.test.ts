// --verbose: each request's line (method, address, status, time, request id) reaches stderr when
// its answer arrives, as retry lines and --debug do; a long list, a watch and a run stopped by
// Ctrl-C keep theirs.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../helpers/fake-clock.js';
import { json } from '../helpers/httpmock.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const EVENTS = 'http://127.0.0.1:9/mgmt/subscriptions/7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f/providers/Vendor.ResourceHealth/events?api-version=2025-05-01';
const line = (url: string, id: string) => new RegExp(`^GET ${url.replace(/[.?*+()[\]\\/$^]/g, '\\$&')} -> 200 in \\d+ ms \\(request id ${id}\\)$`, 'm');

describe('--verbose streams', () => {
  it('a list of several pages: the first page is told before the second is asked for', async () => {
    const next = `${EVENTS}&$skiptoken=2`;
    let seenAtSecond = '';
    const r = await runInProc(['mgmt', 'health', 'events', 'list', '--verbose'], {
      env: offlineEnv(),
      setup: (t) => {
        t.http.stub('GET', EVENTS, json(200, { value: [], nextLink: next }, { 'x-ms-request-id': 'req-1' }));
        t.http.stub('GET', next, () => {
          seenAtSecond = t.stderr.text;
          return json(200, { value: [] }, { 'x-ms-request-id': 'req-2' });
        });
      },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(seenAtSecond).toMatch(line(EVENTS, 'req-1'));
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(2);
    expect(r.stderr).toMatch(line(next, 'req-2'));
  });

  it('health watch: each poll is told as it is answered, and kept when Ctrl-C ends the watch', async () => {
    const clock = new FakeClock();
    const stop = new AbortController();
    const seen: string[] = [];
    let polls = 0;
    let done = false;
    const running = runInProc(['mgmt', 'health', 'watch', '--poll-interval', '60', '--verbose', '-o', 'ndjson'], {
      env: offlineEnv(),
      clock,
      signal: stop.signal,
      setup: (t) => {
        t.http.stub(
          'GET',
          EVENTS,
          () => {
            seen.push(t.stderr.text);
            polls++;
            return json(200, { value: [] }, { 'x-ms-request-id': `poll-${polls}` });
          },
          2,
        );
      },
    }).finally(() => (done = true));
    while (!done) {
      // Ctrl-C while the watch waits for its third poll
      if (polls === 2) stop.abort();
      else await clock.run(clock.now() + 60_000);
      await new Promise((r) => setTimeout(r, 10));
    }
    const r = await running;
    expect(r.code, r.stderr).toBe(130);
    expect(polls).toBe(2);
    // the second poll found the first one's line already written
    expect(seen[1]).toMatch(line(EVENTS, 'poll-1'));
    expect(r.stderr).toMatch(line(EVENTS, 'poll-1'));
    expect(r.stderr).toMatch(line(EVENTS, 'poll-2'));
  });
});
