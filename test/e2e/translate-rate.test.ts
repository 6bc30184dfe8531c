// The emulator's optional character rate (`--rate translator=N`, the `rate:N` fault rule): billed
// characters (characters x targets) over the rate are answered as the real service does, 429 with
// code 429001 and a Retry-After in whole seconds; nothing is translated or billed for them.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const e2e = useEmulator({ faults: 'rate:50000' });
const HEADERS = { 'vendor-subscription-key': 'emulator-key', 'content-type': 'application/json; charset=UTF-8' };

async function post(to: string, ...texts: string[]) {
  const res = await fetch(`${e2e.env.VX_TRANSLATOR_ENDPOINT}/translate?api-version=3.0&from=en&${to}`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(texts.map((Text) => ({ Text }))),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), metered: res.headers.get('x-metered-usage'), body: await res.json() };
}

describe('emulated translator character rate', () => {
  it('answers 429001 with Retry-After once the bucket is spent, counting characters x targets', async () => {
    const first = await post('to=de&to=fr', 'a'.repeat(20_000));
    expect(first).toMatchObject({ status: 200, metered: '40000' });
    const second = await post('to=de', 'b'.repeat(30_000));
    expect(second.status).toBe(429);
    expect(second.retryAfter).toMatch(/^[1-9]\d*$/);
    expect(second.metered).toBeNull();
    expect(second.body).toEqual({ error: { code: 429001, message: 'The server rejected the request because the client has exceeded request limits.' } });
    const calls = (e2e.emu.state.translator as { calls: { billed: number }[] }).calls;
    expect(calls.map((c) => c.billed)).toEqual([40_000]);
    await new Promise((r) => setTimeout(r, Number(second.retryAfter) * 1000));
    expect((await post('to=de', 'b'.repeat(30_000))).status).toBe(200);
  });

  it('vx emulator start --rate translator=N sets the rate; a bad value is a usage error', async () => {
    const bad = await e2e.run(['emulator', 'start', '--port', '0', '--rate', 'erp=5'], { spawn: true });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('vx: invalid value "erp=5" for --rate: expected translator=<billed characters a second>, e.g. translator=555 (the free tier: 2 million an hour)\n');
    const both = await e2e.run(['emulator', 'exec', '--rate', 'translator=10', '--faults', 'rate:5', '--', 'true'], { spawn: true });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^vx: --rate and a rate:N rule in --faults both set the translator's rate: give one\n/);
    // 5 characters a second, a bucket of 50,000: "hello" fits, then 50,000 more wait about a second (and are not given up)
    const ok = await e2e.run(['emulator', 'exec', '--rate', 'translator=5', '--', 'sh', '-c', 'vx translate --to de --from en hello && vx translate --to de --from en --retries 1 --verbose "$(printf "x%.0s" $(seq 1 50000))" | wc -c'], { timeoutMs: 30_000, spawn: true });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe(`[de] ĥéļļö\n${Buffer.byteLength(`[de] ${'ẋ'.repeat(50_000)}\n`)}\n`);
    expect(ok.stderr).toMatch(/throttled \(429\): 1; limit learned: /);
  });
});
