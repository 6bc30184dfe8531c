// Keys a user marks as not text (URLs, ids, settings kept in a locale file): never sent, never
// checked, written to a target as the source has them. From --skip-keys, the profile's
// translate.skipKeys, and a `.vxskip` file beside the source (one glob a line, `#` comments), all
// of them together. A glob is matched against a unit's key as vx names it (a JSON or YAML path
// `app.meta.url`, an XLIFF `file/unit` id, a PO msgid, an Android or .resx name): `*` is any run of
// characters but `.`, `**` any run, `?` one character but `.`.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UsageError } from '../../../core/errors.js';

/** The file beside a source that lists keys to skip. */
export const SKIP_FILE = '.vxskip';

/** A key longer than this is no name a person writes a glob for (and a glob's work stays bounded). */
const MAX_KEY = 4096;

/** Globs from a comma-separated list (a flag's or a setting's value). */
export function globList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);
}

function globRegex(globs: readonly string[]): RegExp {
  const one = (g: string) => g.replace(/\*\*|[*?]|[\\^$.|+()[\]{}]/g, (c) => (c === '**' ? '.*' : c === '*' ? '[^.]*' : c === '?' ? '[^.]' : `\\${c}`));
  return new RegExp(`^(?:${globs.map(one).join('|')})$`, 's');
}

/** The globs of the `.vxskip` beside a source (none when there is none). */
async function fileGlobs(source: string): Promise<{ path: string; globs: string[] } | undefined> {
  const path = join(dirname(source), SKIP_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read ${path}: ${(e as Error).message}`);
  }
  return { path, globs: text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#')) };
}

/** Whether a source's unit key is to be skipped, or undefined when nothing is (`globs`: the flag's and the setting's). */
export async function skipMatcher(source: string, globs: readonly string[]): Promise<((key: string) => boolean) | undefined> {
  const all = [...globs, ...((await fileGlobs(source))?.globs ?? [])];
  if (!all.length) return undefined;
  const re = globRegex(all);
  return (key) => key.length <= MAX_KEY && re.test(key);
}
