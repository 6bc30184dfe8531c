// The pure layers under the guarantees of docs/reliability.md that test/e2e/guarantees.test.ts holds end to end.
import { chmodSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { atomicFileSink } from '../../src/core/output/index.js';
import { redact } from '../../src/core/redact.js';
import { dotSegmentIn, pathSegment, segmentProblem } from '../../src/core/url.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vx-rel-unit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('3. --out temporary files: random name, O_EXCL, never through a planted link', () => {
  it('a symbolic link planted at the temporary name (the old pid name, or a drawn one) is never followed', async () => {
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, join(dir, `.out.txt.${process.pid}.tmp`));
    symlinkSync(victim, join(dir, '.out.txt.aaaa.tmp'));
    const names = ['aaaa', 'bbbb'];
    const sink = await atomicFileSink(join(dir, 'out.txt'), { randomName: () => names.shift()! });
    await sink.write('result\n');
    await sink.commit();
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe('result\n');
    expect(lstatSync(join(dir, 'out.txt')).isFile()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([`.out.txt.${process.pid}.tmp`, '.out.txt.aaaa.tmp', 'out.txt', 'victim']);
  });

  it('the temporary name is random: two sinks on one target never share it', async () => {
    const a = await atomicFileSink(join(dir, 'out.txt'));
    const b = await atomicFileSink(join(dir, 'out.txt'));
    const tmps = readdirSync(dir);
    expect(tmps).toHaveLength(2);
    for (const t of tmps) expect(t).toMatch(/^\.out\.txt\.[0-9a-f]{12}\.tmp$/);
    await a.abort();
    await b.abort();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('4. --out over an existing file keeps its mode', () => {
  for (const mode of [0o600, 0o640, 0o604]) {
    it(`a ${mode.toString(8)} file stays ${mode.toString(8)}`, async () => {
      const path = join(dir, 'secret.txt');
      writeFileSync(path, 'old\n');
      chmodSync(path, mode);
      const sink = await atomicFileSink(path);
      await sink.write('new\n');
      await sink.commit();
      expect(readFileSync(path, 'utf8')).toBe('new\n');
      expect(statSync(path).mode & 0o7777).toBe(mode);
    });
  }
});

describe('1. one path-segment builder for every family', () => {
  const refused = ['', '.', '..', '%2e', '%2E%2e', '.%2e', '%2e.', '%252e%252e', 'a/b', '/', '..%2f', 'a%2Fb', 'a%5cb', 'a\\b', '%252F', 'x\u0000', 'tab\there'];
  for (const v of refused) {
    it(`refuses ${JSON.stringify(v)} (exit 2, nothing sent)`, () => {
      expect(segmentProblem(v)).toBeDefined();
      expect(() => pathSegment(v, '--target')).toThrow(UsageError);
      expect(() => pathSegment(v, '--target')).toThrow(/^invalid --target ".*": it .*; nothing was sent$/);
    });
  }
  it('keeps what stays one segment, percent-encoded', () => {
    for (const [v, enc] of [['cores', 'cores'], ['...', '...'], ['.a', '.a'], ['a..b', 'a..b'], ['50%', '50%25'], ['%zz', '%25zz'], ['ä b', '%C3%A4%20b'], ["it's", "it's"]]) {
      expect(segmentProblem(v)).toBeUndefined();
      expect(pathSegment(v, 'x')).toBe(enc);
    }
  });
  it('finds dot segments in a whole URL (the last line of defence in core/http.ts)', () => {
    expect(dotSegmentIn('http://h/a/../b')).toBe('..');
    expect(dotSegmentIn('http://h/a/%2E%2e/b?x=1')).toBe('%2E%2e');
    expect(dotSegmentIn('http://h/a/./b')).toBe('.');
    expect(dotSegmentIn('http://h/a/b?x=../y')).toBeUndefined();
    expect(dotSegmentIn("http://h/c('..')/x")).toBeUndefined();
    expect(dotSegmentIn('http://h/...')).toBeUndefined();
  });
});

describe('14. userinfo in an endpoint URL is redacted wherever a URL is shown', () => {
  it('user:password@ and a bare token@ are hidden', () => {
    expect(redact('GET http://alice:s3cret-pass@127.0.0.1:9/erp/api failed')).toBe('GET http://***@127.0.0.1:9/erp/api failed');
    expect(redact('"url": "https://tok123@example.test/x"')).toBe('"url": "https://***@example.test/x"');
    expect(redact('mail alice@example.test at http://127.0.0.1/x')).toBe('mail alice@example.test at http://127.0.0.1/x');
  });
});

describe('9. messages for the terminal (the device-code prompt, notes, warnings, the spinner)', () => {
  it('Ctx.info / warn / verbose escape control characters; line breaks stay', async () => {
    const { Ctx } = await import('../../src/core/context.js');
    const { SETTINGS } = await import('../../src/api/settings.js');
    const { PassThrough } = await import('node:stream');
    const stderr = Object.assign(new PassThrough(), { isTTY: false });
    let text = '';
    stderr.on('data', (d) => (text += d));
    const ctx = new Ctx({ verbose: true }, SETTINGS, { io: { stdout: new PassThrough() as any, stderr: stderr as any, stdin: new PassThrough() as any }, env: { NO_COLOR: '1' } });
    const code = 'AB\u001b]0;owned\u0007CD\r\u001b[2J';
    ctx.info(`To sign in to mgmt, open http://127.0.0.1/device and enter the code ${code}`);
    ctx.warn('state \u009b31mred');
    ctx.verbose('two\nlines\u0007');
    await new Promise((r) => setImmediate(r));
    expect(text).toBe(
      'To sign in to mgmt, open http://127.0.0.1/device and enter the code AB\\u001b]0;owned\\u0007CD\\r\\u001b[2J\n' +
        'warning: state \\u009b31mred\n' +
        'two\nlines\\u0007\n',
    );
  });
});

describe('12. the polling policy (core/poll.ts pollDelay, used by quota waits and erp refresh --wait)', () => {
  it('never below a floor that grows by half per read; Retry-After and the interval above it are kept; two minutes at most', async () => {
    const { pollDelay } = await import('../../src/core/poll.js');
    expect([0, 1, 2, 3, 4].map((k) => pollDelay(k, '0', 0))).toEqual([1000, 1500, 2250, 3375, 5062.5]);
    expect([0, 1, 2, 3, 4, 5].map((k) => pollDelay(k, '5', 0))).toEqual([5000, 5000, 5000, 5000, 5062.5, 7593.75]);
    expect(pollDelay(0, undefined, 10)).toBe(10_000);
    expect(pollDelay(0, undefined, 0)).toBe(1000);
    expect(pollDelay(50, '0', 0)).toBe(120_000);
    expect(pollDelay(0, '9999', 0)).toBe(120_000);
  });
});
