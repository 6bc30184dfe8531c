// i18next plural keys, the two ways apps write them:
// - v4 (i18next 21 and later): `key_zero/_one/_two/_few/_many/_other` (and `key_ordinal_*`), by
//   CLDR category, the forms of each language as Intl.PluralRules gives them;
// - v3 (before 21, still read by apps on `compatibilityJSON: 'v3'`): a language of two forms writes
//   `key` and `key_plural`, any other `key_0`, `key_1`, ... in the order of i18next's own table of
//   plural rules (its PluralResolver), `_0` alone for a language of one form.
// A group of siblings is one unit; a target gets its language's forms, each translated from the
// source's form of the same CLDR category, else from its `other`. The scheme is --i18next-format,
// else detected: a `key`/`key_plural` pair makes a file v3.
import type { Node } from 'jsonc-parser';
import { pluralCategories } from './plurals.js';

export type I18nextFormat = 'v3' | 'v4';

/** A plural group: the members' property nodes in source order. */
export interface Group {
  base: string;
  ordinal: boolean;
  /** CLDR category -> property node, in source order */
  forms: Map<string, Node>;
  members: Node[];
  format: I18nextFormat;
}

/** A form of a target: its category, the source form it is translated from, its key. */
export interface TargetForm {
  cat: string;
  from: number;
  key: string;
}

const V4_KEY = /^(.*?)_(ordinal_)?(zero|one|two|few|many|other)$/;

// i18next's plural sets before v21 (PluralResolver: the languages of each rule), each form named
// by the CLDR category it stands for. Two forms, `key` and `key_plural` (one, other):
const TWO = 'ach ak am arn br fil gun ln mfe mg mi oc pt pt-BR tg tl ti tr uz wa af an ast az bg bn ca da de dev el en eo es et eu fi fo fur fy gl gu ha hi hu hy ia it kk kn ku lb mai ml mn mr nah nap nb ne nl nn no nso pa pap pms ps pt-PT rm sco se si so son sq sv sw ta te tk ur yo fr is mk';
// the others, `key_0`, `key_1`, ...: the category of each index
const NUMBERED: [string, string][] = [
  ['ay bo cgg fa ht id ja jbo ka km ko ky lo ms sah su th tt ug vi wo zh', 'other'],
  ['be cnr ru uk csb pl', 'one few many'],
  ['bs hr sr cs sk lt ro', 'one few other'],
  ['dz', 'other other other'],
  ['ar', 'zero one two few many other'],
  ['cy', 'one two many other'],
  ['ga', 'one two few many other'],
  ['gd', 'one two few other'],
  ['he iw', 'one two many other'],
  ['jv', 'zero other'],
  ['kw', 'one two other other'],
  ['lv', 'one other zero'],
  ['mnk', 'zero one other'],
  ['mt', 'one few many other'],
  ['or', 'one other'],
  ['sl', 'other one two few'],
];

const V3 = new Map<string, { suffix: string; cat: string }[]>();
for (const l of TWO.split(' ')) V3.set(l, [{ suffix: '', cat: 'one' }, { suffix: '_plural', cat: 'other' }]);
for (const [langs, cats] of NUMBERED) for (const l of langs.split(' ')) V3.set(l, cats.split(' ').map((cat, i) => ({ suffix: `_${i}`, cat })));

/** A language's v3 plural forms (i18next looks the whole code up, then its language; unknown: two forms). */
export function v3Forms(lang: string): { suffix: string; cat: string }[] {
  return V3.get(lang) ?? V3.get(lang.split(/[-_]/)[0].toLowerCase()) ?? V3.get('en')!;
}

/**
 * Whether a file's keys are of v3: a `key` and `key_plural` pair of strings somewhere, and no
 * `key_other` (a file of v4 with a `_plural` left over from before is v4: i18next 21 reads its
 * `_one`/`_other`, and never the `_plural`).
 */
export function looksV3(root: Node): boolean {
  let v3 = false;
  const visit = (n: Node): boolean => {
    if (n.type === 'array') return (n.children ?? []).some(visit);
    if (n.type !== 'object') return false;
    const strings = new Set((n.children ?? []).filter((p) => p.children![1].type === 'string').map((p) => p.children![0].value as string));
    for (const k of strings) {
      if (/_(?:ordinal_)?other$/.test(k)) return true;
      if (k.endsWith('_plural') && strings.has(k.slice(0, -7))) v3 = true;
    }
    return (n.children ?? []).some((p) => visit(p.children![1]));
  };
  // (visit is true when it met a v4 plural)
  return !visit(root) && v3;
}

/** Runs of siblings whose indexes are consecutive (a group's body is rewritten as one range). */
const contiguous = (props: readonly Node[], members: readonly Node[]) => members.every((m, i) => i === 0 || props.indexOf(m) === props.indexOf(members[i - 1]) + 1);

/** The plural groups among an object's properties, by member property. */
export function pluralGroups(props: readonly Node[], format: I18nextFormat, sourceLang: string | undefined): Map<Node, Group> {
  const out = new Map<Node, Group>();
  const stringProps = props.filter((p) => p.children![1].type === 'string');
  if (format === 'v3') {
    const forms = v3Forms(sourceLang ?? 'en');
    const byKey = new Map(stringProps.map((p) => [p.children![0].value as string, p]));
    // a group is named by its first form (`key` or `key_0`)
    for (const p of stringProps) {
      const k = p.children![0].value as string;
      if (forms[0].suffix && !k.endsWith(forms[0].suffix)) continue;
      const base = k.slice(0, k.length - forms[0].suffix.length);
      const members = forms.map((f) => byKey.get(base + f.suffix));
      if (members.some((m) => !m) || (forms.length === 1 && !base)) continue;
      const g: Group = { base, ordinal: false, forms: new Map(), members: [], format: 'v3' };
      const sorted = (members as Node[]).slice().sort((a, b) => a.offset - b.offset);
      for (const m of sorted) g.forms.set(forms[members.indexOf(m)].cat, m);
      g.members = sorted;
      if (contiguous(props, sorted) && sorted.every((m) => !out.has(m))) for (const m of sorted) out.set(m, g);
    }
    return out;
  }
  const groups = new Map<string, Group>();
  for (const p of stringProps) {
    const m = V4_KEY.exec(p.children![0].value as string);
    if (!m) continue;
    const id = `${m[1]}\u0000${m[2] ?? ''}`;
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { base: m[1], ordinal: Boolean(m[2]), forms: new Map(), members: [], format: 'v4' }));
    g.forms.set(m[3], p);
    g.members.push(p);
  }
  for (const g of groups.values()) if (g.forms.has('other') && contiguous(props, g.members)) for (const m of g.members) out.set(m, g);
  return out;
}

/** The forms a target language gets for a group, each with the source form it is translated from and its key. */
export function targetForms(g: Group, lang: string): TargetForm[] {
  const srcCats = [...g.forms.keys()];
  const other = srcCats.includes('other') ? srcCats.indexOf('other') : srcCats.length - 1;
  const from = (cat: string) => (srcCats.includes(cat) ? srcCats.indexOf(cat) : other);
  if (g.format === 'v3') return v3Forms(lang).map((f) => ({ cat: f.cat, from: from(f.cat), key: g.base + f.suffix }));
  const cats = pluralCategories(lang, g.ordinal);
  // i18next's `_zero` applies to every language: kept when the source has it
  if (g.forms.has('zero') && !cats.includes('zero')) cats.unshift('zero');
  return cats.map((cat) => ({ cat, from: from(cat), key: `${g.base}_${g.ordinal ? 'ordinal_' : ''}${cat}` }));
}
