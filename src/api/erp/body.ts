// Request bodies of create/update, typed by the entity set's model: `--data` (a JSON object)
// merged with `--set field=value` (which wins). Unknown and read-only fields and malformed
// values are usage errors naming the field and its type; nothing is sent.
import { UsageError } from '../../core/errors.js';
import { readJsonArg } from '../../core/input.js';
import { ExactNumber, isExactNumber, isSafeLiteral } from '../../core/json.js';
import { checkValue, parseFieldText, typeText, type ErpSet, type FieldDef } from '../../model/erp/index.js';

const LITERAL = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * A number a double cannot hold (an amount or an id of more than 15 digits) is kept exact as an
 * ExactNumber: sent as written, never rounded. Undefined for any other value (checked as usual).
 */
export function exactNumber(f: FieldDef, v: unknown): ExactNumber | undefined {
  if (f.type !== 'decimal' && f.type !== 'integer') return undefined;
  const text = isExactNumber(v) ? v.text : typeof v === 'string' ? v.trim() : undefined;
  if (text === undefined || !LITERAL.test(text) || isSafeLiteral(text)) return undefined;
  if (f.type === 'integer' && !/^-?\d+$/.test(text)) return undefined;
  return isExactNumber(v) ? v : new ExactNumber(text);
}

export type BodyMode = 'create' | 'update';

function fieldOf(set: ErpSet, name: string, where: string) {
  const f = set.fields[name];
  if (!f) {
    const writable = Object.entries(set.fields).filter(([, d]) => !d.readOnly).map(([n]) => n);
    throw new UsageError(`${where}: unknown field "${name}" of a ${set.singular}; writable fields: ${writable.join(', ') || 'none'}`);
  }
  if (f.readOnly) throw new UsageError(`${where}: field "${name}" of a ${set.singular} is read-only (set by the service)`);
  return f;
}

/** Parses repeated `field=value` texts into a typed object. */
export function parseSets(set: ErpSet, pairs: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const i = pair.indexOf('=');
    if (i <= 0) throw new UsageError(`--set "${pair}": expected field=value`);
    const name = pair.slice(0, i).trim();
    const f = fieldOf(set, name, `--set ${name}`);
    try {
      out[name] = exactNumber(f, pair.slice(i + 1)) ?? parseFieldText(f, pair.slice(i + 1));
    } catch (e) {
      throw new UsageError(`--set ${name}: invalid value "${pair.slice(i + 1)}": ${(e as Error).message}`);
    }
  }
  return out;
}

/** Checks a --data object: `@odata.*` annotations are dropped, every other key must be a writable field of the right type. */
export function checkData(set: ErpSet, data: unknown): Record<string, unknown> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new UsageError('--data: expected a JSON object');
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(data as Record<string, unknown>)) {
    if (name.startsWith('@odata.')) continue;
    const f = fieldOf(set, name, `--data field "${name}"`);
    const problem = isExactNumber(v) ? (exactNumber(f, v) ? undefined : `expected ${typeText(f)}`) : checkValue(f, v);
    if (problem) {
      let got: string;
      try {
        got = JSON.stringify(v) ?? String(v);
      } catch {
        got = 'a value nested too deeply to show';
      }
      throw new UsageError(`--data field "${name}": ${problem} (got ${got.length > 80 ? `${got.slice(0, 77)}…` : got})`);
    }
    out[name] = v;
  }
  return out;
}

/** The body of a create or update: --data merged with --set (--set wins); create checks required fields. */
export function buildBody(set: ErpSet, mode: BodyMode, data: unknown, sets: readonly string[] = []): Record<string, unknown> {
  const body = { ...(data === undefined ? {} : checkData(set, data)), ...parseSets(set, sets) };
  if (mode === 'create') {
    const missing = Object.entries(set.fields).filter(([n, f]) => f.required && (body[n] === undefined || body[n] === null)).map(([n, f]) => `${n} (${typeText(f)})`);
    if (missing.length) throw new UsageError(`a new ${set.singular} needs ${missing.join(', ')}; give it with --set or --data`);
  } else if (Object.keys(body).length === 0) {
    throw new UsageError('nothing to update: give fields with --set field=value or --data');
  }
  return body;
}

/** The body of a create or update from its flags: --data (JSON text, @file, or - for `stdin`) and --set. */
export async function bodyFromFlags(set: ErpSet, mode: BodyMode, flags: { data?: string; set?: readonly string[] }, stdin: NodeJS.ReadableStream): Promise<Record<string, unknown>> {
  const data = flags.data === undefined ? undefined : await readJsonArg(flags.data, stdin);
  return buildBody(set, mode, data, flags.set);
}
