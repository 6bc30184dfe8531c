// `vx auth status`: the table of api/auth/status.ts, where the credentials are stored, and exit 3
// when one asked about cannot be used.
import { checkRows, statusRows, storageModes, type StatusRow } from '../../api/auth/status.js';
import { SERVICES } from '../../api/service.js';
import type { Ctx } from '../../core/context.js';
import { AuthError } from '../../core/errors.js';
import { isTable } from '../../core/output/index.js';
import type { StatusOptions } from './options.js';

const octal = (mode: number) => mode.toString(8).padStart(4, '0');

export async function run(ctx: Ctx, o: StatusOptions): Promise<void> {
  // it reports what the profile holds: a file that cannot be read is the answer (not "not signed in")
  ctx.config.store();
  const rows = statusRows(ctx.config, o.service ? [o.service] : SERVICES);
  const failure = o.check ? await checkRows(ctx.config, ctx.http, rows) : undefined;
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
  refuseRefused(rows);
  if (failure) throw failure;
  tellStorage(ctx, isTable(fmt) || fmt === 'text' || fmt === 'tsv' || fmt === 'csv');
  const row = rows[0];
  if (o.service && (row.status === 'not signed in' || (row.status === 'expired' && !row.renewable))) {
    throw new AuthError(
      row.status === 'expired' ? `the ${o.service} sign-in has expired; sign in again with \`vx auth login --service ${o.service}\`` : `not signed in to ${o.service}; run \`vx auth login --service ${o.service}\``,
    );
  }
}

/** Exit 3 when --check saw a credential refused, saying what to do about each. */
function refuseRefused(rows: StatusRow[]): void {
  const refused = rows.filter((r) => r.check?.startsWith('refused'));
  if (!refused.length) return;
  // a credential from an environment variable wins over any sign-in: signing in again would not help
  const fromEnv = refused.filter((r) => r.storage === 'environment');
  const stored = refused.filter((r) => r.storage !== 'environment');
  const said = fromEnv.map((r) => `the credential of ${r.service} from ${r.source!.replace(/^env /, '')} was refused; it wins over any sign-in: correct it, or unset it and sign in with \`vx auth login --service ${r.service}\``);
  if (stored.length) said.unshift(`the stored credential of ${stored.map((r) => r.service).join(', ')} was refused; sign in again with ${stored.map((r) => `\`vx auth login --service ${r.service}\``).join(', ')}`);
  throw new AuthError(said.join('; '));
}

/** Where the credentials are kept (with a table for people), and a warning when others can read them. */
function tellStorage(ctx: Ctx, forPeople: boolean): void {
  const modes = storageModes(ctx.config.path, ctx.config.dir);
  if (forPeople) {
    // (no file yet: the modes vx creates it with)
    const where = `file mode ${octal(modes?.file ?? 0o600)} in a ${octal(modes?.dir ?? 0o700)} directory`;
    ctx.info(`stored credentials live in ${ctx.config.path} (${where}); the OS keyring is not used`);
  }
  // vx writes it 0600, but a file copied or restored by hand may be readable by others
  if (modes && modes.file & 0o077 && process.platform !== 'win32') {
    ctx.warn(`${ctx.config.path} can be read by other users (mode ${octal(modes.file)}) and holds credentials: run \`chmod 600 ${ctx.config.path}\``);
  }
}
