// The `vx auth` tree: sign in, show, sign out, print the token. Declarations only; each action
// loads its verb's module when it runs.
import { command, group } from '../define.js';
import { LOGIN_OPTIONS, LOGOUT_OPTIONS, STATUS_OPTIONS, TOKEN_OPTIONS } from './options.js';

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
      run: async (ctx, opts) => (await import('./login.js')).run(ctx, opts),
    }),
    command({
      name: 'status',
      summary: 'show, per service, whether and how you are signed in and when it expires (never the secret)',
      options: STATUS_OPTIONS,
      examples: ['vx auth status', 'vx auth status --service erp -o json', 'vx auth status --check'],
      run: async (ctx, opts) => (await import('./status.js')).run(ctx, opts),
    }),
    command({
      name: 'logout',
      summary: 'remove stored credentials from the active profile (all services unless --service)',
      options: LOGOUT_OPTIONS,
      examples: ['vx auth logout --service mgmt', 'vx -p staging auth logout'],
      run: async (ctx, opts) => (await import('./logout.js')).run(ctx, opts),
    }),
    command({
      name: 'token',
      summary: 'print the current token (or translator key) for piping; refuses a terminal without --yes',
      options: TOKEN_OPTIONS,
      examples: ['curl -H "Authorization: Bearer $(vx auth token --service mgmt)" ...', 'vx auth token --service erp --yes'],
      run: async (ctx, opts) => (await import('./token.js')).run(ctx, opts),
    }),
  ],
});
