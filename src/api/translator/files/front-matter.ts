// Chosen keys of a Markdown page's front matter (--front-matter title,description): the title and
// description of a Hugo or Jekyll page are text its readers see. YAML front matter (`---`) is read
// with the yaml package (each value's source range); TOML front matter (`+++`) by its `key = "..."`
// lines before the first table. A top-level string value of a chosen key is a unit; a translated
// value is written double-quoted (a TOML basic string has the same escapes); everything else in
// the front matter stays byte for byte.
import { lineAt } from './types.js';
import { valueRange, yamlLib, yamlString } from './yaml.js';

/** A front-matter value to translate. */
export interface FrontField {
  /** its key in the front matter */
  name: string;
  value: string;
  /** the range of its value in the page (quotes included), and what follows it there (a block scalar's line break) */
  start: number;
  end: number;
  suffix: string;
  line: number;
}

/** The prefix of front-matter units' keys (`front matter/title`), apart from the blocks' hashes. */
export const FRONT = 'front matter/';

/** The front matter at the start of a page: its kind and where its content is. */
function frontMatter(text: string): { kind: 'yaml' | 'toml'; start: number; end: number } | undefined {
  const fence = text.startsWith('---') ? '---' : text.startsWith('+++') ? '+++' : undefined;
  if (!fence || !/^(?:---|\+\+\+)[ \t]*\r?\n/.test(text.slice(0, 8))) return undefined;
  const start = text.indexOf('\n') + 1;
  // the closing fence: a line of its own (YAML may close with `...`)
  const close = new RegExp(`^(?:${fence === '---' ? '---|\\.\\.\\.' : '\\+\\+\\+'})[ \\t]*$`, 'm');
  const m = close.exec(text.slice(start));
  return m ? { kind: fence === '---' ? 'yaml' : 'toml', start, end: start + m.index } : undefined;
}

/** The top-level string values of `keys` in a page's front matter, in their order there. */
export function frontFields(text: string, keys: readonly string[]): FrontField[] {
  const fm = keys.length ? frontMatter(text) : undefined;
  if (!fm) return [];
  const content = text.slice(fm.start, fm.end);
  const at = (offset: number) => lineAt(text, fm.start + offset);
  if (fm.kind === 'toml') {
    const out: FrontField[] = [];
    // up to the first [table]: `title = "..."`, a basic string on one line
    const re = /^[ \t]*([A-Za-z0-9_-]+)[ \t]*=[ \t]*("(?:[^"\\\n]|\\.)*")[ \t]*(?:#.*)?$|^[ \t]*\[/gm;
    for (let m = re.exec(content); m; m = re.exec(content)) {
      if (m[1] === undefined) break;
      if (!keys.includes(m[1])) continue;
      const start = m.index + m[0].indexOf(m[2], m[1].length);
      out.push({ name: m[1], value: JSON.parse(m[2]) as string, start: fm.start + start, end: fm.start + start + m[2].length, suffix: '', line: at(m.index) });
    }
    return out;
  }
  const Y = yamlLib();
  const doc = Y.parseDocument(content);
  if (doc.errors.length || !Y.isMap(doc.contents)) return [];
  const out: FrontField[] = [];
  for (const pair of doc.contents.items) {
    const name = Y.isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (name === undefined || !keys.includes(name) || !Y.isScalar(pair.value) || typeof pair.value.value !== 'string') continue;
    const [start, end, suffix] = valueRange(content, pair.value);
    out.push({ name, value: pair.value.value, start: fm.start + start, end: fm.start + end - suffix.length, suffix, line: at(start) });
  }
  return out;
}

/** A translated front-matter value as written: double-quoted (YAML; TOML's basic string has the same escapes). */
export function frontValue(value: string): string {
  return yamlString(value);
}
