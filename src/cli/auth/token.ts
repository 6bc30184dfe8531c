// `vx auth token`: the credential of a family printed for a program to read (never to a terminal
// without --yes); with --dry-run, what would be printed and the renewal it would take.
import { isExpired, renewalMeans, storedOwner, storedSignIn, type OAuthFamily } from '../../api/auth/credentials.js';
import { credential } from '../../api/auth/authenticator.js';
import { credentialKey, type ServiceName } from '../../api/service.js';
import type { Ctx } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { credentialNoun, familyOf } from '../../model/families.js';
import type { TokenOptions } from './options.js';

export async function run(ctx: Ctx, o: TokenOptions): Promise<void> {
  ctx.noQuery('auth token (it prints the credential itself)');
  // (it prints no credential: nothing to refuse at a terminal)
  if (ctx.http.dryRun) return tokenDryRun(ctx, o.service);
  if (ctx.stdoutIsTTY && !ctx.globals.yes) {
    throw new UsageError(`refusing to print the ${o.service} ${credentialNoun(familyOf(o.service))} to a terminal; pipe it to a program, or pass --yes`);
  }
  const value = await credential(ctx.config, o.service, ctx.http);
  await ctx.write(`${value}\n`);
}

/**
 * `auth token --dry-run`: stdout gets the requests the command would send (as every --dry-run),
 * i.e. the renewal of an expired sign-in or nothing, and never the credential (a stored one may be
 * stale: the real run would renew it first); stderr says what would be printed.
 */
async function tokenDryRun(ctx: Ctx, service: ServiceName): Promise<void> {
  const what = `${service} ${credentialNoun(familyOf(service))}`;
  const r = ctx.config.resolve(credentialKey(service));
  if (!r || r.source !== 'profile') {
    if (!r) await credential(ctx.config, service, ctx.http); // throws: not configured
    ctx.info(`dry run: vx would print the ${what} from ${r?.origin ?? r?.source} (nothing to send)`);
    return;
  }
  const profile = `profile "${ctx.config.profileName()}"`;
  const owner = storedOwner(ctx.config, service);
  const record = owner && storedSignIn(ctx.config, owner);
  if (!owner || !record || !isExpired(record)) {
    ctx.info(`dry run: vx would print the ${what} stored in ${profile} (nothing to send)`);
    return;
  }
  const means = renewalMeans(ctx.config, owner, record);
  if (!means) await credential(ctx.config, service, ctx.http); // throws: expired, sign in again
  ctx.info(`dry run: the ${owner} sign-in stored in ${profile} expired at ${record.expiresAt}; vx would renew it with the request above, store the new token and print it; nothing was sent or stored`);
  const { renewNow } = await import('../../api/auth/renew.js');
  // with the dry-run door the grant's request is planned (printed on stdout) and nothing is sent or stored
  await renewNow(ctx.config, owner as OAuthFamily, means!, record, ctx.http);
}
