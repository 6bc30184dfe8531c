// `vx profile unset <key>`: a setting removed from the active profile.
import type { Ctx } from '../../core/context.js';
import { settable } from './set.js';

export async function run(ctx: Ctx, key: string): Promise<void> {
  settable(ctx, key);
  if (ctx.http.dryRun) {
    const had = ctx.config.profile()[key] !== undefined;
    ctx.dryRunNote(`${key} ${had ? 'would be removed from' : 'is not set in'} profile "${ctx.config.profileName()}"`);
    return;
  }
  const had = await ctx.config.unset(key);
  ctx.info(had ? `removed ${key} from profile "${ctx.config.profileName()}"` : `${key} was not set in profile "${ctx.config.profileName()}"`);
}
