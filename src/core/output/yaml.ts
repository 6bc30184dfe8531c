// -o yaml, read the same by YAML 1.1 and 1.2 readers. The library loads only when yaml is asked for.
import { isExactNumber, type ExactNumber } from '../json.js';

export async function renderYaml(value: unknown): Promise<string> {
  if (value === undefined) return '';
  const mod = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') };
  // the bundled CommonJS build exposes its functions on `default`
  const YAML = mod.default ?? mod;
  // YAML 1.2 output that YAML 1.1 readers (PyYAML, Ruby's Psych, many CI tools) read the same: a
  // string such as yes, no, on, off or y is quoted, else they read it as a boolean; an object that
  // occurs twice (an answer shared by repeated items) is written out each time, never as an anchor
  // and alias, so that the output does not depend on how the data was put together
  return YAML.stringify(value, { lineWidth: 0, compat: 'yaml-1.1', aliasDuplicateObjects: false, customTags: [EXACT_NUMBER_TAG, AWKWARD_STRING_TAG] });
}

/**
 * Characters a YAML 1.1 reader (PyYAML, Psych) cannot take in a plain or block scalar, or reads as
 * something else: a tab (refused: "found character '\\t' that cannot start any token"), the line
 * separators NEL, LS and PS (read as line breaks), a byte order mark, and the characters it does
 * not print (DEL, C1 controls, U+FFFE/U+FFFF), which the library leaves raw even when quoting.
 */
const YAML11_AWKWARD = /[\t\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
const YAML11_RAW = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;

/**
 * A string holding one of those characters written double-quoted with every one of them escaped
 * (JSON's escapes are YAML's). `test` never matches: it only makes the library prefer this tag over
 * its own for such strings; parsing is unchanged.
 */
const AWKWARD_STRING_TAG = {
  identify: (v: unknown) => typeof v === 'string' && YAML11_AWKWARD.test(v),
  default: true,
  test: /(?!)/,
  tag: 'tag:yaml.org,2002:str',
  resolve: (text: string) => text,
  stringify: (item: { value: unknown }) =>
    JSON.stringify(item.value).replace(YAML11_RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
};

/** A number a double cannot hold (core/json's ExactNumber) written as its literal, a plain YAML number, as -o json does. */
const EXACT_NUMBER_TAG = {
  identify: isExactNumber,
  default: true,
  tag: 'tag:yaml.org,2002:float',
  resolve: (text: string) => text,
  stringify: (item: { value: unknown }) => (item.value as ExactNumber).text,
};
