// The secrets `vx auth login` is given: piped on standard input or typed at a masked prompt, never
// on the command line; each checked as a header can carry it, never shown.
import type { Ctx } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { readAllStdin } from '../../core/input.js';
import type { ServiceName } from '../../api/service.js';
import type { LoginOptions } from './options.js';

/** A secret read from stdin: the whole input without the line ending around it. */
export async function secretFromStdin(ctx: Ctx, what: string, flag: string): Promise<string> {
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

/** The subscription key of a family that takes one: piped with --with-key, or typed at a terminal. */
export async function subscriptionKey(ctx: Ctx, service: ServiceName, withKey: boolean | undefined): Promise<string> {
  let key: string;
  if (withKey) key = await secretFromStdin(ctx, 'subscription key', '--with-key');
  else if (ctx.prompter.interactive) key = checkedCredential((await ctx.prompter.password(`${service[0].toUpperCase()}${service.slice(1)} subscription key:`)).trim(), 'the key typed');
  else throw new UsageError(`no terminal to ask for the key: pipe it with --with-key (printf %s "$KEY" | vx auth login --service ${service} --with-key)`);
  if (!key) throw new UsageError('no key given; nothing was stored');
  return key;
}

/** The client secret of --client-credentials: piped (--with-secret), configured (VX_CLIENT_SECRET), or typed. */
export async function clientSecret(ctx: Ctx, o: LoginOptions): Promise<string> {
  if (o.withSecret) return secretFromStdin(ctx, 'client secret', '--with-secret');
  const fromConfig = ctx.config.get('auth.clientSecret');
  if (fromConfig) return fromConfig;
  if (ctx.prompter.interactive) {
    const v = (await ctx.prompter.password('Client secret:')).trim();
    if (v) return v;
  }
  throw new UsageError('no client secret: set VX_CLIENT_SECRET or pipe it with --with-secret; nothing was sent');
}
