// The options of the `vx auth` commands, and the types their run functions receive.
import { FAMILY_NAMES } from '../../model/families.js';
import { opt, type OptionsOf } from '../define.js';

export const LOGIN_OPTIONS = [
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

export const STATUS_OPTIONS = [
  opt('--service <name>', 'only this service; exits 3 when it has no usable credential', { choices: FAMILY_NAMES }),
  opt('--check', 'also try each credential with one cheap request to its service (exit 3 when one is refused)'),
] as const;

export type StatusOptions = OptionsOf<typeof STATUS_OPTIONS>;

export const LOGOUT_OPTIONS = [opt('--service <name>', 'only this service', { choices: FAMILY_NAMES })] as const;

export type LogoutOptions = OptionsOf<typeof LOGOUT_OPTIONS>;

export const TOKEN_OPTIONS = [opt('--service <name>', 'which service', { choices: FAMILY_NAMES, required: true })] as const;

export type TokenOptions = OptionsOf<typeof TOKEN_OPTIONS>;
