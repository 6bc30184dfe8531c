// Reads a glossary file by its extension: .tbx (and .xml), .csv, .tsv (and .tab), .yaml/.yml,
// .json. A file vx cannot use is one line naming it and what is wrong (exit 2), before anything
// is sent.
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { oldSpaceLimit } from '../../../core/heap.js';
import { readMap } from './map.js';
import { readTable } from './table.js';
import { readTbx } from './tbx.js';
import { badGlossary, type Glossary } from './types.js';

/** a glossary is read whole: a term base of millions of terms is not one to send as markup */
const MAX_BYTES = 64 * 1024 * 1024;

/**
 * the memory reading a file of each kind takes per byte of it, with a margin (measured: 100,000
 * terms of each, the process's peak RSS over a run with a glossary of ten: CSV 45, JSON 37, YAML 97,
 * TBX 7; a million terms of CSV 33; 40,000 terms of CSV did not fit a 48 MB old generation, 48)
 */
const PEAK_PER_BYTE = { csv: 60, tsv: 60, json: 50, yaml: 130, tbx: 10 } as const;

/** what V8 lets this process's heap grow by from now on (bytes): its old generation's room */
function heapRoom(): number {
  const h = getHeapStatistics();
  return oldSpaceLimit(h.heap_size_limit) - h.used_heap_size;
}

const mb = (bytes: number) => Math.ceil(bytes / 1024 / 1024);

/**
 * The glossary in `file`. `room`: what the heap may still take; a file whose reading would take
 * more is refused before it is read (else the process would end in V8's out-of-memory abort).
 */
export async function readGlossary(file: string, room = heapRoom()): Promise<Glossary> {
  const ext = extname(file).toLowerCase();
  const kind = ext === '.tbx' || ext === '.xml' ? 'tbx' : ext === '.csv' ? 'csv' : ext === '.tsv' || ext === '.tab' ? 'tsv' : ext === '.yaml' || ext === '.yml' ? 'yaml' : ext === '.json' ? 'json' : undefined;
  if (!kind) throw badGlossary(file, 'unknown kind of file (.tbx, .csv, .tsv, .yaml, .yml or .json)');
  let text: string;
  try {
    const size = (await stat(file)).size;
    if (size > MAX_BYTES) throw badGlossary(file, `larger than ${MAX_BYTES / 1024 / 1024} MB`);
    const need = size * PEAK_PER_BYTE[kind];
    if (need > room) throw badGlossary(file, `reading its ${mb(size)} MB takes about ${mb(need)} MB of memory, more than node gives this process (${mb(room)} MB free): cut it to the project's terms, or give node more (NODE_OPTIONS=--max-old-space-size=<MB>)`);
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
