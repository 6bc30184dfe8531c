// The locale-file formats vx translate file|sync reads and writes, by name, by extension, and an
// Android resource file by its place (an .xml file in a values directory): none needs --format.
import { extname } from 'node:path';
import { UsageError } from '../../../core/errors.js';
import { android, isAndroidResource, loadAndroid } from './android.js';
import { appleStrings } from './apple-strings.js';
import { arb, loadArb } from './arb.js';
import { loadXcstrings, xcstrings } from './xcstrings.js';
import { loadIcu } from './icu.js';
import { json, loadJson } from './json.js';
import { loadMarkdown, markdown } from './markdown.js';
import { po } from './po.js';
import { properties } from './properties.js';
import { loadResx, resx } from './resx.js';
import { loadStringsdict, stringsdict } from './stringsdict.js';
import type { FileFormat, ReadOptions } from './types.js';
import { loadXliff, xliff } from './xliff.js';
import { loadYaml, yaml } from './yaml.js';

export const FORMATS = { xliff, json, yaml, po, md: markdown, android, resx, properties, strings: appleStrings, stringsdict, arb, xcstrings } satisfies Record<string, FileFormat>;
export type KnownFormat = keyof typeof FORMATS;
export const KNOWN_FORMATS = Object.keys(FORMATS) as KnownFormat[];

const EXTENSIONS: Record<string, KnownFormat> = {
  '.xlf': 'xliff',
  '.xliff': 'xliff',
  '.xlf2': 'xliff',
  '.json': 'json',
  '.yml': 'yaml',
  '.yaml': 'yaml',
  '.po': 'po',
  '.pot': 'po',
  '.md': 'md',
  '.markdown': 'md',
  '.mdx': 'md',
  '.resx': 'resx',
  '.properties': 'properties',
  '.strings': 'strings',
  '.stringsdict': 'stringsdict',
  '.arb': 'arb',
  '.xcstrings': 'xcstrings',
};

/** The format of a file: --format when given (not `auto`), else its extension or its place. */
export function formatOf(file: string, flag: string | undefined): KnownFormat {
  if (flag !== undefined && flag.toLowerCase() !== 'auto') {
    const f = flag.toLowerCase() as KnownFormat;
    if (!KNOWN_FORMATS.includes(f)) throw new UsageError(`invalid value "${flag}" for --format: allowed ${KNOWN_FORMATS.join(', ')}, auto`);
    return f;
  }
  if (isAndroidResource(file)) return 'android';
  const f = EXTENSIONS[extname(file).toLowerCase()];
  if (!f) throw new UsageError(`cannot tell the format of ${file} from its extension: give --format ${KNOWN_FORMATS.join('|')} (known extensions: ${Object.keys(EXTENSIONS).join(' ')}; an Android res/values*/*.xml by its place)`);
  return f;
}

/** Loads the parser a format needs (the heavy ones are imported on demand). */
export async function loadFormat(format: KnownFormat, opts: ReadOptions = {}): Promise<void> {
  await loadIcu();
  // (Markdown's front matter is YAML)
  if (format === 'md' && opts.frontMatter?.length) await loadYaml();
  if (format === 'xliff') await loadXliff();
  else if (format === 'json') await loadJson();
  else if (format === 'yaml') await loadYaml();
  else if (format === 'md') await loadMarkdown();
  else if (format === 'android') await loadAndroid();
  else if (format === 'resx') await loadResx();
  else if (format === 'stringsdict') await loadStringsdict();
  else if (format === 'arb') await loadArb();
  else if (format === 'xcstrings') await loadXcstrings();
}
