// What `emulator start` and `exec` share: the checked options turned into a running emulator, and
// the proxy exemption of its address.
import { accessSync, constants } from 'node:fs';
import { isIPv4 } from 'node:net';
import { dirname, resolve } from 'node:path';
import type { Ctx } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { FAMILIES } from '../../model/families.js';
import type { ServerOptions } from './options.js';

/** the family whose billed characters a second the emulator can throttle (the registry's) */
const RATED = FAMILIES.find((f) => f.emulator.charRate)?.name ?? '';

/** `--rate translator=150000` as the fault rule it stands for (`rate:150000`), joined to --faults. */
export function faultsWithRate(faults: string | undefined, rate: string | undefined): string | undefined {
  if (rate === undefined) return faults;
  const m = new RegExp(`^\\s*${RATED}\\s*=\\s*(\\d+(?:\\.\\d+)?)\\s*$`, 'i').exec(rate);
  if (!m || !(Number(m[1]) > 0)) throw new UsageError(`invalid value "${rate}" for --rate: expected ${RATED}=<billed characters a second>, e.g. ${RATED}=555 (the free tier: 2 million an hour)`);
  if (faults !== undefined && new RegExp(`(^|,)\\s*(${RATED}\\/)?rate:`, 'i').test(faults)) throw new UsageError(`--rate and a rate:N rule in --faults both set the ${RATED}'s rate: give one`);
  return [faults?.trim(), `rate:${m[1]}`].filter(Boolean).join(',');
}

/** a loopback address as --host gives it (any case, ::1 with or without brackets), as listen() takes it; undefined for another */
function loopbackHost(given: string): string | undefined {
  const host = given.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host === '::1') return host;
  return isIPv4(host) && host.startsWith('127.') ? host : undefined;
}

/** --port, --host and --state checked before anything listens */
function checkedAddress(opts: ServerOptions): { port: number; host: string } {
  // digits only: Number() took "" (an unset $PORT) as 0, a random port, and 0x1f90 or 1e3 as others
  const port = /^\d{1,5}$/.test(opts.port) ? Number(opts.port) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`invalid --port "${opts.port}": expected 0-65535`);
  const host = loopbackHost(opts.host);
  if (host === undefined) throw new UsageError(`--host ${opts.host} is not a loopback address; the emulator serves loopback only (127.0.0.1, ::1, localhost)`);
  if (opts.state !== undefined) {
    // an empty "$STATE" ran without a state file, so nothing was saved, without a word
    if (!opts.state.trim()) throw new UsageError('invalid --state "": name the JSON file to load the state from and save it to');
    // checked before listening: otherwise the first change fails to be saved while the emulator runs on
    const dir = dirname(resolve(opts.state));
    try {
      accessSync(dir, constants.W_OK);
    } catch {
      throw new UsageError(`invalid --state "${opts.state}": the directory ${dir} does not exist or is not writable`);
    }
  }
  return { port, host };
}

export async function startServer(ctx: Ctx, opts: ServerOptions) {
  const { port, host } = checkedAddress(opts);
  const faults = faultsWithRate(opts.faults, opts.rate);
  const { startEmulator, parseRateLimit } = await import('../../emulator/index.js');
  if (opts.rateLimit !== undefined) {
    try {
      parseRateLimit(opts.rateLimit);
    } catch (e) {
      throw new UsageError(`--rate-limit: ${(e as Error).message}`);
    }
  }
  try {
    const onStateError = (message: string) => ctx.warn(`${message}; the changes are kept in memory until a save succeeds`);
    return await startEmulator({ port, host, statePath: opts.state ? resolve(opts.state) : undefined, faults, rateLimit: opts.rateLimit, onStateError });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE') throw new UsageError(`port ${port} is in use; pick another with --port (0 picks a free one)`);
    throw new UsageError(err.message);
  }
}

/**
 * NO_PROXY and no_proxy with the emulator's address added: behind a company proxy the command's
 * requests (with the emulator's credentials) went in clear to the proxy, which cannot reach this
 * machine's loopback. Both spellings, as tools read either (undici, curl: the lower case first).
 */
export function noProxyFor(ctx: Ctx, url: string): { NO_PROXY: string; no_proxy: string } {
  // an IPv6 address both as undici matches it ([::1]) and as curl does (::1)
  const hostname = new URL(url).hostname;
  const host = hostname.startsWith('[') ? `${hostname},${hostname.slice(1, -1)}` : hostname;
  const given = (ctx.envVar('no_proxy') ?? ctx.envVar('NO_PROXY'))?.trim();
  // `*` (no proxy at all) stays alone: undici takes it as a wildcard only so
  const value = given === '*' ? given : given ? `${given},${host}` : host;
  return { NO_PROXY: value, no_proxy: value };
}
