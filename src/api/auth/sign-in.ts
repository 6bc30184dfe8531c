// How `vx auth login` obtains a credential: the way chosen from the flags and the family's kind of
// sign-in (the registry's `auth`), the browser opened (or not), the browser and device-code
// sign-ins run against their deadline. What the person sees is said through `say`; secrets typed
// or piped in are read by the caller.
import { spawn } from 'node:child_process';
import type { Config } from '../../core/config/index.js';
import { AuthError, UsageError } from '../../core/errors.js';
import type { Http } from '../../core/http/index.js';
import { FAMILIES, familyOf } from '../../model/families.js';
import type { ServiceName } from '../service.js';
import type { Authority } from './authority.js';
import { browserSignIn } from './browser.js';
import type { OAuthFamily, Obtained, SignInMethod } from './credentials.js';

/** The flags of `vx auth login` that choose and shape the sign-in. */
export interface SignInFlags {
  withKey?: boolean;
  withToken?: boolean;
  deviceCode?: boolean;
  clientCredentials?: boolean;
  withSecret?: boolean;
  clientId?: string;
  tenant?: string;
  scope?: string;
  wait?: string;
}

const DEFAULT_WAIT_S = 300;

/** --wait in ms (default 300 s) */
export function parseWait(v: string | undefined): number {
  if (v === undefined) return DEFAULT_WAIT_S * 1000;
  const n = Number(v);
  if (!v.trim() || !Number.isFinite(n) || n <= 0 || n > 3600) throw new UsageError(`invalid value "${v}" for --wait: expected seconds from 1 to 3600`);
  return n * 1000;
}

/** a family that takes a subscription key takes none of the sign-in flags */
function keyFlow(service: ServiceName, o: SignInFlags, oauthFlags: string[]): SignInMethod {
  const wrong = [...oauthFlags, o.clientId && '--client-id', o.tenant && '--tenant', o.scope && '--scope', o.wait && '--wait'].filter(Boolean);
  if (wrong.length) throw new UsageError(`${wrong.join(', ')} cannot be used with the ${service}, which takes a subscription key (--with-key)`);
  return 'key';
}

/** The way to sign in to `service` that the flags ask for; flags that way would not read are refused. */
export function chooseFlow(service: ServiceName, o: SignInFlags): SignInMethod {
  const oauthFlags = [o.withToken && '--with-token', o.deviceCode && '--device-code', (o.clientCredentials || o.withSecret) && '--client-credentials'].filter(
    Boolean,
  ) as string[];
  if (familyOf(service).auth.kind === 'key') return keyFlow(service, o, oauthFlags);
  if (o.withKey) {
    const keyed = FAMILIES.filter((f) => f.auth.kind === 'key').map((f) => `the ${f.name}`);
    throw new UsageError(`--with-key is for ${keyed.join(' and ')}; ${service} takes a bearer token (--with-token) or a sign-in`);
  }
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

/** the variables that tell whether a browser can be shown to the person */
type BrowserEnv = Readonly<Partial<Record<'DISPLAY' | 'WAYLAND_DISPLAY' | 'SSH_CONNECTION' | 'SSH_TTY', string>>>;

/**
 * Whether the platform can open a browser the person sees: a display for xdg-open (X forwarding
 * included: that browser runs here and reaches 127.0.0.1), or macOS/Windows unless the session
 * came over SSH (`open` would show it on the machine's own screen, not to the person at the far end).
 */
export function platformBrowser(platform: NodeJS.Platform, env: BrowserEnv): boolean {
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return true;
  return (platform === 'darwin' || platform === 'win32') && !env.SSH_CONNECTION && !env.SSH_TTY;
}

/**
 * Opens the address with `configured` (VX_BROWSER / auth.browser: a command, the address appended;
 * `none` disables) or the platform's opener. False when none was started.
 */
export function openBrowser(url: string, configured: string | undefined, env: BrowserEnv, say: (line: string) => void): boolean {
  if (configured?.toLowerCase() === 'none' || (!configured && !platformBrowser(process.platform, env))) return false;
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
    child.on('error', () => say(`could not start ${cmd}; open the address above yourself`));
    child.unref();
    return true;
  } catch {
    return false;
  }
}

/** `signal`, also aborted after `ms` with a timeout that says nothing was stored. */
function signalWithDeadline(signal: AbortSignal, ms: number, what: string): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new AuthError(`${what} timed out after ${Math.round(ms / 1000)} s; nothing was stored`)), ms);
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    },
  };
}

export interface InteractiveSignIn {
  waitMs: number;
  signal: AbortSignal;
  say: (line: string) => void;
}

/** The browser sign-in: `open` shows the address (false: it could not, the person opens it). */
export async function browserFlow(auth: Authority, family: OAuthFamily, open: (url: string) => boolean, o: InteractiveSignIn): Promise<Obtained> {
  const deviceCode = `\`vx auth login --service ${family} --device-code\``;
  return browserSignIn(auth, {
    timeoutMs: o.waitMs,
    signal: o.signal,
    timeoutAdvice: `on a machine without a browser (over SSH), sign in with ${deviceCode}`,
    onUrl: (url) => {
      if (open(url)) o.say(`Opening your browser to sign in to ${family} (tenant ${auth.tenant}):\n  ${url}`);
      else {
        // the address comes back to a listener on 127.0.0.1 of this machine: a browser elsewhere (the
        // laptop an SSH session comes from) cannot reach it
        o.say(`Open this address in a browser on this machine to sign in to ${family} (tenant ${auth.tenant}):\n  ${url}`);
        o.say(`(it returns to 127.0.0.1 here; without a browser on this machine, e.g. over SSH, press Ctrl-C and run ${deviceCode})`);
      }
      o.say(`Waiting up to ${Math.round(o.waitMs / 1000)} s for the browser… (Ctrl-C to cancel)`);
    },
  });
}

/** The device-code sign-in: a code entered on another device, waited for until the deadline. */
export async function deviceCodeFlow(auth: Authority, family: OAuthFamily, http: Http, o: InteractiveSignIn): Promise<Obtained> {
  const deadline = signalWithDeadline(o.signal, o.waitMs, 'device code sign-in');
  try {
    const { deviceCodeGrant } = await import('./oidc.js');
    return await deviceCodeGrant(
      auth,
      http,
      (p) => {
        o.say(`To sign in to ${family}, open ${p.verificationUri} and enter the code ${p.userCode}`);
        if (p.verificationUriComplete) o.say(`  (or open ${p.verificationUriComplete})`);
        o.say(`Waiting for the sign-in to finish… (Ctrl-C to cancel)`);
      },
      deadline.signal,
    );
  } finally {
    deadline.clear();
  }
}

/** Client credentials need an application id given on purpose and a tenant of its own (not common). */
export function checkClientCredentials(config: Config, family: OAuthFamily, o: SignInFlags, auth: Authority): void {
  const explicitId = o.clientId || config.get(`${family}.clientId`) || config.resolve('auth.clientId')?.source !== 'default';
  if (!explicitId) throw new UsageError('--client-credentials needs the application id: --client-id, VX_CLIENT_ID or auth.clientId');
  if (['common', 'organizations', 'consumers'].includes(auth.tenant.toLowerCase())) {
    throw new UsageError(`--client-credentials needs a specific tenant, not "${auth.tenant}": --tenant, VX_TENANT or auth.tenant`);
  }
}
