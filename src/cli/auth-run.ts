// `vx auth login|status|logout|token`: choose the flow from the flags, talk to the person on
// stderr, and hand the obtained credential to api/auth for storage in the active profile.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { authority, type Authority } from '../api/auth/authority.js';
import { browserSignIn, authorizeUrl, CALLBACK_PATH } from '../api/auth/browser.js';
import {
  isExpired,
  jwtExpiry,
  removeCredentials,
  renewalMeans,
  saveCredential,
  storedOwner,
  storedSignIn,
  type OAuthFamily,
  type Obtained,
  type SignInMethod,
} from '../api/auth/credentials.js';
import { verifyCredential, type Verdict } from '../api/auth/verify.js';
import { credential } from '../api/auth/authenticator.js';
import { credentialKey, endpointKey, SERVICES, type ServiceName } from '../api/service.js';
import type { Ctx } from '../core/context.js';
import { FAMILIES } from '../model/families.js';
import type { LoginOptions } from './auth.js';
import { AuthError, InterruptedError, isVxError, UsageError } from '../core/errors.js';
import { addSecret } from '../core/redact.js';
import { readAllStdin } from '../core/input.js';
import { isTable } from '../core/output/index.js';


const DEFAULT_WAIT_S = 300;

function parseWait(v: string | undefined): number {
  if (v === undefined) return DEFAULT_WAIT_S * 1000;
  const n = Number(v);
  if (!v.trim() || !Number.isFinite(n) || n <= 0 || n > 3600) throw new UsageError(`invalid value "${v}" for --wait: expected seconds from 1 to 3600`);
  return n * 1000;
}

async function chooseService(ctx: Ctx, given: ServiceName | undefined): Promise<ServiceName> {
  if (given) return given;
  if (!ctx.prompter.interactive) throw new UsageError(`--service is required without a terminal (${SERVICES.slice(0, -1).join(', ')} or ${SERVICES[SERVICES.length - 1]})`);
  return ctx.prompter.select<ServiceName>(
    'Sign in to which service?',
    FAMILIES.map((f) => ({ name: f.title, value: f.name })),
  );
}

/** A secret read from stdin: the whole input without the line ending around it. */
async function secretFromStdin(ctx: Ctx, what: string, flag: string): Promise<string> {
  if (ctx.io.stdin.isTTY) throw new UsageError(`${flag} reads the ${what} from standard input; pipe it in (printf %s "$SECRET" | vx auth login ... ${flag})`);
  const v = (await readAllStdin(ctx.io.stdin)).trim();
  if (!v) throw new UsageError(`${flag}: standard input is empty; nothing was stored`);
  if (/\s/.test(v)) throw new UsageError(`${flag}: the ${what} on standard input contains white space; expected a single value`);
  return checkedCredential(v, `${flag}: the ${what} on standard input`);
}

/**
 * A credential goes into a header: a control character or one beyond ASCII (a paste with an escape
 * sequence, a typographic dash) would make every later command fail, so it is refused here. The
 * value is never shown.
 */
function checkedCredential(v: string, what: string): string {
  if (/[^\x21-\x7e]/.test(v)) throw new UsageError(`${what} holds a character a credential cannot carry (a control character, a space or one beyond ASCII); nothing was stored`);
  return v;
}

type Flow = 'key' | 'browser' | 'device-code' | 'client-credentials' | 'token';

function chooseFlow(service: ServiceName, o: LoginOptions): Flow {
  const oauthFlags = [o.withToken && '--with-token', o.deviceCode && '--device-code', (o.clientCredentials || o.withSecret) && '--client-credentials'].filter(
    Boolean,
  ) as string[];
  if (service === 'translator') {
    const wrong = [...oauthFlags, o.clientId && '--client-id', o.tenant && '--tenant', o.scope && '--scope', o.wait && '--wait'].filter(Boolean);
    if (wrong.length) throw new UsageError(`${wrong.join(', ')} cannot be used with the translator, which takes a subscription key (--with-key)`);
    return 'key';
  }
  if (o.withKey) throw new UsageError(`--with-key is for the translator; ${service} takes a bearer token (--with-token) or a sign-in`);
  if (oauthFlags.length > 1) throw new UsageError(`choose one way to sign in: ${oauthFlags.join(', ')} cannot be combined`);
  // options the chosen way never reads are refused, not accepted and ignored: a token from stdin is
  // stored as given (no application, tenant or scope asks for it, nothing is waited for), and
  // client credentials are one token request (no browser or device sign-in to wait for)
  const unused = (how: string, flags: (string | false | undefined)[]) => {
    const given = flags.filter(Boolean);
    if (given.length) throw new UsageError(`${given.join(', ')} cannot be used with ${how}; nothing was sent`);
  };
  if (o.withToken) {
    unused('--with-token, which stores the token as given', [o.clientId !== undefined && '--client-id', o.tenant !== undefined && '--tenant', o.scope !== undefined && '--scope', o.wait !== undefined && '--wait']);
    return 'token';
  }
  if (o.deviceCode) return 'device-code';
  if (o.clientCredentials || o.withSecret) {
    unused('--client-credentials, which signs in with one token request (--wait is for the browser and device sign-ins)', [o.wait !== undefined && '--wait']);
    return 'client-credentials';
  }
  return 'browser';
}

/**
 * Whether the platform can open a browser the person sees: a display for xdg-open (X forwarding
 * included: that browser runs here and reaches 127.0.0.1), or macOS/Windows unless the session
 * came over SSH (`open` would show it on the machine's own screen, not to the person at the far end).
 */
export function platformBrowser(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return true;
  return (platform === 'darwin' || platform === 'win32') && !env.SSH_CONNECTION && !env.SSH_TTY;
}

/** Opens the address with VX_BROWSER / auth.browser (a command; `none` disables) or the platform's opener. */
function openBrowser(ctx: Ctx, url: string): boolean {
  const configured = ctx.config.get('auth.browser');
  if (configured?.toLowerCase() === 'none' || (!configured && !platformBrowser())) return false;
  let cmd: string;
  let args: string[];
  if (configured) {
    const parts = configured.trim().split(/\s+/);
    cmd = parts[0];
    args = [...parts.slice(1), url];
  } else if (process.platform === 'darwin') {
    [cmd, args] = ['open', [url]];
  } else if (process.platform === 'win32') {
    [cmd, args] = ['rundll32', ['url.dll,FileProtocolHandler', url]];
  } else {
    [cmd, args] = ['xdg-open', [url]];
  }
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => ctx.info(`could not start ${cmd}; open the address above yourself`));
    child.unref();
    return true;
  } catch {
    return false;
  }
}

function signalWithDeadline(ctx: Ctx, ms: number, what: string): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new AuthError(`${what} timed out after ${Math.round(ms / 1000)} s; nothing was stored`)), ms);
  const onAbort = () => controller.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
    },
  };
}

async function clientSecret(ctx: Ctx, o: LoginOptions): Promise<string> {
  if (o.withSecret) return secretFromStdin(ctx, 'client secret', '--with-secret');
  const fromConfig = ctx.config.get('auth.clientSecret');
  if (fromConfig) return fromConfig;
  if (ctx.prompter.interactive) {
    const v = (await ctx.prompter.password('Client secret:')).trim();
    if (v) return v;
  }
  throw new UsageError('no client secret: set VX_CLIENT_SECRET or pipe it with --with-secret; nothing was sent');
}

function checkClientCredentials(ctx: Ctx, family: OAuthFamily, o: LoginOptions, auth: Authority): void {
  const explicitId = o.clientId || ctx.config.get(`${family}.clientId`) || ctx.config.resolve('auth.clientId')?.source !== 'default';
  if (!explicitId) throw new UsageError('--client-credentials needs the application id: --client-id, VX_CLIENT_ID or auth.clientId');
  if (['common', 'organizations', 'consumers'].includes(auth.tenant.toLowerCase())) {
    throw new UsageError(`--client-credentials needs a specific tenant, not "${auth.tenant}": --tenant, VX_TENANT or auth.tenant`);
  }
}

function describeExpiry(record: { expiresAt?: string }): string {
  return record.expiresAt ? `expires ${record.expiresAt}` : 'expiry unknown';
}

export async function login(ctx: Ctx, o: LoginOptions): Promise<void> {
  const service = await chooseService(ctx, o.service);
  let flow = chooseFlow(service, o);
  // at a terminal where no browser can be opened (an SSH session) and none was chosen or refused:
  // the browser sign-in returns to 127.0.0.1 here, which a browser elsewhere cannot reach
  if (flow === 'browser' && o.browser !== false && ctx.prompter.interactive && !ctx.http.dryRun && !ctx.config.get('auth.browser') && !platformBrowser()) {
    const code = await ctx.prompter.confirm('No browser can be opened on this machine (an SSH session?). Sign in with a code on another device instead?', true);
    if (code) flow = 'device-code';
  }
  // no terminal either (a CI job that forgot its flags): the address would go to a log nobody reads
  // while vx waits --wait seconds (300 by default) for nothing
  if (flow === 'browser' && o.browser !== false && !ctx.prompter.interactive && !ctx.http.dryRun && !ctx.config.get('auth.browser') && !platformBrowser()) {
    throw new UsageError(
      `no terminal and no browser here to sign in to ${service} with: in CI use --client-credentials (or --with-token); to sign in from another machine use --device-code, or --no-browser to print the address; nothing was sent`,
    );
  }
  const waitMs = parseWait(o.wait);
  // before anyone signs in: a config that cannot keep the credential would lose it afterwards
  if (!ctx.http.dryRun) ctx.config.checkWritable();
  let got: Obtained;
  let auth: Authority | undefined;
  if (flow === 'key') {
    let key: string;
    if (o.withKey) key = await secretFromStdin(ctx, 'subscription key', '--with-key');
    else if (ctx.prompter.interactive) key = checkedCredential((await ctx.prompter.password('Translator subscription key:')).trim(), 'the key typed');
    else throw new UsageError('no terminal to ask for the key: pipe it with --with-key (printf %s "$KEY" | vx auth login --service translator --with-key)');
    if (!key) throw new UsageError('no key given; nothing was stored');
    got = { accessToken: key };
  } else if (flow === 'token') {
    got = { accessToken: await secretFromStdin(ctx, 'token', '--with-token') };
  } else {
    const family = service as OAuthFamily;
    auth = authority(ctx.config, family, { clientId: o.clientId, tenant: o.tenant, scope: o.scope });
    if (flow === 'browser') {
      if (ctx.http.dryRun) {
        ctx.http.plan({ method: 'GET', url: authorizeUrl(auth, `http://127.0.0.1:<port>${CALLBACK_PATH}`, '<state>') });
        return;
      }
      const a = auth;
      const deviceCode = `\`vx auth login --service ${family} --device-code\``;
      got = await browserSignIn(auth, {
        timeoutMs: waitMs,
        signal: ctx.signal,
        timeoutAdvice: `on a machine without a browser (over SSH), sign in with ${deviceCode}`,
        onUrl: (url) => {
          const opened = o.browser !== false && openBrowser(ctx, url);
          if (opened) ctx.info(`Opening your browser to sign in to ${family} (tenant ${a.tenant}):\n  ${url}`);
          else {
            // the address comes back to a listener on 127.0.0.1 of this machine: a browser elsewhere (the
            // laptop an SSH session comes from) cannot reach it
            ctx.info(`Open this address in a browser on this machine to sign in to ${family} (tenant ${a.tenant}):\n  ${url}`);
            ctx.info(`(it returns to 127.0.0.1 here; without a browser on this machine, e.g. over SSH, press Ctrl-C and run ${deviceCode})`);
          }
          ctx.info(`Waiting up to ${Math.round(waitMs / 1000)} s for the browser… (Ctrl-C to cancel)`);
        },
      });
    } else if (flow === 'device-code') {
      const deadline = signalWithDeadline(ctx, waitMs, 'device code sign-in');
      try {
        const { deviceCodeGrant } = await import('../api/auth/oidc.js');
        got = await deviceCodeGrant(
          auth,
          ctx.http,
          (p) => {
            ctx.info(`To sign in to ${family}, open ${p.verificationUri} and enter the code ${p.userCode}`);
            if (p.verificationUriComplete) ctx.info(`  (or open ${p.verificationUriComplete})`);
            ctx.info(`Waiting for the sign-in to finish… (Ctrl-C to cancel)`);
          },
          deadline.signal,
        );
      } finally {
        deadline.clear();
      }
    } else {
      checkClientCredentials(ctx, family, o, auth);
      const secret = await clientSecret(ctx, o);
      const { clientCredentialsGrant } = await import('../api/auth/oidc.js');
      got = await clientCredentialsGrant(auth, ctx.http, secret);
    }
  }
  addSecret(got.accessToken);
  if (ctx.http.dryRun) {
    ctx.info('dry run: nothing was stored');
    // a key or token given here would be tried with one request: that request is the plan (masked)
    if ((flow === 'key' || flow === 'token') && o.verify !== false && ctx.config.get(endpointKey(service))) await verifyCredential(ctx.http, ctx.config, service, got.accessToken);
    return;
  }
  const checked = o.verify === false ? 'not checked (--no-verify)' : await checkBeforeStoring(ctx, service, got.accessToken, flow === 'key' ? 'key' : 'token');
  const method: SignInMethod = flow;
  const record = await saveCredential(ctx.config, service, method, got, auth ? { clientId: auth.clientId, tenant: auth.tenant } : {});
  const how = { key: 'subscription key', browser: 'browser sign-in', 'device-code': 'device code', 'client-credentials': 'client credentials', token: 'token' }[method];
  const extra = service === 'translator' ? '' : `; ${describeExpiry(record)}${got.refreshToken ? ', renews automatically' : ''}`;
  ctx.info(`signed in to ${service} (${how}) in profile "${ctx.config.profileName()}"${extra}; ${checked}`);
  const effective = ctx.config.resolve(credentialKey(service));
  if (effective?.source === 'env') ctx.warn(`${effective.origin} is set and takes precedence over the stored credential`);
}

/** What a probe's answer says, for messages: `HTTP 200`, `HTTP 404 SubscriptionNotFound`. */
function answered(v: Verdict): string {
  return `HTTP ${v.status}${v.error?.code ? ` ${v.error.code}` : ''}`;
}

/**
 * Tries the credential before it is stored (one cheap request, api/auth/verify.ts): a 401 stores
 * nothing (exit 3); no endpoint configured means it cannot be tried, which is said, not fatal.
 */
async function checkBeforeStoring(ctx: Ctx, service: ServiceName, value: string, kind: 'key' | 'token'): Promise<string> {
  if (!ctx.config.get(endpointKey(service))) return `not checked: ${endpointKey(service)} is not set`;
  let v: Verdict;
  try {
    v = await verifyCredential(ctx.http, ctx.config, service, value);
  } catch (e) {
    // the service could not be asked (no connection, a timeout, a 5xx): say what became of the sign-in
    if (isVxError(e) && !(e instanceof InterruptedError) && !e.hint) {
      e.hint = `the ${service} ${kind} could not be tried, so it was not stored: run the same \`vx auth login\` again once the service answers, or add --no-verify to store it untried`;
    }
    throw e;
  }
  if (!v.accepted) {
    throw new AuthError(`the ${service} service refused this ${kind} (${answered(v)}) when ${v.what}; nothing was stored. Check the ${kind}, or store it unchecked with --no-verify`, {
      status: v.status,
      code: v.error?.code,
      requestId: v.error?.requestId,
    });
  }
  return `checked by ${v.what} (${answered(v)})`;
}

export interface StatusRow {
  service: ServiceName;
  status: 'signed in' | 'expired' | 'not signed in';
  method: string | null;
  expiresAt: string | null;
  renewable: boolean;
  source: string | null;
  storage: string | null;
  /** with --check: ok, refused (HTTP 401), or why it could not be checked */
  check?: string;
}

export function statusRows(ctx: Ctx, services: readonly ServiceName[]): StatusRow[] {
  const config = ctx.config;
  return services.map((service): StatusRow => {
    const r = config.resolve(credentialKey(service));
    const base = { service, status: 'not signed in' as const, method: null, expiresAt: null, renewable: false, source: null, storage: null };
    if (!r) return base;
    if (r.source !== 'profile') {
      const exp = service === 'translator' ? undefined : jwtExpiry(r.value);
      const expired = exp ? exp.getTime() <= Date.now() : false;
      return {
        ...base,
        status: expired ? 'expired' : 'signed in',
        method: service === 'translator' ? 'key' : 'token',
        expiresAt: exp?.toISOString() ?? null,
        source: r.source === 'env' ? `env ${r.origin}` : r.source,
        storage: 'environment',
      };
    }
    const owner = storedOwner(config, service) ?? service;
    const record = storedSignIn(config, owner);
    const renewable = Boolean(renewalMeans(config, owner, record));
    return {
      ...base,
      status: isExpired(record) ? 'expired' : 'signed in',
      method: record?.method ?? (service === 'translator' ? 'key' : 'token'),
      expiresAt: record?.expiresAt ?? null,
      renewable,
      source: `profile "${config.profileName()}"${owner !== service ? ` (${owner} token)` : ''}`,
      storage: `file ${config.path}`,
    };
  });
}

/**
 * `status --check`: each credential tried with its family's probe. Returns the first failure that
 * was not an answer (no connection, a timeout, a 5xx), to end with after the table is printed.
 */
async function checkRows(ctx: Ctx, rows: StatusRow[]): Promise<unknown> {
  let failure: unknown;
  await Promise.all(
    rows.map(async (row) => {
      if (row.status === 'not signed in') return void (row.check = 'not signed in');
      try {
        const v = await verifyCredential(ctx.http, ctx.config, row.service, await credential(ctx.config, row.service, ctx.http));
        row.check = v.accepted ? `ok (${answered(v)})` : `refused (${answered(v)})`;
      } catch (e) {
        row.check = `not checked: ${isVxError(e) ? e.message : String(e)}`;
        failure ??= e;
      }
    }),
  );
  return failure;
}

export async function status(ctx: Ctx, o: { service?: ServiceName; check?: boolean }): Promise<void> {
  // it reports what the profile holds: a file that cannot be read is the answer (not "not signed in")
  ctx.config.store();
  const rows = statusRows(ctx, o.service ? [o.service] : SERVICES);
  const failure = o.check ? await checkRows(ctx, rows) : undefined;
  const fmt = ctx.format();
  await ctx.print(rows, {
    columns: [
      { header: 'service', get: 'service' },
      { header: 'status', get: (r: StatusRow) => (r.status === 'expired' && r.renewable ? 'expired (renews on use)' : r.status) },
      { header: 'method', get: (r: StatusRow) => r.method ?? '' },
      { header: 'expires', get: (r: StatusRow) => r.expiresAt ?? '' },
      { header: 'source', get: (r: StatusRow) => r.source ?? '' },
      ...(o.check ? [{ header: 'check', get: (r: StatusRow) => r.check ?? '' }] : []),
    ],
  });
  const refused = rows.filter((r) => r.check?.startsWith('refused'));
  if (refused.length) {
    // a credential from an environment variable wins over any sign-in: signing in again would not help
    const fromEnv = refused.filter((r) => r.storage === 'environment');
    const stored = refused.filter((r) => r.storage !== 'environment');
    const said = fromEnv.map((r) => `the credential of ${r.service} from ${r.source!.replace(/^env /, '')} was refused; it wins over any sign-in: correct it, or unset it and sign in with \`vx auth login --service ${r.service}\``);
    if (stored.length) said.unshift(`the stored credential of ${stored.map((r) => r.service).join(', ')} was refused; sign in again with ${stored.map((r) => `\`vx auth login --service ${r.service}\``).join(', ')}`);
    throw new AuthError(said.join('; '));
  }
  if (failure) throw failure;
  const modes = storageModes(ctx.config.path, ctx.config.dir);
  if (isTable(fmt) || fmt === 'text' || fmt === 'tsv' || fmt === 'csv') {
    // (no file yet: the modes vx creates it with)
    const where = `file mode ${octal(modes?.file ?? 0o600)} in a ${octal(modes?.dir ?? 0o700)} directory`;
    ctx.info(`stored credentials live in ${ctx.config.path} (${where}); the OS keyring is not used`);
  }
  // vx writes it 0600, but a file copied or restored by hand may be readable by others
  if (modes && modes.file & 0o077 && process.platform !== 'win32') {
    ctx.warn(`${ctx.config.path} can be read by other users (mode ${octal(modes.file)}) and holds credentials: run \`chmod 600 ${ctx.config.path}\``);
  }
  const row = rows[0];
  if (o.service && (row.status === 'not signed in' || (row.status === 'expired' && !row.renewable))) {
    throw new AuthError(
      row.status === 'expired' ? `the ${o.service} sign-in has expired; sign in again with \`vx auth login --service ${o.service}\`` : `not signed in to ${o.service}; run \`vx auth login --service ${o.service}\``,
    );
  }
}

const octal = (mode: number) => mode.toString(8).padStart(4, '0');

/** The permission bits of the config file and its directory, when the file exists. */
function storageModes(path: string, dir: string): { file: number; dir: number } | undefined {
  try {
    return { file: statSync(path).mode & 0o777, dir: statSync(dir).mode & 0o777 };
  } catch {
    return undefined;
  }
}

export async function logout(ctx: Ctx, o: { service?: ServiceName }): Promise<void> {
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
    const fallback = ctx.config.def(credentialKey(s))?.fallback?.split('.')[0];
    if (r?.source === 'profile' && fallback && !ctx.http.dryRun) {
      ctx.warn(`${s} still uses the ${fallback} sign-in of profile "${profile}", which it falls back to; \`vx auth logout --service ${fallback}\` removes that`);
    }
  }
}

export async function token(ctx: Ctx, o: { service: ServiceName }): Promise<void> {
  ctx.noQuery('auth token (it prints the credential itself)');
  // (it prints no credential: nothing to refuse at a terminal)
  if (ctx.http.dryRun) return tokenDryRun(ctx, o.service);
  if (ctx.stdoutIsTTY && !ctx.globals.yes) {
    throw new UsageError(`refusing to print the ${o.service} ${o.service === 'translator' ? 'key' : 'token'} to a terminal; pipe it to a program, or pass --yes`);
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
  const what = `${service} ${service === 'translator' ? 'key' : 'token'}`;
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
  const { renewNow } = await import('../api/auth/renew.js');
  // with the dry-run door the grant's request is planned (printed on stdout) and nothing is sent or stored
  await renewNow(ctx.config, owner as OAuthFamily, means!, record, ctx.http);
}
