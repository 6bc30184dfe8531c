// `vx profile delete <name>`: a profile and the credentials stored in it removed, once confirmed.
import type { Ctx } from '../../core/context.js';
import { confirmDestructive } from '../../core/prompt.js';

export async function run(ctx: Ctx, name: string): Promise<void> {
  if (!ctx.config.profileExists(name)) throw ctx.config.noSuchProfile(name, undefined, false);
  if (ctx.http.dryRun) {
    ctx.dryRunNote(`would delete profile "${name}"`);
    return;
  }
  await confirmDestructive(ctx.prompter, ctx.globals.yes, `Delete profile "${name}" and the credentials stored in it?`, 'nothing was changed');
  await ctx.config.deleteProfile(name);
  ctx.info(`deleted profile "${name}"`);
}
