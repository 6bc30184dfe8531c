// `vx profile delete <name>`: a profile and the credentials stored in it removed, once confirmed.
import type { Ctx } from '../../core/context.js';

export async function run(ctx: Ctx, name: string): Promise<void> {
  if (!ctx.config.profileExists(name)) throw ctx.config.noSuchProfile(name, undefined, false);
  if (ctx.http.dryRun) {
    ctx.dryRunNote(`would delete profile "${name}"`);
    return;
  }
  await ctx.confirmation('nothing was changed').ask(`Delete profile "${name}" and the credentials stored in it?`);
  await ctx.config.deleteProfile(name);
  ctx.info(`deleted profile "${name}"`);
}
