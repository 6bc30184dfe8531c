// `vx emulator start`: the emulator in the foreground, the environment that points vx at it
// printed as `export` lines (and saved as a profile with --save-profile), until Ctrl-C or SIGTERM.
import { shellQuote } from '../../core/child.js';
import { PROFILE_NAME } from '../../core/config/index.js';
import type { Ctx } from '../../core/context.js';
import { ServiceError, UsageError } from '../../core/errors.js';
import { Confirmation } from '../../core/prompt.js';
import { isLoopbackHost } from '../../core/url.js';
import type { StartOptions } from './options.js';
import { noProxyFor, startServer } from './server.js';

/**
 * `--save-profile <name>` over a profile that holds a service of its own (an endpoint elsewhere
 * than this machine, a key or token other than the emulator's, a sign-in) replaced them without a
 * word: asked at a terminal, else refused without --yes, before the emulator starts. A profile an
 * emulator saved before is refreshed (the port changes from run to run).
 */
async function checkSaveProfile(ctx: Ctx, name: string): Promise<void> {
  const { DEFAULT_KEY, DEFAULT_TOKEN } = await import('../../emulator/index.js');
  const { emulatorEnv } = await import('../../model/families.js');
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
    // a profile is written also under --dry-run (the emulator runs): the question is put all the same
    await new Confirmation(ctx.prompter, { yes: ctx.globals.yes }, 'nothing was changed').ask(`Replace the settings of profile "${name}" (${own.sort().join(', ')}: a service of its own) with the emulator's?`);
  }
}

function loopbackUrl(value: string): boolean {
  try {
    return isLoopbackHost(new URL(value).hostname);
  } catch {
    return false;
  }
}

export async function run(ctx: Ctx, opts: StartOptions): Promise<void> {
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
  const proxied = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy'].some((k) => ctx.envVar(k)?.trim());
  const lines = { ...env, ...(proxied ? noProxyFor(ctx, emu.url) : {}) };
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
