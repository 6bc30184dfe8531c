// The fidelity suite: real published examples of every operation vx covers (the resource-manager
// specification's example files, the translator SDK's recorded sessions, the business-data
// platform's API reference pages), each stored in examples/<family>/ with its source and with names
// neutralised as in the spec. Each example's request is replayed against the emulator (in-process,
// port 0, fresh state per example) and the answer is compared with the published one: the status,
// the headers that matter, and the body's shape (every field of the example present with the same
// JSON type; values that are the emulator's own data may differ, except those an example pins in
// `values`). See docs/emulator-fidelity.md.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_TERMS } from '../../src/emulator/erp/seed.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { shapeErrors, valueErrors, type ShapeOptions } from './shape.js';

interface Step {
  method: string;
  path: string;
  headers?: Record<string, string | null>;
  body?: unknown;
  rawBody?: string;
  repeatText?: { char: string; count: number };
  auth?: boolean;
  /** values to keep from the JSON answer: name -> dotted path */
  save?: Record<string, string>;
}

interface Example {
  name: string;
  family: 'translator' | 'erp' | 'lcs' | 'mgmt';
  source: { repo?: string; path?: string; page?: string; commit?: string };
  setup?: Step[];
  request: Step;
  response: {
    status: number;
    /** name -> exact value, `~regex`, or `*` (present) */
    headers?: Record<string, string>;
    body?: unknown;
    emptyBody?: boolean;
    /** dotted path -> exact value or `~regex` */
    values?: Record<string, unknown>;
    mayBeAbsent?: string[];
    mayBeEmpty?: string[];
  };
}

const DIR = fileURLToPath(new URL('examples', import.meta.url));
const EXAMPLES: Example[] = readdirSync(DIR)
  .flatMap((family) => readdirSync(join(DIR, family)).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(DIR, family, f), 'utf8')) as Example))
  .sort((a, b) => a.name.localeCompare(b.name));

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu?.close();
});

/**
 * Placeholders: {sub}, {company}, {paymentTerms}, {<entity set>} (its first record), {<entity set>:<value>}
 * (its first record with a field of that value), and values saved by setup steps.
 */
function resolver(saved: Record<string, string>): (s: string) => string {
  const company = emu.state.erp.defaultCompany as string;
  const data = emu.state.erp.data[company] as Record<string, ({ id: string } & Record<string, unknown>)[]>;
  const known: Record<string, string> = { sub: emu.state.mgmt.defaultSubscription, company, paymentTerms: PAYMENT_TERMS[0].id, ...saved };
  return (s) =>
    s.replace(/\{(\w+)(?::([^{}]+))?\}/g, (m, name: string, value?: string) => {
      if (value === undefined && name in known) return known[name];
      const row = data[name]?.find((r) => value === undefined || Object.values(r).includes(value));
      return row ? row.id : m;
    });
}

function deep<T>(v: T, f: (s: string) => string): T {
  if (typeof v === 'string') return f(v) as T;
  if (Array.isArray(v)) return v.map((x) => deep(x, f)) as T;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x, f)])) as T;
  return v;
}

async function send(family: Example['family'], step: Step, resolve: (s: string) => string): Promise<Response> {
  const headers: Record<string, string> = {};
  if (step.auth !== false) {
    if (family === 'translator') headers['vendor-subscription-key'] = emu.key;
    else headers.authorization = `Bearer ${emu.token}`;
  }
  if (family === 'erp' && (step.method === 'PATCH' || step.method === 'DELETE')) headers['if-match'] = '*';
  let body: string | undefined;
  if (step.rawBody !== undefined) body = step.rawBody;
  else if (step.repeatText) body = JSON.stringify([{ text: step.repeatText.char.repeat(step.repeatText.count) }]);
  else if (step.body !== undefined) body = JSON.stringify(deep(step.body, resolve));
  if (body !== undefined) headers['content-type'] = 'application/json';
  for (const [k, v] of Object.entries(step.headers ?? {})) {
    if (v === null) delete headers[k.toLowerCase()];
    else headers[k.toLowerCase()] = v;
  }
  return fetch(`${emu.url}/${family}${resolve(step.path)}`, { method: step.method, headers, body });
}

function pick(v: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), v);
}

describe('the emulator answers the published examples like the real services', () => {
  it('holds at least 40 examples, from all three families, errors included, each with its source', () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(EXAMPLES.map((e) => (e.family === 'lcs' ? 'erp' : e.family)))).toEqual(new Set(['translator', 'erp', 'mgmt']));
    expect(EXAMPLES.filter((e) => e.response.status >= 400).length).toBeGreaterThanOrEqual(10);
    for (const e of EXAMPLES) expect(Boolean(e.source.page || (e.source.repo && e.source.path)), e.name).toBe(true);
    // names neutralised as in the spec
    const text = EXAMPLES.map(({ source: _source, ...e }) => JSON.stringify(e)).join('\n');
    expect(text).not.toMatch(/Microsoft\.(Capacity|ResourceHealth|ApiManagement|Compute|NAV)|Ocp-Apim|x-ms-version/);
  });

  for (const ex of EXAMPLES) {
    it(`${ex.name} (${ex.source.path ?? ex.source.page})`, async () => {
      emu.reset();
      const saved: Record<string, string> = {};
      for (const step of ex.setup ?? []) {
        const r = await send(ex.family, step, resolver(saved));
        const text = await r.text();
        expect(r.status, `setup ${step.method} ${step.path}: ${text}`).toBeLessThan(400);
        for (const [name, path] of Object.entries(step.save ?? {})) saved[name] = String(pick(JSON.parse(text), path));
      }
      const resolve = resolver(saved);
      const res = await send(ex.family, ex.request, resolve);
      const text = await res.text();
      const problems: string[] = [];
      if (res.status !== ex.response.status) problems.push(`status ${res.status}, published ${ex.response.status}: ${text.slice(0, 300)}`);
      for (const [name, want] of Object.entries(ex.response.headers ?? {})) {
        const got = res.headers.get(name);
        if (got === null) problems.push(`header ${name} missing`);
        else if (want === '*') continue;
        else if (want.startsWith('~') ? !new RegExp(want.slice(1)).test(got) : got !== want) problems.push(`header ${name}: ${JSON.stringify(got)}, published ${JSON.stringify(want)}`);
      }
      if (ex.response.emptyBody && text !== '') problems.push(`a body where the published answer has none: ${text.slice(0, 200)}`);
      if (ex.response.body !== undefined || ex.response.values) {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          problems.push(`the body is not JSON: ${text.slice(0, 200)}`);
        }
        if (json !== undefined) {
          const opts: ShapeOptions = { mayBeAbsent: ex.response.mayBeAbsent, mayBeEmpty: ex.response.mayBeEmpty };
          if (ex.response.body !== undefined) problems.push(...shapeErrors(ex.response.body, json, opts));
          problems.push(...valueErrors(deep(ex.response.values ?? {}, resolve), json));
        }
      }
      expect(problems, `${ex.name}\n${problems.join('\n')}`).toEqual([]);
    });
  }
});
