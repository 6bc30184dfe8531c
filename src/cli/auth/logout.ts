// `vx auth logout`: the stored credentials of one family or all removed from the active profile,
// and a word about any credential that still applies (a variable, the family it falls back to).
import { removeCredentials } from '../../api/auth/credentials.js';
import { credentialKey, SERVICES } from '../../api/service.js';
import type { Ctx } from '../../core/context.js';
import { credentialFallback } from '../../model/families.js';
import type { LogoutOptions } from './options.js';

export async function run(ctx: Ctx, o: LogoutOptions): Promise<void> {
  const services = o.service ? [o.service] : SERVICES;
  const removed = await removeCredentials(ctx.config, services, ctx.http.dryRun);
  const profile = ctx.config.profileName();
  const none = `no stored credentials for ${o.service ?? 'any service'} in profile "${profile}"`;
  if (!removed.length) ctx.info(ctx.http.dryRun ? `dry run: ${none}` : none);
  else if (ctx.http.dryRun) ctx.dryRunNote(`would remove the stored credentials of ${removed.join(', ')} from profile "${profile}"`);
  else ctx.info(`signed out of ${removed.join(', ')} in profile "${profile}" (stored credentials removed)`);
  for (const s of services) {
    const r = ctx.config.resolve(credentialKey(s));
    if (r?.source === 'env') ctx.warn(`${r.origin} is still set in the environment and is used for ${s}`);
    // its own credential is gone, yet one remains: the one of the family it falls back to (lcs -> erp)
    const fallback = credentialFallback(s);
    if (r?.source === 'profile' && fallback && !ctx.http.dryRun) {
      ctx.warn(`${s} still uses the ${fallback} sign-in of profile "${profile}", which it falls back to; \`vx auth logout --service ${fallback}\` removes that`);
    }
  }
}
