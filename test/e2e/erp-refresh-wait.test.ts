// erp refresh --wait shows signs of life, names the operation and how to check it, ends with the
// final state on stdout; `erp refresh status` reads an operation; Ctrl-C says how to follow it.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { hasPty, runOnPty } from '../helpers/pty.js';
import { withoutRequestLines } from '../helpers/vx.js';

const e2e = useEmulator();
const json = (s: string) => JSON.parse(s);
const refresh = (target: string, ...more: string[]) => ['erp', 'refresh', '--project', '1234', '--source', 'prod-1', '--target', target, '--yes', ...more];
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

describe('erp refresh status', () => {
  it('prints the operation status as returned; the options may follow the id; both are required', async () => {
    const id = json((await e2e.run(refresh('uat-1'))).stdout).OperationActivityId as string;
    const r = await e2e.run(['erp', 'refresh', 'status', id, '--project', '1234', '--environment', 'uat-1']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({ IsSuccess: true, OperationActivityId: id, EnvironmentId: 'uat-1', OperationStatus: 'NotStarted' });
    expect(e2e.emu.log.at(-1)).toMatchObject({ method: 'GET', path: `/databasemovement/v1/fetchstatus/project/1234/environment/uat-1/operationactivity/${id}` });
    const state = await e2e.run(['erp', 'refresh', 'status', id, '--project', '1234', '--environment', 'uat-1', '--query', 'OperationStatus', '-o', 'tsv']);
    expect(state.stdout).toBe('InProgress\n');
    const missing = await e2e.run(['erp', 'refresh', 'status', id, '--environment', 'uat-1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("vx: required option '--project <id>' not specified (run `vx erp refresh status --help` for usage)\n");
    const noEnv = await e2e.run(['erp', 'refresh', 'status', id, '--project', '1234']);
    expect(noEnv.stderr).toBe("vx: required option '--environment <envId>' not specified (run `vx erp refresh status --help` for usage)\n");
    // a refresh still needs its three options
    const bare = await e2e.run(['erp', 'refresh', '--project', '1234', '--source', 'a']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toBe("vx: required option '--target <envId>' not specified (run `vx erp refresh --help` for usage)\n");
  });

  it('an unknown operation: IsSuccess false is printed and exits 1', async () => {
    const r = await e2e.run(['erp', 'refresh', 'status', '00000000-0000-4000-8000-000000000000', '--project', '1234', '--environment', 'uat-1']);
    expect(r.code).toBe(1);
    expect(json(r.stdout).IsSuccess).toBe(false);
    expect(r.stderr).toMatch(/^vx: the status of operation 00000000-0000-4000-8000-000000000000 could not be read: /);
  });
});

describe('erp refresh --wait', () => {
  it('ends with the final status on stdout; --verbose names the operation, the check command and each state', async () => {
    const r = await e2e.run(refresh('uat-1', '--wait', '--poll-interval', '0', '--verbose'));
    expect(r.code).toBe(0);
    const final = json(r.stdout);
    expect(final).toMatchObject({ IsSuccess: true, OperationStatus: 'Completed', EnvironmentId: 'uat-1' });
    const id = final.OperationActivityId;
    const lines = withoutRequestLines(r.stderr).split('\n');
    expect(lines.slice(0, 5)).toEqual([
      `database refresh of uat-1 from prod-1 started: operation ${id}`,
      `check it with: vx erp refresh status ${id} --project 1234 --environment uat-1`,
      `operation ${id}: NotStarted`,
      `operation ${id}: InProgress`,
      `operation ${id}: Completed`,
    ]);
  });

  it('a failed operation: the final status on stdout, exit 1', async () => {
    const r = await e2e.run(refresh('fail-uat', '--wait', '--poll-interval', '0'));
    expect(r.code).toBe(1);
    expect(json(r.stdout).OperationStatus).toBe('Failed');
    expect(r.stderr).toMatch(/^database refresh of fail-uat from prod-1 started: operation \S+\ncheck it with: vx erp refresh status \S+ --project 1234 --environment fail-uat\nvx: the database refresh of fail-uat ended as Failed: /);
  });

  it('Ctrl-C while waiting: exit 130 naming the operation and the command that checks it', async () => {
    let child: import('node:child_process').ChildProcess | undefined;
    const running = e2e.run(refresh('uat-1', '--wait', '--poll-interval', '60', '--verbose'), { onSpawn: (c) => (child = c) });
    // wait for the first status read, then interrupt the wait between polls
    for (let i = 0; i < 200 && e2e.emu.count({ family: 'lcs', method: 'GET' }) < 1; i++) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 200));
    child!.kill('SIGINT');
    const r = await running;
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`\\nvx: interrupted; the database refresh goes on \\(operation (${UUID}), last seen NotStarted\\); check it with: vx erp refresh status \\1 --project 1234 --environment uat-1\\n$`));
  });

  it.skipIf(!hasPty)('at a terminal: a spinner with the state and the time waited, then the final line', async () => {
    const r = await runOnPty(refresh('uat-1', '--wait', '--poll-interval', '1', '-o', 'json'), { env: e2e.env });
    expect(r.code).toBe(0);
    const out = r.output;
    expect(out).toMatch(new RegExp(`database refresh of uat-1 from prod-1 started: operation ${UUID}\\r\\ncheck it with: vx erp refresh status ${UUID} --project 1234 --environment uat-1\\r\\n`));
    expect(out).toMatch(new RegExp(`\\r[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] operation ${UUID}: NotStarted \\(\\d+ s\\)`));
    expect(out).toMatch(new RegExp(`\\r[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] operation ${UUID}: InProgress \\(\\d+ s\\)`));
    expect(out).toMatch(new RegExp(`\\r\\u001b\\[Koperation ${UUID}: Completed after \\d+ s\\r\\n\\{`));
    expect(out).toContain('"OperationStatus": "Completed"');
  });
});
