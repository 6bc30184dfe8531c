// `vx profile use <name>`: an existing profile made the active one.
import type { Ctx } from '../../core/context.js';

export async function run(ctx: Ctx, name: string): Promise<void> {
  if (ctx.http.dryRun) {
    if (!ctx.config.profileKnown(name)) throw ctx.config.noSuchProfile(name);
    ctx.dryRunNote(`would make "${name}" the active profile`);
    return;
  }
  await ctx.config.use(name);
  ctx.info(`active profile is now "${name}"`);
  // the variable wins over the stored choice: every later command of this environment would still use it
  const fromEnv = ctx.envVar('VX_PROFILE');
  if (fromEnv && fromEnv !== name) ctx.warn(`VX_PROFILE=${fromEnv} still selects profile "${fromEnv}" in this environment; unset it to use "${name}"`);
}
