// The `vx auth` tree: sign in, show, sign out, print the token. Declarations only; every action
// loads auth-run.js (and with it openid-client) when it runs.
import { Option, type Command } from 'commander';
import { act, examples } from './runner.js';

const run = () => import('./auth-run.js');
const SERVICES = ['translator', 'erp', 'lcs', 'mgmt'];

export function registerAuth(program: Command): void {
  const auth = program
    .command('auth')
    .description('sign in to the services and manage the stored credentials of the profile')
    .addHelpText(
      'after',
      examples('vx auth login --service mgmt', 'vx auth login --service erp --device-code', 'vx auth status', 'vx auth token --service mgmt | some-tool'),
    );
  auth
    .command('login')
    .description('sign in to a service and store the credential in the active profile')
    .addOption(new Option('--service <name>', 'service to sign in to (asked at a terminal)').choices(SERVICES))
    .option('--with-key', 'translator: read the subscription key from standard input')
    .option('--with-token', 'erp/lcs/mgmt: read a bearer token from standard input')
    .option('--device-code', 'erp/lcs/mgmt: sign in with a code on another device (no browser needed here)')
    .option('--client-credentials', 'erp/lcs/mgmt: sign in as an application (client id, tenant and secret); for CI')
    .option('--with-secret', 'read the client secret from standard input (implies --client-credentials; else VX_CLIENT_SECRET)')
    .option('--client-id <id>', 'application (client) id (env VX_CLIENT_ID, profile <service>.clientId, auth.clientId)')
    .option('--tenant <id>', 'directory (tenant) id or domain (env VX_TENANT, profile <service>.tenant, auth.tenant; default common)')
    .option('--scope <scope>', 'scope to request (profile <service>.scope; default user_impersonation)')
    .option('--no-browser', 'do not open a browser; print the sign-in address (also VX_BROWSER=none)')
    .option('--wait <seconds>', 'how long to wait for the browser or device sign-in (default 300)')
    .option('--no-verify', 'store the credential without trying it first (by default one cheap request checks that the service accepts it)')
    .addHelpText(
      'after',
      examples(
        'vx auth login --service mgmt                       # browser sign-in',
        'vx auth login --service erp --device-code',
        'printf %s "$KEY" | vx auth login --service translator --with-key',
        'vx auth login --service mgmt --client-credentials --client-id "$APP_ID" --tenant "$TENANT_ID"   # secret from VX_CLIENT_SECRET',
        'printf %s "$TOKEN" | vx auth login --service lcs --with-token',
      ),
    )
    .action(act(async (ctx, opts) => (await run()).login(ctx, opts), { profile: 'creates' }));
  auth
    .command('status')
    .description('show, per service, whether and how you are signed in and when it expires (never the secret)')
    .addOption(new Option('--service <name>', 'only this service; exits 3 when it has no usable credential').choices(SERVICES))
    .option('--check', 'also try each credential with one cheap request to its service (exit 3 when one is refused)')
    .addHelpText('after', examples('vx auth status', 'vx auth status --service erp -o json', 'vx auth status --check'))
    .action(act(async (ctx, opts) => (await run()).status(ctx, opts)));
  auth
    .command('logout')
    .description('remove stored credentials from the active profile (all services unless --service)')
    .addOption(new Option('--service <name>', 'only this service').choices(SERVICES))
    .addHelpText('after', examples('vx auth logout --service mgmt', 'vx -p staging auth logout'))
    .action(act(async (ctx, opts) => (await run()).logout(ctx, opts)));
  auth
    .command('token')
    .description('print the current token (or translator key) for piping; refuses a terminal without --yes')
    .addOption(new Option('--service <name>', 'which service').choices(SERVICES).makeOptionMandatory())
    .addHelpText('after', examples('curl -H "Authorization: Bearer $(vx auth token --service mgmt)" ...', 'vx auth token --service erp --yes'))
    .action(act(async (ctx, opts) => (await run()).token(ctx, opts)));
}
