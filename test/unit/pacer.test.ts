// The pacer's timing logic on a fake clock: nothing held back until there is something to know,
// a configured rate spaced exactly, the first 429 teaching a rate (its request waiting its Retry-After), stale 429s
// teaching nothing, and whole runs against a simulated throttling service (a token bucket, as the
// translator and the bench's server enforce) reaching >= 0.9x of its rate with few rejections.
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/core/errors.js';
import { Pacer, type Ticket } from '../../src/core/pacer.js';
import { FakeClock } from '../helpers/fake-clock.js';

/** acquires `costs` one after the other (as concurrent callers would: all asked at once) and records when each was granted */
async function grantTimes(pacer: Pacer, clock: FakeClock, costs: number[]): Promise<number[]> {
  const times: number[] = [];
  const all = Promise.all(costs.map((c) => pacer.acquire(c).then((t) => void times.push(t.at))));
  await clock.run();
  await all;
  return times;
}

/** acquires `n` tickets at once (a first volley) and hands them back */
async function grantTimes2(pacer: Pacer, clock: FakeClock, n: number): Promise<Ticket[]> {
  const all = Promise.all([...Array(n)].map(() => pacer.acquire(40_000)));
  await clock.run();
  return all;
}

/**
 * A run of `costs` requests, `concurrency` outstanding and started in order (as translate's ordered
 * window does), each taking `latency` ms, against a service refilling `rate` units a second into a
 * bucket of `bucket`; a request that does not fit is a 429 with Retry-After in whole seconds (or ms).
 */
async function simulate(o: { rate: number; bucket: number; costs: number[]; concurrency?: number; latency?: number; wholeSeconds?: boolean; perMinute?: number }) {
  const clock = new FakeClock();
  const pacer = new Pacer({ clock, perMinute: o.perMinute });
  const latency = o.latency ?? 20;
  let tokens = o.bucket;
  let last = 0;
  let rejected = 0;
  let accepted = 0;
  const service = (cost: number): number => {
    const now = clock.now();
    tokens = Math.min(o.bucket, tokens + ((now - last) / 1000) * o.rate);
    last = now;
    if (tokens >= cost) {
      tokens -= cost;
      accepted++;
      return 0;
    }
    rejected++;
    const s = (cost - tokens) / o.rate;
    return o.wholeSeconds === false ? Math.ceil(s * 1000) : Math.ceil(s) * 1000;
  };
  const send = async (cost: number) => {
    for (;;) {
      const t = await pacer.acquire(cost);
      await clock.sleep(latency / 2);
      const retryAfter = service(cost);
      await clock.sleep(latency / 2);
      if (!retryAfter) return pacer.accepted(t);
      await clock.sleep(pacer.throttled(t, retryAfter));
    }
  };
  const done = (async () => {
    const window: Promise<void>[] = [];
    for (const c of o.costs) {
      window.push(send(c));
      while (window.length >= (o.concurrency ?? 4)) await window.shift();
    }
    await Promise.all(window);
  })();
  await clock.run();
  await done;
  const total = o.costs.reduce((a, b) => a + b, 0);
  // the best any client can do: the bucket at once, the rest at the rate
  const idealMs = (Math.max(0, total - o.bucket) / o.rate) * 1000;
  return { ms: clock.now(), ofRate: idealMs / clock.now(), rejected, accepted, pacer };
}

describe('pacer', () => {
  it('holds nothing back while it knows no rate', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock });
    expect(await grantTimes(pacer, clock, [50_000, 50_000, 50_000, 50_000])).toEqual([0, 0, 0, 0]);
    expect(pacer.perMinute).toBeUndefined();
  });

  it('spaces requests exactly at a configured rate, the first at once, in the order asked', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock, perMinute: 60_000 }); // 1 unit per ms
    // each waits until what was booked before it is spent
    expect(await grantTimes(pacer, clock, [100, 300, 50, 0, 200])).toEqual([0, 100, 400, 450, 450]);
    expect(pacer.perMinute).toBe(60_000);
  });

  it('the first 429 guesses the rate from what got through: the throttled request waits its Retry-After, the others go on at that rate', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock });
    const a = await pacer.acquire(40_000);
    const b = await pacer.acquire(40_000);
    const c = await pacer.acquire(40_000);
    const d = await pacer.acquire(40_000);
    const slept = clock.sleep(100);
    await clock.run();
    await slept;
    pacer.accepted(a);
    pacer.accepted(b);
    // 80,000 accepted in 100 ms, c granted with them and not answered yet (most likely accepted),
    // d refused and told to come back in 2 s: about 160,000 per 2.1 s
    expect(pacer.throttled(d, 2000)).toBe(2000);
    const rate = 160_000 / 2100; // units per ms
    expect(pacer.perMinute).toBeCloseTo(rate * 60_000, 0);
    // the bucket is empty now: the next request goes as soon as the refill covers it, not after 2 s
    const later = pacer.acquire(1000);
    await clock.run();
    expect((await later).at).toBeCloseTo(100 + 1000 / rate, 6);
    pacer.accepted(c);
    expect(pacer.stats()).toMatchObject({ accepted: 3, rejected: 1, units: 120_000 });
  });

  it('knowing no rate, the requests sent before any answer are all answered before more go (a failure counts; one that hangs holds up at most 1 s)', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock });
    const [a, b, c, d] = await grantTimes2(pacer, clock, 4);
    await clock.run(10);
    pacer.accepted(a);
    let e: Ticket | undefined;
    const waiting = pacer.acquire(1000).then((t) => (e = t));
    await clock.run(15);
    expect(e).toBeUndefined();
    pacer.accepted(b);
    pacer.accepted(c);
    await clock.run(20);
    expect(e).toBeUndefined();
    // d failed (a network error, a 500): it goes back unlearned, and the volley is answered
    pacer.released(d);
    await clock.run(25);
    await waiting;
    expect(e!.at).toBe(20);
    // from then on nothing waits for a volley
    pacer.accepted(e!);
    const f = pacer.acquire(1);
    await clock.run();
    expect((await f).at).toBe(20);

    const clock2 = new FakeClock();
    const hung = new Pacer({ clock: clock2 });
    const [x] = await grantTimes2(hung, clock2, 2);
    hung.accepted(x);
    const next = hung.acquire(1000);
    await clock2.run();
    expect((await next).at).toBe(1000);
  });

  it('a 429 for a request granted before the last lesson teaches nothing new', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock, perMinute: 600_000 });
    const tickets: Ticket[] = [];
    const all = Promise.all([1, 2, 3].map(() => pacer.acquire(1000).then((t) => void tickets.push(t))));
    await clock.run();
    await all;
    pacer.throttled(tickets[0], 1000);
    const after = pacer.perMinute;
    expect(after).toBeLessThanOrEqual(600_000);
    pacer.throttled(tickets[1], 1000);
    pacer.throttled(tickets[2], 1000);
    expect(pacer.perMinute).toBe(after);
    expect(pacer.stats().rejected).toBe(3);
  });

  it('an aborted wait rejects with InterruptedError and does not hold up the line', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock, perMinute: 60_000 });
    await pacer.acquire(1000);
    const ac = new AbortController();
    const waiting = pacer.acquire(1000, ac.signal);
    const next = pacer.acquire(1000);
    ac.abort();
    await expect(waiting).rejects.toBeInstanceOf(InterruptedError);
    await clock.run();
    expect((await next).at).toBe(1000);
  });

  it('never goes above a configured rate, however long no 429 comes', async () => {
    const r = await simulate({ rate: 1e9, bucket: 1e9, costs: Array(200).fill(1000), perMinute: 60_000 });
    expect(r.rejected).toBe(0);
    expect(r.pacer.perMinute).toBe(60_000);
    expect(r.ms).toBeGreaterThanOrEqual(199_000);
  });

  describe('against a throttling service (150,000 units a second, a bucket of one second)', () => {
    it.each([
      ['whole-second Retry-After, 200 requests of 40,000', { costs: Array(200).fill(40_000), wholeSeconds: true }],
      ['millisecond Retry-After, 200 requests of 40,000', { costs: Array(200).fill(40_000), wholeSeconds: false }],
      ['whole-second Retry-After, 400 requests of 20,000', { costs: Array(400).fill(20_000), wholeSeconds: true }],
      ['mixed sizes', { costs: Array.from({ length: 300 }, (_, i) => 5_000 + ((i * 7919) % 45_000)), wholeSeconds: true }],
    ])('%s: >= 0.9x of the rate, rejected <= 10%% of accepted', async (_name, o) => {
      const r = await simulate({ rate: 150_000, bucket: 150_000, ...o });
      expect(r.accepted).toBe(o.costs.length);
      expect(r.ofRate).toBeGreaterThanOrEqual(0.9);
      expect(r.rejected).toBeLessThanOrEqual(0.1 * r.accepted);
      expect(r.pacer.stats().rejected).toBe(r.rejected);
    });

    it('a short run (the bench: 40 requests of 40,000): requests freed by the first answers wait for the 429 among them', async () => {
      for (const latency of [5, 20, 60]) {
        const r = await simulate({ rate: 150_000, bucket: 150_000, costs: Array(40).fill(40_000), wholeSeconds: true, latency });
        expect(r.accepted).toBe(40);
        // the 429 that teaches, and one more when the first guess is passed; none sent into the bucket the first one emptied
        expect(r.rejected).toBeLessThanOrEqual(2);
        expect(r.ofRate).toBeGreaterThanOrEqual(0.88);
      }
    });

    it('learns a per-minute limit (the free tier: 33,300 a minute) and stays under it', async () => {
      const r = await simulate({ rate: 33_300 / 60, bucket: 33_300, costs: Array(300).fill(1_000), concurrency: 4 });
      expect(r.accepted).toBe(300);
      expect(r.ofRate).toBeGreaterThanOrEqual(0.9);
      expect(r.rejected).toBeLessThanOrEqual(0.1 * r.accepted);
    });
  });
});
