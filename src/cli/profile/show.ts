// `vx profile show [name]`: a profile's settings (secrets masked) and where each effective value comes from.
import { signInRows } from '../../api/auth/status.js';
import type { Ctx } from '../../core/context.js';
import { isTable } from '../../core/output/index.js';
import { redact } from '../../core/redact.js';

export async function run(ctx: Ctx, name?: string): Promise<void> {
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
