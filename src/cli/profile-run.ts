import type { Ctx } from '../core/context.js';
import { UsageError } from '../core/errors.js';
import { confirmDestructive } from '../core/prompt.js';
import { readAllStdin } from '../core/input.js';
import { isTable } from '../core/output.js';

export async function list(ctx: Ctx): Promise<void> {
  await ctx.print(ctx.config.listProfiles(), {
    columns: [
      { header: 'name', get: 'name' },
      { header: 'active', get: (r) => (r.active ? '*' : '') },
      { header: 'settings', get: 'settings', align: 'right' },
    ],
  });
}

export async function show(ctx: Ctx, name?: string): Promise<void> {
  const profile = name ?? ctx.config.profileName();
  if (name && !ctx.config.profileExists(name)) throw ctx.config.noSuchProfile(name, undefined, false);
  const stored = ctx.config.showProfile(profile);
  const isCurrent = profile === ctx.config.profileName();
  const fmt = ctx.format();
  if (!ctx.globals.query && (isTable(fmt) || fmt === 'tsv' || fmt === 'csv' || fmt === 'text')) {
    // the effective value of every setting and where it comes from (flag > env > profile > default)
    const rows = ctx.config.settings().map((d) => {
      const r = isCurrent ? ctx.config.resolve(d.key) : stored[d.key] !== undefined ? { value: stored[d.key], source: 'profile' as const } : undefined;
      return {
        key: d.key,
        value: r ? (d.secret ? '********' : r.value) : '',
        source: r ? (r.source === 'env' ? `env ${d.env}` : r.source) : '',
      };
    });
    await ctx.print(rows, { columns: [{ header: 'key', get: 'key' }, { header: 'value', get: 'value', keep: true }, { header: 'source', get: 'source' }] });
    return;
  }
  await ctx.print({ profile, active: isCurrent, settings: stored });
}

export async function set(ctx: Ctx, key: string, value?: string): Promise<void> {
  const def = ctx.config.validateKey(key);
  if (value === undefined) {
    if (ctx.prompter.interactive) {
      value = def.secret ? await ctx.prompter.password(`${def.description}:`) : await ctx.prompter.input(`${def.description}:`);
    } else if (!ctx.io.stdin.isTTY) {
      value = (await readAllStdin(ctx.io.stdin)).replace(/\r?\n$/, '');
    }
    if (!value?.trim()) throw new UsageError(`no value given for ${key}`);
  } else if (!value.trim()) {
    // `vx profile set erp.company "$COMPANY"` with COMPANY unset: storing "" would hide the setting
    throw new UsageError(`empty value for ${key}; to remove the setting use \`vx profile unset ${key}\``);
  } else if (def.secret) {
    ctx.warn(`a secret given on the command line may be kept in your shell history; prefer \`printf %s "$SECRET" | vx profile set ${key}\``);
  }
  if (ctx.http.dryRun) {
    ctx.config.checkValue(key, value);
    ctx.dryRunNote(`would set ${key} in profile "${ctx.config.profileName()}"`);
    return;
  }
  await ctx.config.set(key, value);
  ctx.info(`set ${key} in profile "${ctx.config.profileName()}"`);
}

export async function unset(ctx: Ctx, key: string): Promise<void> {
  ctx.config.validateKey(key);
  if (ctx.http.dryRun) {
    const had = ctx.config.profile()[key] !== undefined;
    ctx.dryRunNote(`${key} ${had ? 'would be removed from' : 'is not set in'} profile "${ctx.config.profileName()}"`);
    return;
  }
  const had = await ctx.config.unset(key);
  ctx.info(had ? `removed ${key} from profile "${ctx.config.profileName()}"` : `${key} was not set in profile "${ctx.config.profileName()}"`);
}

export async function use(ctx: Ctx, name: string): Promise<void> {
  if (ctx.http.dryRun) {
    if (!ctx.config.profileExists(name)) throw ctx.config.noSuchProfile(name);
    ctx.dryRunNote(`would make "${name}" the active profile`);
    return;
  }
  await ctx.config.use(name);
  ctx.info(`active profile is now "${name}"`);
}

export async function remove(ctx: Ctx, name: string): Promise<void> {
  if (!ctx.config.profileExists(name)) throw ctx.config.noSuchProfile(name, undefined, false);
  if (ctx.http.dryRun) {
    ctx.dryRunNote(`would delete profile "${name}"`);
    return;
  }
  await confirmDestructive(ctx.prompter, ctx.globals.yes, `Delete profile "${name}" and the credentials stored in it?`, 'nothing was changed');
  await ctx.config.deleteProfile(name);
  ctx.info(`deleted profile "${name}"`);
}
