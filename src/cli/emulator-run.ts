import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { constants as osConstants, tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { passSignal, shellQuote } from '../core/child.js';
import { PROFILE_NAME } from '../core/config.js';
import type { Ctx } from '../core/context.js';
import { ServiceError, UsageError } from '../core/errors.js';
import { confirmDestructive } from '../core/prompt.js';
import { isLoopbackHost } from '../core/url.js';
import type { EmulatorOptions } from './emulator.js';


/** `--rate translator=150000` as the fault rule it stands for (`rate:150000`), joined to --faults. */
export function faultsWithRate(faults: string | undefined, rate: string | undefined): string | undefined {
  if (rate === undefined) return faults;
  const m = /^\s*translator\s*=\s*(\d+(?:\.\d+)?)\s*$/i.exec(rate);
  if (!m || !(Number(m[1]) > 0)) throw new UsageError(`invalid value "${rate}" for --rate: expected translator=<billed characters a second>, e.g. translator=555 (the free tier: 2 million an hour)`);
  if (faults !== undefined && /(^|,)\s*(translator\/)?rate:/i.test(faults)) throw new UsageError('--rate and a rate:N rule in --faults both set the translator\'s rate: give one');
  return [faults?.trim(), `rate:${m[1]}`].filter(Boolean).join(',');
}

/** a loopback address as --host gives it (any case, ::1 with or without brackets), as listen() takes it; undefined for another */
function loopbackHost(given: string): string | undefined {
  const host = given.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host === '::1') return host;
  return isIPv4(host) && host.startsWith('127.') ? host : undefined;
}

async function startServer(ctx: Ctx, opts: EmulatorOptions) {
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
  const faults = faultsWithRate(opts.faults, opts.rate);
  const { startEmulator, parseRateLimit } = await import('../emulator/index.js');
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
 * `--save-profile <name>` over a profile that holds a service of its own (an endpoint elsewhere
 * than this machine, a key or token other than the emulator's, a sign-in) replaced them without a
 * word: asked at a terminal, else refused without --yes, before the emulator starts. A profile an
 * emulator saved before is refreshed (the port changes from run to run).
 */
async function checkSaveProfile(ctx: Ctx, name: string): Promise<void> {
  const { DEFAULT_KEY, DEFAULT_TOKEN } = await import('../emulator/index.js');
  const { emulatorEnv } = await import('../model/families.js');
  const written = new Set(Object.keys(emulatorEnv('http://127.0.0.1:1', { key: DEFAULT_KEY, token: DEFAULT_TOKEN }, {})));
  const own: string[] = [];
  for (const [key, value] of Object.entries(ctx.config.profile(name))) {
    const def = ctx.config.def(key);
    if (!def || typeof value !== 'string') continue;
    if (def.internal) own.push(key);
    else if (!def.env || !written.has(def.env)) continue;
    else if (def.url && !loopbackUrl(value)) own.push(key);
    else if (def.secret && value !== DEFAULT_KEY && value !== DEFAULT_TOKEN) own.push(key);
  }
  if (own.length) {
    await confirmDestructive(ctx.prompter, ctx.globals.yes, `Replace the settings of profile "${name}" (${own.sort().join(', ')}: a service of its own) with the emulator's?`, 'nothing was changed');
  }
}

function loopbackUrl(value: string): boolean {
  try {
    return isLoopbackHost(new URL(value).hostname);
  } catch {
    return false;
  }
}

export async function start(ctx: Ctx, opts: EmulatorOptions): Promise<void> {
  ctx.noQuery('emulator start (it prints `export` lines for a shell)');
  // a name every other command refuses ("a b", "-x") was saved, and "" saved nothing, without a word
  if (opts.saveProfile !== undefined && !PROFILE_NAME.test(opts.saveProfile)) {
    throw new UsageError(`invalid --save-profile "${opts.saveProfile}": a profile name is a letter or digit followed by up to 63 letters, digits, dots, underscores or dashes`);
  }
  if (opts.saveProfile) await checkSaveProfile(ctx, opts.saveProfile);
  const emu = await startServer(ctx, opts);
  const env = emu.env();
  ctx.info(`vx emulator listening on ${emu.url} (${emu.families.map((f) => f.name).join(', ')}); Ctrl-C stops it`);
  if (opts.saveProfile) {
    // each printed variable is stored as the setting it stands for
    const values: Record<string, string> = {};
    for (const [k, v] of Object.entries(env)) {
      const def = ctx.config.settings().find((d) => d.env === k);
      if (def && v) values[def.key] = v;
    }
    await ctx.config.setMany(values, opts.saveProfile);
    ctx.info(`saved profile "${opts.saveProfile}": use it with \`vx -p ${opts.saveProfile} ...\``);
  }
  // behind a proxy, the shell that takes these lines must also reach the emulator directly
  const proxied = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy'].some((k) => process.env[k]?.trim());
  const lines = { ...env, ...(proxied ? noProxyFor(emu.url) : {}) };
  await ctx.write(Object.entries(lines).map(([k, v]) => `export ${k}=${shellQuote(v)}\n`).join(''));
  await new Promise<void>((resolveStop) => {
    const stop = () => resolveStop();
    ctx.host.onSigterm = stop;
    ctx.signal.addEventListener('abort', stop, { once: true });
  });
  await emu.close();
  ctx.info('vx emulator stopped');
  if (emu.stateError) throw new ServiceError(`${emu.stateError}; the last changes were not saved`);
}

/**
 * NO_PROXY and no_proxy with the emulator's address added: behind a company proxy the command's
 * requests (with the emulator's credentials) went in clear to the proxy, which cannot reach this
 * machine's loopback. Both spellings, as tools read either (undici, curl: the lower case first).
 */
function noProxyFor(url: string): { NO_PROXY: string; no_proxy: string } {
  // an IPv6 address both as undici matches it ([::1]) and as curl does (::1)
  const hostname = new URL(url).hostname;
  const host = hostname.startsWith('[') ? `${hostname},${hostname.slice(1, -1)}` : hostname;
  const given = (process.env.no_proxy ?? process.env.NO_PROXY)?.trim();
  // `*` (no proxy at all) stays alone: undici takes it as a wildcard only so
  const value = given === '*' ? given : given ? `${given},${host}` : host;
  return { NO_PROXY: value, no_proxy: value };
}

export async function exec(ctx: Ctx, opts: EmulatorOptions, command: string[]): Promise<void> {
  if (!command.length) throw new UsageError('name the command to run after --');
  // without `--`, the options of the command (`vx emulator exec vx erp companies list -q length(@)`)
  // are read by this vx and silently lost: the command would run without them
  const g = ctx.globals;
  const taken = [
    g.output !== undefined && '--output',
    g.query !== undefined && '--query',
    g.dryRun && '--dry-run',
    g.yes && '--yes',
    g.profile !== undefined && '--profile',
    g.debug && '--debug',
    g.verbose && '--verbose',
    g.color === false && '--no-color',
    g.timeout !== undefined && '--timeout',
    g.retries !== undefined && '--retries',
    g.pager === false && '--no-pager',
  ].filter(Boolean);
  if (taken.length) {
    throw new UsageError(`${taken.join(', ')} would be read by \`vx emulator exec\` itself, not by ${command[0]}; put the command after --: vx emulator exec -- ${command[0]} ...`);
  }
  const emu = await startServer(ctx, opts);
  // a `vx` on PATH that runs this very build
  const shimDir = mkdtempSync(join(tmpdir(), 'vx-emu-'));
  const shim = join(shimDir, 'vx');
  const [node, script] = ctx.self;
  writeFileSync(shim, `#!/bin/sh\nexec ${shellQuote(node)} ${shellQuote(resolve(script))} "$@"\n`);
  chmodSync(shim, 0o755);
  try {
    const { code, signal } = await new Promise<{ code: number; signal: NodeJS.Signals | null }>((resolveCode, reject) => {
      const child = spawn(command[0], command.slice(1), {
        stdio: 'inherit',
        env: { ...process.env, ...emu.env(), ...noProxyFor(emu.url), PATH: `${shimDir}${delimiter}${process.env.PATH ?? ''}` },
      });
      // SIGTERM (a CI runner cancelling the job), SIGHUP and SIGINT sent to vx are passed on: the
      // command ends (or cleans up) as it chooses, the emulator serves it meanwhile, and vx exits
      // with its code. A Ctrl-C at a terminal already reaches the command (the whole foreground
      // process group gets it): it is not sent a second time.
      ctx.host.forwardSignal = (sig) => passSignal(child, sig);
      child.on('error', (e) => reject(new UsageError(`cannot run ${command[0]}: ${(e as Error).message}`)));
      // a command killed by a signal: 128 + its number, as a shell says it
      child.on('exit', (c, sig) => resolveCode({ code: c ?? (sig ? 128 + (osConstants.signals[sig] ?? 0) : 1), signal: c === null ? sig : null }));
    });
    process.exitCode = code;
    if (code !== 0) {
      const { VxError } = await import('../core/errors.js');
      class ChildExit extends VxError {
        override readonly exitCode = code;
      }
      throw new ChildExit(`${command.join(' ')} ${signal ? `was killed by ${signal} (exit ${code})` : `exited with ${code}`}`);
    }
  } finally {
    ctx.host.forwardSignal = undefined;
    rmSync(shimDir, { recursive: true, force: true });
    await emu.close();
  }
  // (the command's own failure is the one said)
  if (emu.stateError) throw new ServiceError(`${emu.stateError}; the last changes were not saved`);
}
