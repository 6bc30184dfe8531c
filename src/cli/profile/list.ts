// `vx profile list`: the profiles of the config file, the active one marked.
import type { Ctx } from '../../core/context.js';

export async function run(ctx: Ctx): Promise<void> {
  await ctx.print(ctx.config.listProfiles(), {
    columns: [
      { header: 'name', get: 'name' },
      { header: 'active', get: (r: { active?: boolean }) => (r.active ? '*' : '') },
      { header: 'settings', get: 'settings', align: 'right' },
    ],
  });
}
