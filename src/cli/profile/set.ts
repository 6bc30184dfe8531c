// `vx profile set <key> [value]`: a setting stored in the active profile; a value not given is asked for or read from stdin.
import type { Ctx } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { readAllStdin } from '../../core/input.js';

/** `profile set|unset` of a record vx writes itself is refused, pointing at the auth command that owns it. */
export function settable(ctx: Ctx, key: string) {
  const def = ctx.config.validateKey(key);
  if (def.internal) {
    const family = key.split('.')[0];
    throw new UsageError(`${key} is a credential record that \`vx auth login\` writes, not a setting; sign in with \`vx auth login --service ${family}\`, or remove it with \`vx auth logout --service ${family}\``);
  }
  return def;
}

export async function run(ctx: Ctx, key: string, value?: string): Promise<void> {
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
