// vx erp refresh against the emulated database-refresh (lcs) API.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const e2e = useEmulator();
const json = (s: string) => JSON.parse(s);
const args = (target = 'uat-1', ...more: string[]) => ['erp', 'refresh', '--project', '1234', '--source', 'prod-1', '--target', target, ...more];
const refreshPath = (target = 'uat-1') => `/databasemovement/v1/refresh/project/1234/source/prod-1/target/${target}`;

/** Ends every running operation (as status reads that saw them complete would). */
function endOperations(): void {
  for (const o of e2e.emu.state.lcs.operations) o.completed ??= Date.now();
}

describe('erp refresh', () => {
  it('is destructive: without a terminal and without --yes it exits 2 and sends nothing', async () => {
    const r = await e2e.run(args());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/uat-1.*prod-1.*pass --yes/);
    expect(e2e.emu.count({ family: 'lcs' })).toBe(0);
  });

  it('POSTs without a body, with x-vendor-version and the bearer token, and prints the result', async () => {
    const dry = await e2e.run([...args(), '--dry-run']);
    const [req] = json(dry.stdout);
    expect(req).toMatchObject({ method: 'POST', url: `${e2e.env.VX_LCS_ENDPOINT}${refreshPath()}` });
    expect(req.headers['x-vendor-version']).toBe('2017-09-15');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toMatch(/^Bearer /);
    expect(req.headers.authorization).not.toContain('emulator-token');
    expect(req.body).toBeUndefined();
    expect(e2e.emu.count({ family: 'lcs' })).toBe(0);

    const r = await e2e.run([...args(), '--yes']);
    expect(r.code).toBe(0);
    const result = json(r.stdout);
    expect(result).toEqual({ IsSuccess: true, OperationActivityId: expect.stringMatching(/^[0-9a-f-]{36}$/), ErrorMessage: null, VersionEOL: '9999-12-31T23:59:59.9999999' });
    expect(e2e.emu.log.map((l) => `${l.method} ${l.path}`)).toEqual([`POST ${refreshPath()}`]);
    // as the service received it: the spec's three headers and no body
    const seen = e2e.emu.log[0];
    expect(seen.headers).toMatchObject({ authorization: 'Bearer emulator-token', 'x-vendor-version': '2017-09-15', 'content-type': 'application/json' });
    expect(seen.headers!['content-length'] ?? '0').toBe('0');
    expect(seen.body ?? '').toBe('');
  });

  it('IsSuccess:false (the fourth refresh in 24 hours) prints the result, shows ErrorMessage on stderr and exits 1', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await e2e.run([...args(), '-y'])).code).toBe(0);
      endOperations();
    }
    const r = await e2e.run([...args(), '-y']);
    expect(r.code).toBe(1);
    const result = json(r.stdout);
    expect(result.IsSuccess).toBe(false);
    // dbmovement-api-throttling.md: the operation that opened the window and its start, seven fractional digits, no zone
    expect(result).toEqual({ IsSuccess: false, OperationActivityId: expect.stringMatching(/^[0-9a-f-]{36}$/), ErrorMessage: expect.stringMatching(/^Maximum allowed API operations are 3 from \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}$/), VersionEOL: '9999-12-31T23:59:59.9999999' });
    expect(r.stderr).toBe(`vx: the database refresh was not started: ${result.ErrorMessage}\n`);
    expect((await e2e.run([...args('uat-2'), '-y'])).code).toBe(0);
    // the 24 hours run on the emulated clock (POST /_emulator/clock), as the other windows of the emulator do
    const advance = (advanceSeconds: number) => fetch(`${e2e.emu.url}/_emulator/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceSeconds }) });
    expect((await advance(23 * 3600)).status).toBe(200);
    expect((await e2e.run([...args(), '-y'])).code).toBe(1);
    expect((await advance(3600)).status).toBe(200);
    const later = await e2e.run([...args(), '-y']);
    expect(later.code).toBe(0);
    // and an operation's completion date is the emulated time it ended
    const id = json(later.stdout).OperationActivityId;
    for (let i = 0; i < 3; i++) await e2e.run(['erp', 'refresh', 'status', id, '--project', '1234', '--environment', 'uat-1']);
    const done = await e2e.run(['erp', 'refresh', 'status', id, '--project', '1234', '--environment', 'uat-1', '-o', 'json']);
    expect(Date.parse(`${json(done.stdout).CompletionDate.slice(0, 23)}Z`)).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);
  });

  it('a second refresh of a target while its refresh runs is refused (IsSuccess false, 200), as the environment page refuses it; once the first has ended it starts', async () => {
    const first = await e2e.run([...args(), '-y']);
    expect(first.code).toBe(0);
    const running = json(first.stdout).OperationActivityId;
    const second = await e2e.run([...args('uat-1'), '-y']);
    expect(second.code).toBe(1);
    const result = json(second.stdout);
    expect(result).toEqual({ IsSuccess: false, OperationActivityId: null, ErrorMessage: `Another operation (${running}) is in progress on the target environment uat-1; a refresh can start when it has ended.`, VersionEOL: '9999-12-31T23:59:59.9999999' });
    expect(second.stderr).toBe(`vx: the database refresh was not started: ${result.ErrorMessage}\n`);
    // another target of the project is free; the refused call started nothing and does not count towards the 3 a day
    expect((await e2e.run([...args('uat-2'), '-y'])).code).toBe(0);
    expect(e2e.emu.state.lcs.operations.map((o) => o.target)).toEqual(['uat-1', 'uat-2']);
    // the status read that sees it end frees the target
    for (let i = 0; i < 3; i++) expect((await e2e.run(['erp', 'refresh', 'status', running, '--project', '1234', '--environment', 'uat-1'])).code).toBe(0);
    expect((await e2e.run([...args(), '-y'])).code).toBe(0);
  });

  it('--wait polls the operation status until Completed, with progress under --verbose', async () => {
    const r = await e2e.run([...args(), '--yes', '--wait', '--poll-interval', '0', '--verbose']);
    expect(r.code).toBe(0);
    const id = json(r.stdout).OperationActivityId;
    expect(r.stderr).toContain(`operation ${id}: NotStarted`);
    expect(r.stderr).toContain(`operation ${id}: InProgress`);
    expect(r.stderr).toContain(`operation ${id}: Completed`);
    expect(e2e.emu.count({ family: 'lcs', method: 'GET', path: `/databasemovement/v1/fetchstatus/project/1234/environment/uat-1/operationactivity/${id}` })).toBe(3);
    expect(e2e.emu.count({ family: 'lcs', method: 'POST' })).toBe(1);
  });

  it('--wait off a terminal tells the operation and how to check it on stderr when the wait starts (a job killed during the wait has it)', async () => {
    const r = await e2e.run([...args(), '--yes', '--wait', '--poll-interval', '0']);
    expect(r.code, r.stderr).toBe(0);
    const id = json(r.stdout).OperationActivityId;
    expect(r.stderr).toBe(`database refresh of uat-1 from prod-1 started: operation ${id}\ncheck it with: vx erp refresh status ${id} --project 1234 --environment uat-1\n`);
    // without --wait the answer on stdout names it, and stderr stays quiet for scripts
    const started = await e2e.run([...args('uat-2'), '--yes']);
    expect([started.code, started.stderr]).toEqual([0, '']);
  });

  it('--wait exits 1 when the operation fails', async () => {
    const r = await e2e.run([...args('fail-uat'), '--yes', '--wait', '--poll-interval', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^vx: the database refresh of fail-uat ended as Failed: .*space/m);
    expect(json(r.stdout).IsSuccess).toBe(true);
  });

  it('401 exits 3; the lcs token falls back to the ERP token', async () => {
    const bad = await e2e.run([...args(), '-y'], { env: { VX_LCS_TOKEN: 'nope' } });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/HTTP 401/);
    const fallback = await e2e.run([...args(), '-y'], { env: { VX_LCS_TOKEN: undefined } });
    expect(fallback.code).toBe(0);
    const none = await e2e.run([...args(), '-y'], { env: { VX_LCS_TOKEN: undefined, VX_ERP_TOKEN: undefined } });
    expect(none.code).toBe(3);
    expect(e2e.emu.count({ family: 'lcs' })).toBe(2);
  });

  it('a wrong endpoint path is exit 4', async () => {
    const r = await e2e.run([...args(), '-y'], { env: { VX_LCS_ENDPOINT: `${e2e.env.VX_LCS_ENDPOINT}/nowhere` } });
    expect(r.code).toBe(4);
  });

  it('rejects bad input before sending anything', async () => {
    for (const a of [
      ['erp', 'refresh', '--project', '1', '--source', 'a', '-y'],
      ['erp', 'refresh', '--project', '1', '--source', 'a', '--target', 'a', '-y'],
      ['erp', 'refresh', '--project', '1', '--source', '5362377c-bc37-4f92-b30e-fe0c1e664cc0', '--target', '5362377C-BC37-4F92-B30E-FE0C1E664CC0', '-y'],
      [...args(), '-y', '--wait', '--poll-interval', 'soon'],
      ['erp', 'refresh', '--project', ' ', '--source', 'a', '--target', 'b', '-y'],
    ]) {
      const r = await e2e.run(a);
      expect(r.code, a.join(' ')).toBe(2);
    }
    expect(e2e.emu.count({ family: 'lcs' })).toBe(0);
  });

  it('--poll-interval or --wait-timeout without --wait is a usage error: the refresh would start and vx not wait (exit 0) while the script meant to', async () => {
    for (const [flag, v] of [['--wait-timeout', '600'], ['--poll-interval', '30']]) {
      const r = await e2e.run([...args(), '-y', flag!, v!]);
      expect([r.code, r.stdout, r.stderr], flag).toEqual([2, '', `vx: ${flag} works with --wait only (add --wait to follow the refresh); nothing was sent\n`]);
    }
    expect(e2e.emu.count({ family: 'lcs' })).toBe(0);
  });

  it('is never repeated after an ambiguous failure (exit 8), but is repeated after a 503 that did nothing', async () => {
    e2e.emu.setFaults('lcs/reset-after:1x');
    const lost = await e2e.run([...args(), '-y']);
    expect(lost.code).toBe(8);
    expect(lost.stderr).toMatch(/database refresh of uat-1 from prod-1: .*outcome is unknown/);
    expect(e2e.emu.count({ family: 'lcs', method: 'POST' })).toBe(1);
    // (the lost answer's refresh did start: a new one waits for it to end)
    endOperations();
    e2e.emu.setFaults('lcs/503:1x,retry-after:0');
    const retried = await e2e.run([...args(), '-y']);
    expect(retried.code).toBe(0);
    expect(e2e.emu.count({ family: 'lcs', method: 'POST' })).toBe(3);
  });
});

describe('erp refresh --wait: the real OperationStatus values', () => {
  it('a refresh that was rolled back (RollbackInProgress, then RollbackCompleted) ends the wait: final status on stdout, exit 1', async () => {
    const r = await e2e.run([...args('rollback-uat'), '--yes', '--wait', '--poll-interval', '0', '--wait-timeout', '60']);
    expect(r.code, r.stderr).toBe(1);
    const final = json(r.stdout);
    expect(final).toMatchObject({ IsSuccess: true, OperationStatus: 'RollbackCompleted', EnvironmentId: 'rollback-uat' });
    const id = final.OperationActivityId;
    expect(r.stderr).toBe(
      `database refresh of rollback-uat from prod-1 started: operation ${id}\ncheck it with: vx erp refresh status ${id} --project 1234 --environment rollback-uat\n` +
        `vx: the database refresh of rollback-uat ended as RollbackCompleted: ${final.ErrorMessage}\n`,
    );
    // NotStarted, InProgress, RollbackInProgress (still going), RollbackCompleted: four reads, no more
    expect(e2e.emu.count({ family: 'lcs', method: 'GET' })).toBe(4);
    const status = await e2e.run(['erp', 'refresh', 'status', final.OperationActivityId, '--project', '1234', '--environment', 'rollback-uat']);
    expect([status.code, json(status.stdout).OperationStatus]).toEqual([0, 'RollbackCompleted']);
  });
});

describe('erp refresh --wait against a status that never ends', () => {
  it('answered Retry-After: 0, reads the status no faster than a growing floor, and --wait-timeout ends the wait (exit 1, how to check it)', async () => {
    const { createServer } = await import('node:http');
    let polls = 0;
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST') return res.end(JSON.stringify({ IsSuccess: true, OperationActivityId: 'op-2', ErrorMessage: null, VersionEOL: null }));
      polls++;
      res.setHeader('retry-after', '0');
      res.end(JSON.stringify({ IsSuccess: true, OperationStatus: 'InProgress', ErrorMessage: null }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as import('node:net').AddressInfo).port;
      const r = await e2e.run([...args(), '--yes', '--wait', '--poll-interval', '0', '--wait-timeout', '3'], {
        env: { VX_LCS_ENDPOINT: `http://127.0.0.1:${port}`, VX_LCS_TOKEN: 't', VX_POLL_FLOOR_MS: undefined },
      });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        'database refresh of uat-1 from prod-1 started: operation op-2\ncheck it with: vx erp refresh status op-2 --project 1234 --environment uat-1\n' +
          'vx: the database refresh did not end within --wait-timeout 3 s (operation op-2, last seen InProgress); it goes on; check it with: vx erp refresh status op-2 --project 1234 --environment uat-1\n',
      );
      // pauses of 1, 1.5 and then what is left of the 3 s: four reads, not thousands
      expect(polls).toBeGreaterThanOrEqual(3);
      expect(polls).toBeLessThanOrEqual(4);
    } finally {
      server.close();
    }
  });

  it('a started refresh whose answer names no operation: --wait prints the start answer (it was lost) and exits 1 saying so', async () => {
    const { createServer } = await import('node:http');
    const answer = { IsSuccess: true, OperationActivityId: null, ErrorMessage: null, VersionEOL: '9999-12-31T23:59:59.9999999' };
    let gets = 0;
    const server = createServer((req, res) => {
      if (req.method !== 'POST') gets++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as import('node:net').AddressInfo).port;
      const r = await e2e.run([...args(), '--yes', '--wait'], { env: { VX_LCS_ENDPOINT: `http://127.0.0.1:${port}`, VX_LCS_TOKEN: 't' } });
      expect(r.code).toBe(1);
      expect(json(r.stdout)).toEqual(answer);
      expect(r.stderr).toBe('vx: the database refresh was started, but the answer has no OperationActivityId to follow; see the environment history of the project in the lifecycle services portal\n');
      expect(gets).toBe(0);
    } finally {
      server.close();
    }
  });

  it('--wait-timeout outside 1-86400 is a usage error, nothing sent', async () => {
    for (const v of ['0', '-5', 'soon', '86401', ' ']) {
      const r = await e2e.run([...args(), '--yes', '--wait', '--wait-timeout', v]);
      expect([r.code, r.stderr], v).toEqual([2, `vx: invalid --wait-timeout "${v}": expected seconds from 1 to 86400; nothing was sent\n`]);
    }
    expect(e2e.emu.count({ family: 'lcs' })).toBe(0);
  });
});

describe('erp refresh --wait against a status that sends Retry-After', () => {
  it('waits the Retry-After seconds between polls instead of --poll-interval', async () => {
    const { createServer } = await import('node:http');
    const seen: { method: string; url: string; time: number }[] = [];
    let polls = 0;
    const server = createServer((req, res) => {
      seen.push({ method: req.method!, url: req.url!, time: Date.now() });
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST') return res.end(JSON.stringify({ IsSuccess: true, OperationActivityId: 'op-1', ErrorMessage: null, VersionEOL: null }));
      polls++;
      if (polls === 1) res.setHeader('retry-after', '1');
      res.end(JSON.stringify({ IsSuccess: true, OperationStatus: polls < 3 ? 'InProgress' : 'Completed', ErrorMessage: null }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as import('node:net').AddressInfo).port;
      const r = await e2e.run([...args(), '--yes', '--wait', '--poll-interval', '0'], { spawn: true, env: { VX_LCS_ENDPOINT: `http://127.0.0.1:${port}`, VX_LCS_TOKEN: 't' } });
      expect(r.stderr).toBe('database refresh of uat-1 from prod-1 started: operation op-1\ncheck it with: vx erp refresh status op-1 --project 1234 --environment uat-1\n');
      expect(r.code).toBe(0);
      const status = '/databasemovement/v1/fetchstatus/project/1234/environment/uat-1/operationactivity/op-1';
      expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([`POST ${refreshPath()}`, `GET ${status}`, `GET ${status}`, `GET ${status}`]);
      expect(seen[2].time - seen[1].time).toBeGreaterThanOrEqual(950); // Retry-After: 1
      expect(seen[3].time - seen[2].time).toBeLessThan(900); // no Retry-After: --poll-interval 0
    } finally {
      server.close();
    }
  });
});
