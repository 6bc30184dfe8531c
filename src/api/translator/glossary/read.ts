// Reads a glossary file by its extension: .tbx (and .xml), .csv, .tsv (and .tab), .yaml/.yml,
// .json. A file vx cannot use is one line naming it and what is wrong (exit 2), before anything
// is sent.
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { readMap } from './map.js';
import { readTable } from './table.js';
import { readTbx } from './tbx.js';
import { badGlossary, type Glossary } from './types.js';

/** a glossary is read whole: a term base of millions of terms is not one to send as markup */
const MAX_BYTES = 64 * 1024 * 1024;

export async function readGlossary(file: string): Promise<Glossary> {
  const ext = extname(file).toLowerCase();
  const kind = ext === '.tbx' || ext === '.xml' ? 'tbx' : ext === '.csv' ? 'csv' : ext === '.tsv' || ext === '.tab' ? 'tsv' : ext === '.yaml' || ext === '.yml' ? 'yaml' : ext === '.json' ? 'json' : undefined;
  if (!kind) throw badGlossary(file, 'unknown kind of file (.tbx, .csv, .tsv, .yaml, .yml or .json)');
  let text: string;
  try {
    if ((await stat(file)).size > MAX_BYTES) throw badGlossary(file, `larger than ${MAX_BYTES / 1024 / 1024} MB`);
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as Error).message.startsWith('glossary ')) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw badGlossary(file, code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : code === 'EACCES' ? 'permission denied' : (e as Error).message);
  }
  if (kind === 'tbx') return readTbx(text, file);
  if (kind === 'csv' || kind === 'tsv') return readTable(text, file, kind === 'csv' ? ',' : '\t');
  return readMap(text, file, kind === 'json');
}
