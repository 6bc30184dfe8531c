// `vx auth login`: choose the way to sign in from the flags (api/auth/sign-in.ts), talk to the
// person on stderr, and hand the obtained credential to api/auth for storage in the active profile.
import { authority, type Authority } from '../../api/auth/authority.js';
import { authorizeUrl, CALLBACK_PATH } from '../../api/auth/browser.js';
import { saveCredential, type OAuthFamily, type Obtained, type SignInMethod } from '../../api/auth/credentials.js';
import { browserFlow, checkClientCredentials, chooseFlow, deviceCodeFlow, openBrowser, parseWait, platformBrowser } from '../../api/auth/sign-in.js';
import { checkBeforeStoring, verifyCredential } from '../../api/auth/verify.js';
import { credentialKey, endpointKey, SERVICES, type ServiceName } from '../../api/service.js';
import type { Ctx } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { addSecret } from '../../core/redact.js';
import { FAMILIES, familyOf } from '../../model/families.js';
import type { LoginOptions } from './options.js';
import { clientSecret, secretFromStdin, subscriptionKey } from './secret.js';

const HOW: Record<SignInMethod, string> = { key: 'subscription key', browser: 'browser sign-in', 'device-code': 'device code', 'client-credentials': 'client credentials', token: 'token' };

async function chooseService(ctx: Ctx, given: ServiceName | undefined): Promise<ServiceName> {
  if (given) return given;
  if (!ctx.prompter.interactive) throw new UsageError(`--service is required without a terminal (${SERVICES.slice(0, -1).join(', ')} or ${SERVICES[SERVICES.length - 1]})`);
  return ctx.prompter.select<ServiceName>(
    'Sign in to which service?',
    FAMILIES.map((f) => ({ name: f.title, value: f.name })),
  );
}

/** The way asked for, unless it is the browser and no browser can be shown here. */
async function settleFlow(ctx: Ctx, service: ServiceName, o: LoginOptions): Promise<SignInMethod> {
  const flow = chooseFlow(service, o);
  if (flow !== 'browser' || o.browser === false || ctx.http.dryRun || ctx.config.get('auth.browser') || platformBrowser(process.platform, ctx.env)) return flow;
  // at a terminal where no browser can be opened (an SSH session) and none was chosen or refused:
  // the browser sign-in returns to 127.0.0.1 here, which a browser elsewhere cannot reach
  if (ctx.prompter.interactive) {
    const code = await ctx.prompter.confirm('No browser can be opened on this machine (an SSH session?). Sign in with a code on another device instead?', true);
    return code ? 'device-code' : flow;
  }
  // no terminal either (a CI job that forgot its flags): the address would go to a log nobody reads
  // while vx waits --wait seconds (300 by default) for nothing
  throw new UsageError(
    `no terminal and no browser here to sign in to ${service} with: in CI use --client-credentials (or --with-token); to sign in from another machine use --device-code, or --no-browser to print the address; nothing was sent`,
  );
}

/** The credential, obtained the chosen way; undefined when --dry-run only planned the browser sign-in. */
async function obtain(ctx: Ctx, service: ServiceName, flow: SignInMethod, o: LoginOptions, waitMs: number): Promise<{ got: Obtained; auth?: Authority } | undefined> {
  if (flow === 'key') return { got: { accessToken: await subscriptionKey(ctx, service, o.withKey) } };
  if (flow === 'token') return { got: { accessToken: await secretFromStdin(ctx, 'token', '--with-token') } };
  const family = service as OAuthFamily;
  const auth = authority(ctx.config, family, { clientId: o.clientId, tenant: o.tenant, scope: o.scope });
  const talk = { waitMs, signal: ctx.signal, say: (line: string) => ctx.info(line) };
  if (flow === 'browser') {
    if (ctx.http.dryRun) {
      ctx.http.plan({ method: 'GET', url: authorizeUrl(auth, `http://127.0.0.1:<port>${CALLBACK_PATH}`, '<state>') });
      return undefined;
    }
    const open = (url: string) => o.browser !== false && openBrowser(url, ctx.config.get('auth.browser'), ctx.env, talk.say);
    return { got: await browserFlow(auth, family, open, talk), auth };
  }
  if (flow === 'device-code') return { got: await deviceCodeFlow(auth, family, ctx.http, talk), auth };
  checkClientCredentials(ctx.config, family, o, auth);
  const secret = await clientSecret(ctx, o);
  const { clientCredentialsGrant } = await import('../../api/auth/oidc.js');
  return { got: await clientCredentialsGrant(auth, ctx.http, secret), auth };
}

export async function run(ctx: Ctx, o: LoginOptions): Promise<void> {
  const service = await chooseService(ctx, o.service);
  const flow = await settleFlow(ctx, service, o);
  const waitMs = parseWait(o.wait);
  // before anyone signs in: a config that cannot keep the credential would lose it afterwards
  if (!ctx.http.dryRun) ctx.config.checkWritable();
  const obtained = await obtain(ctx, service, flow, o, waitMs);
  if (!obtained) return;
  const { got, auth } = obtained;
  addSecret(got.accessToken);
  if (ctx.http.dryRun) {
    ctx.info('dry run: nothing was stored');
    // a key or token given here would be tried with one request: that request is the plan (masked)
    if ((flow === 'key' || flow === 'token') && o.verify !== false && ctx.config.get(endpointKey(service))) await verifyCredential(ctx.http, ctx.config, service, got.accessToken);
    return;
  }
  const checked = o.verify === false ? 'not checked (--no-verify)' : await checkBeforeStoring(ctx.http, ctx.config, service, got.accessToken);
  const record = await saveCredential(ctx.config, service, flow, got, auth ? { clientId: auth.clientId, tenant: auth.tenant } : {});
  const expiry = record.expiresAt ? `expires ${record.expiresAt}` : 'expiry unknown';
  const extra = familyOf(service).auth.kind === 'key' ? '' : `; ${expiry}${got.refreshToken ? ', renews automatically' : ''}`;
  ctx.info(`signed in to ${service} (${HOW[flow]}) in profile "${ctx.config.profileName()}"${extra}; ${checked}`);
  const effective = ctx.config.resolve(credentialKey(service));
  if (effective?.source === 'env') ctx.warn(`${effective.origin} is set and takes precedence over the stored credential`);
}
