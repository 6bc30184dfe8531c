// `vx profile show [name]`: the effective value of every setting for the commands that use the
// profile (secrets masked) and where each comes from; the same rows in every format.
import { signInRows } from '../../api/auth/status.js';
import type { Ctx } from '../../core/context.js';
import { isTable } from '../../core/output/index.js';
import { shownValue } from '../../core/config/index.js';

export interface SettingRow {
  key: string;
  /** null: no value from anywhere */
  value: string | null;
  /** `env VX_…`, `profile`, `default`; `auth login` for a sign-in; null without a value */
  source: string | null;
}

/** The effective value of one setting for profile `name` (undefined: the one in use), as shown: a secret masked, a password in an address hidden. */
export function settingRow(ctx: Ctx, key: string, name?: string): SettingRow {
  const def = ctx.config.def(key);
  const r = ctx.config.resolveIn(name, key);
  if (!r) return { key, value: null, source: null };
  const value = shownValue(def, r.value);
  return { key, value, source: r.source === 'env' ? `env ${r.origin}` : r.source };
}

export async function run(ctx: Ctx, name?: string): Promise<void> {
  // `-p t1 profile show` and `profile show t1` are the same question
  const profile = name ?? ctx.config.profileName();
  if (!ctx.config.profileKnown(profile)) throw ctx.config.noSuchProfile(profile, undefined, false);
  // flag > env > profile > default, as a command run with this profile would resolve them; the
  // credential records `auth login` keeps are summed up (method, expiry), never shown
  const rows = ctx.config.publicSettings().map((d) => settingRow(ctx, d.key, profile));
  rows.push(...signInRows(ctx.config.showProfile(profile)));
  const active = profile === ctx.config.activeProfile();
  // keys and values are never cut (the sign-in records are one short line each, not their JSON);
  // at a narrow terminal the source is what gives way
  const columns = [
    { header: 'key', get: 'key', keep: true },
    { header: 'value', get: 'value', keep: true },
    { header: 'source', get: 'source' },
  ];
  const fmt = ctx.format();
  // the formats of rows show the rows; the others (json, yaml, ndjson, and --query) one document:
  // the profile, whether it is the active one, and the same rows
  if (!ctx.globals.query && (isTable(fmt) || fmt === 'tsv' || fmt === 'csv' || fmt === 'text')) await ctx.print(rows, { columns });
  else await ctx.print({ profile, active, settings: rows });
}
