// vx mgmt version-sets create: the scheme rules, run in-process (test/helpers/inproc.ts): exit 2,
// the message, nothing sent (the httpmock registry has no stubs). Moved from e2e/mgmt-versionsets,
// which keeps one spawned case for the exit code of the real process.
import { describe, expect, it } from 'vitest';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const env = offlineEnv();
const S = ['--resource-group', 'web', '--service', 'contoso-api'];

describe('vx mgmt version-sets create: scheme rules', () => {
  const cases: [string[], RegExp][] = [
    [['--display-name', 'X', '--scheme', 'Header'], /--scheme Header needs --header-name/],
    [['--display-name', 'X', '--scheme', 'Query'], /--scheme Query needs --query-name/],
    [['--display-name', 'X', '--scheme', 'Segment', '--header-name', 'H'], /--header-name goes with --scheme Header, not Segment/],
    [['--display-name', 'X', '--scheme', 'Header', '--query-name', 'q', '--header-name', 'H'], /--query-name goes with --scheme Query, not Header/],
    [['--display-name', 'X', '--scheme', 'Path'], /; allowed: Segment, Query, Header \(run `vx mgmt version-sets create --help` for usage\)\n$/],
    [['--scheme', 'Segment'], /required option '--display-name <s>' not specified/],
    [['--display-name', 'X'], /required option '--scheme <scheme>' not specified/],
  ];
  for (const [args, msg] of cases) {
    it(args.join(' '), async () => {
      const r = await runInProc(['mgmt', 'version-sets', 'create', 'x1', ...S, ...args], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stderr.startsWith('vx: ')).toBe(true);
      expect(r.stdout).toBe('');
      expect(r.http.requests).toEqual([]);
    });
  }
});
