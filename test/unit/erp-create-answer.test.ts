// vx erp <set> create whose 2xx answer cannot be read: the record was created, or may have been.
// Exit 8 (as a lost answer) with the check command, never exit 1 "not valid JSON" that a retry
// would answer with a second record.
import { describe, expect, it } from 'vitest';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const env = offlineEnv();

describe('erp create: an answer that cannot be read', () => {
  const cases: [string, { status: number; headers: Record<string, string>; body: string }][] = [
    ['a 201 whose JSON is cut short', { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"abc","code":' }],
    ['a 200 HTML page (a proxy)', { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Welcome</body></html>' }],
    ['a 201 whose JSON is not a record', { status: 201, headers: { 'content-type': 'application/json' }, body: '"ok"' }],
  ];
  for (const [name, reply] of cases) {
    it(name, async () => {
      const r = await runInProc(['erp', 'salespeople', 'create', '--set', 'code=NEW1', '--set', 'displayName=New'], {
        env,
        setup: (t) => void t.http.stub('POST', /\/salespeoplePurchasers$/, reply),
      });
      expect(r.code).toBe(8);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^vx: create salesperson\/purchaser: created \(or may have been\), the answer could not be read \(HTTP 2\d\d, .*\); it was not repeated; check with: vx erp salespeople list --filter "code eq 'NEW1'"\n/);
      expect(r.http.requests).toHaveLength(1);
    });
  }
});
