// The `vx auth` tree: sign in, show, sign out, print the token. Declarations only; every action
// loads auth-run.js (and with it openid-client) when it runs.
import { FAMILY_NAMES } from '../model/families.js';
import { command, group, opt, type OptionsOf } from './define.js';

const run = () => import('./auth-run.js');

const LOGIN_OPTIONS = [
  opt('--service <name>', 'service to sign in to (asked at a terminal)', { choices: FAMILY_NAMES }),
  opt('--with-key', 'translator: read the subscription key from standard input'),
  opt('--with-token', 'erp/lcs/mgmt: read a bearer token from standard input'),
  opt('--device-code', 'erp/lcs/mgmt: sign in with a code on another device (no browser needed here)'),
  opt('--client-credentials', 'erp/lcs/mgmt: sign in as an application (client id, tenant and secret); for CI'),
  opt('--with-secret', 'read the client secret from standard input (implies --client-credentials; else VX_CLIENT_SECRET)'),
  opt('--client-id <id>', 'application (client) id (env VX_CLIENT_ID, profile <service>.clientId, auth.clientId)'),
  opt('--tenant <id>', 'directory (tenant) id or domain (env VX_TENANT, profile <service>.tenant, auth.tenant; default common)'),
  opt('--scope <scope>', 'scope to request (profile <service>.scope; default user_impersonation)'),
  opt('--no-browser', 'do not open a browser; print the sign-in address (also VX_BROWSER=none)'),
  opt('--wait <seconds>', 'how long to wait for the browser or device sign-in (default 300)'),
  opt('--no-verify', 'store the credential without trying it first (by default one cheap request checks that the service accepts it)'),
] as const;

export type LoginOptions = OptionsOf<typeof LOGIN_OPTIONS>;

export const AUTH = group({
  name: 'auth',
  summary: 'sign in to the services and manage the stored credentials of the profile',
  examples: ['vx auth login --service mgmt', 'vx auth login --service erp --device-code', 'vx auth status', 'vx auth token --service mgmt | some-tool'],
  commands: () => [
    command({
      name: 'login',
      summary: 'sign in to a service and store the credential in the active profile',
      options: LOGIN_OPTIONS,
      examples: [
        'vx auth login --service mgmt                       # browser sign-in',
        'vx auth login --service erp --device-code',
        'printf %s "$KEY" | vx auth login --service translator --with-key',
        'vx auth login --service mgmt --client-credentials --client-id "$APP_ID" --tenant "$TENANT_ID"   # secret from VX_CLIENT_SECRET',
        'printf %s "$TOKEN" | vx auth login --service lcs --with-token',
      ],
      profile: 'creates',
      run: async (ctx, opts) => (await run()).login(ctx, opts),
    }),
    command({
      name: 'status',
      summary: 'show, per service, whether and how you are signed in and when it expires (never the secret)',
      options: [
        opt('--service <name>', 'only this service; exits 3 when it has no usable credential', { choices: FAMILY_NAMES }),
        opt('--check', 'also try each credential with one cheap request to its service (exit 3 when one is refused)'),
      ],
      examples: ['vx auth status', 'vx auth status --service erp -o json', 'vx auth status --check'],
      run: async (ctx, opts) => (await run()).status(ctx, opts),
    }),
    command({
      name: 'logout',
      summary: 'remove stored credentials from the active profile (all services unless --service)',
      options: [opt('--service <name>', 'only this service', { choices: FAMILY_NAMES })],
      examples: ['vx auth logout --service mgmt', 'vx -p staging auth logout'],
      run: async (ctx, opts) => (await run()).logout(ctx, opts),
    }),
    command({
      name: 'token',
      summary: 'print the current token (or translator key) for piping; refuses a terminal without --yes',
      options: [opt('--service <name>', 'which service', { choices: FAMILY_NAMES, required: true })],
      examples: ['curl -H "Authorization: Bearer $(vx auth token --service mgmt)" ...', 'vx auth token --service erp --yes'],
      run: async (ctx, opts) => (await run()).token(ctx, opts),
    }),
  ],
});
