// The claims of one run (store.ts's contract): the keys it holds while their texts are out, the
// leases renewed while it runs, and what is still held given up when it ends, so that a run that
// waits for them need not wait for the lease to run out.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type { ClaimState, MemoryStore } from './store.js';

/** how long a claim holds when its run stops renewing it (dies, hangs): another run takes it over then */
export const LEASE_MS = 30_000;

/**
 * Where this process's numbers mean something: on Linux, the kernel's boot and the process-ID
 * namespace (containers of one host name, on one host or several, each number their processes
 * anew: a number alone says nothing of another one's), else nothing (the host name alone).
 */
function processSpace(): string {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const ns = readlinkSync('/proc/self/ns/pid');
    return createHash('sha256').update(`${boot} ${ns}`).digest('hex').slice(0, 8);
  } catch {
    return '';
  }
}

let space: string | undefined;
const thisSpace = () => (space ??= processSpace());

/** A name for a run that tells where it runs (a claim names its run): host, process, a random part, and the process's space. */
export function runOwner(pid = process.pid): string {
  return `${hostname()}:${pid}:${randomBytes(4).toString('hex')}:${thisSpace()}`;
}

/**
 * Whether `owner` (a runOwner name) is a process of this machine that no longer runs: its claims
 * need not wait for their lease (a run killed with kill -9 and started again goes on at once). A
 * process of another machine (another host name, or the same one in another container or boot),
 * or one that runs (or whose number another process took since), is not: its claims hold until
 * their lease runs out.
 */
export function ownerGone(owner: string): boolean {
  const [host, pid, , where] = owner.split(':');
  if (host !== hostname() || where !== thisSpace() || !/^\d+$/.test(pid ?? '')) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export class RunClaims {
  /** the keys this run holds and has not written yet */
  private readonly held = new Set<string>();
  private timer?: NodeJS.Timeout;
  /** the renewal under way */
  private renewing?: Promise<void>;

  constructor(
    private readonly store: MemoryStore,
    readonly owner: string,
    readonly leaseMs: number,
  ) {}

  /** Claims `keys` (see store.ts; `writes` committed with them); those now held are renewed until written or given up. */
  async claim(keys: readonly string[], writes?: readonly (string | undefined)[]): Promise<ClaimState[]> {
    const states = await this.store.claim(keys, this.owner, this.leaseMs, writes);
    states.forEach((s, i) => s === 'claimed' && this.held.add(keys[i]));
    // (a lease of 0 has run out as it is taken: nothing to renew)
    if (this.held.size && !this.timer && this.leaseMs > 0) {
      // renewed three times a lease: a renewal that is late (a busy machine) still comes in time
      this.timer = setInterval(() => void this.renew(), Math.max(1, Math.floor(this.leaseMs / 3)));
      this.timer.unref();
    }
    return states;
  }

  /** The key is being written: the write ends its claim. */
  written(key: string): void {
    if (this.held.size) this.held.delete(key);
  }

  /** Gives up the claims on `keys` (texts this run will not send after all). */
  async release(keys: readonly string[]): Promise<void> {
    const mine = keys.filter((k) => this.held.delete(k));
    if (mine.length) await this.store.release(mine, this.owner);
  }

  /** how many keys it holds */
  get size(): number {
    return this.held.size;
  }

  private renew(): Promise<void> {
    if (this.renewing || !this.held.size) return this.renewing ?? Promise.resolve();
    // a renewal that fails (the store went away) leaves the leases to run out: the run goes on
    this.renewing = this.store
      .claim([...this.held], this.owner, this.leaseMs)
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  /** Stops renewing and gives up everything still held (the run ends). */
  async end(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.renewing;
    const rest = [...this.held];
    this.held.clear();
    if (rest.length) await this.store.release(rest, this.owner);
  }
}
