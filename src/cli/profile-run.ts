import { parseSignIn } from '../api/auth/credentials.js';
import type { Ctx } from '../core/context.js';
import { UsageError } from '../core/errors.js';
import { confirmDestructive } from '../core/prompt.js';
import { readAllStdin } from '../core/input.js';
import { isTable } from '../core/output/index.js';
import { redact } from '../core/redact.js';

export async function list(ctx: Ctx): Promise<void> {
  await ctx.print(ctx.config.listProfiles(), {
    columns: [
      { header: 'name', get: 'name' },
      { header: 'active', get: (r: { active?: boolean }) => (r.active ? '*' : '') },
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
    const rows = ctx.config.publicSettings().map((d) => {
      const r = isCurrent ? ctx.config.resolve(d.key) : stored[d.key] !== undefined ? { value: stored[d.key], source: 'profile' as const } : undefined;
      return {
        key: d.key,
        value: r ? (d.secret ? '********' : d.url ? redact(r.value) : r.value) : '',
        source: r ? (r.source === 'env' ? `env ${d.env}` : r.source) : '',
      };
    });
    rows.push(...signInRows(stored));
    // keys and values are never cut (the sign-in records are one short line each, not their JSON);
    // at a narrow terminal the source is what gives way
    await ctx.print(rows, { columns: [{ header: 'key', get: 'key', keep: true }, { header: 'value', get: 'value', keep: true }, { header: 'source', get: 'source' }] });
    return;
  }
  await ctx.print({ profile, active: isCurrent, settings: stored });
}

/**
 * The credential records `vx auth login` keeps in a profile (a sign-in record, a refresh token),
 * one line per family: how it signed in, until when, and whether it can renew; never the values.
 */
function signInRows(stored: Record<string, string>): { key: string; value: string; source: string }[] {
  const rows: { key: string; value: string; source: string }[] = [];
  for (const family of new Set(Object.keys(stored).filter((k) => /\.(signIn|refreshToken)$/.test(k)).map((k) => k.split('.')[0]!))) {
    const record = parseSignIn(stored[`${family}.signIn`]);
    const parts = [record?.method ?? 'signed in'];
    const at = record?.expiresAt ? Date.parse(record.expiresAt) : NaN;
    if (Number.isFinite(at)) parts.push(`${at <= Date.now() ? 'expired' : 'until'} ${new Date(at).toISOString().slice(0, 16).replace('T', ' ')}Z`);
    if (stored[`${family}.refreshToken`] !== undefined) parts.push('renewable');
    rows.push({ key: `${family} sign-in`, value: parts.join(', '), source: 'auth login' });
  }
  return rows;
}

/** `profile set|unset` of a record vx writes itself is refused, pointing at the auth command that owns it. */
function settable(ctx: Ctx, key: string) {
  const def = ctx.config.validateKey(key);
  if (def.internal) {
    const family = key.split('.')[0];
    throw new UsageError(`${key} is a credential record that \`vx auth login\` writes, not a setting; sign in with \`vx auth login --service ${family}\`, or remove it with \`vx auth logout --service ${family}\``);
  }
  return def;
}

export async function set(ctx: Ctx, key: string, value?: string): Promise<void> {
  // `vx profile set translator.key=<key>` (az's `config set core.output=table`): said how to write
  // it, the value never shown (it is often the credential)
  const eq = key.indexOf('=');
  if (eq > 0 && value === undefined && ctx.config.publicSettings().some((d) => d.key === key.slice(0, eq))) {
    const name = key.slice(0, eq);
    throw new UsageError(`"${name}=…": give the value as its own argument: vx profile set ${name} <value> (or on standard input); nothing was stored`);
  }
  const def = settable(ctx, key);
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
  settable(ctx, key);
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
  // the variable wins over the stored choice: every later command of this environment would still use it
  const fromEnv = ctx.envVar('VX_PROFILE');
  if (fromEnv && fromEnv !== name) ctx.warn(`VX_PROFILE=${fromEnv} still selects profile "${fromEnv}" in this environment; unset it to use "${name}"`);
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
