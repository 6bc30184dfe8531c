// The locale-file formats vx translate file|sync reads and writes, by name and by extension.
import { extname } from 'node:path';
import { UsageError } from '../../../core/errors.js';
import { loadIcu } from './icu.js';
import { json, loadJson } from './json.js';
import { loadMarkdown, markdown } from './markdown.js';
import { po } from './po.js';
import { FORMAT_NAMES, type FileFormat, type FormatName } from './types.js';
import { loadXliff, xliff } from './xliff.js';
import { loadYaml, yaml } from './yaml.js';

export const FORMATS: Record<FormatName, FileFormat> = { xliff, json, yaml, po, md: markdown };
const EXTENSIONS: Record<string, FormatName> = { '.xlf': 'xliff', '.xliff': 'xliff', '.xlf2': 'xliff', '.json': 'json', '.yml': 'yaml', '.yaml': 'yaml', '.po': 'po', '.pot': 'po', '.md': 'md', '.markdown': 'md', '.mdx': 'md' };

/** The format of `file`: --format when it names one, else its extension. */
export function formatOf(file: string, flag: string | undefined): FormatName {
  if (flag !== undefined && flag.toLowerCase() !== 'auto') {
    const f = flag.toLowerCase() as FormatName;
    if (!FORMAT_NAMES.includes(f)) throw new UsageError(`invalid value "${flag}" for --format: allowed ${FORMAT_NAMES.join(', ')}, auto`);
    return f;
  }
  const f = EXTENSIONS[extname(file).toLowerCase()];
  if (!f) throw new UsageError(`cannot tell the format of ${file} from its extension: give --format ${FORMAT_NAMES.join('|')} (known extensions: ${Object.keys(EXTENSIONS).join(' ')})`);
  return f;
}

/** Loads the libraries a format needs (its parser), before any file of it is read. */
export async function loadFormat(format: FormatName): Promise<void> {
  await loadIcu();
  if (format === 'xliff') await loadXliff();
  else if (format === 'json') await loadJson();
  else if (format === 'yaml') await loadYaml();
  else if (format === 'md') await loadMarkdown();
}
