// The shape of the code (docs/architecture.md), held by a test: the layers' arrows point down
// (cli -> api -> core, api and emulator -> model), the emulator is written from the model and
// never from the client, no import cycle anywhere, no file over 500 lines, and the environment is
// read in one module (cli/factory.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..', '..', 'src');

function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

const FILES = sources().map((f) => relative(SRC, f));
const TEXT = new Map(FILES.map((f) => [f, readFileSync(join(SRC, f), 'utf8')]));

/** The files of src a file imports (static, `export ... from`, `import type` and `import()`), relative to src. */
function importsOf(file: string): string[] {
  const text = TEXT.get(file)!;
  const found = new Set<string>();
  const specifiers = /(?:^|\n)\s*(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(specifiers)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec.startsWith('.')) continue;
    const target = relative(SRC, resolve(SRC, dirname(file), spec)).replace(/\.js$/, '.ts');
    if (TEXT.has(target)) found.add(target);
    else if (TEXT.has(join(target.replace(/\.ts$/, ''), 'index.ts'))) found.add(join(target.replace(/\.ts$/, ''), 'index.ts'));
  }
  return [...found];
}

const GRAPH = new Map(FILES.map((f) => [f, importsOf(f)]));
const layer = (f: string) => (f.includes('/') ? f.slice(0, f.indexOf('/')) : f);

describe('the house', () => {
  it('reads the imports it checks (the graph is not empty)', () => {
    expect(GRAPH.get('main.ts')).toEqual(expect.arrayContaining(['cli/factory.ts', 'cli/run.ts']));
    expect([...GRAPH.values()].flat().length).toBeGreaterThan(FILES.length);
  });

  it('arrows point down: core imports no api, cli or emulator; api no cli or emulator; model nothing but model', () => {
    const allowed: Record<string, readonly string[]> = {
      core: ['core', 'model'],
      api: ['api', 'core', 'model'],
      model: ['model'],
      emulator: ['emulator', 'model'],
      cli: ['cli', 'api', 'core', 'model', 'emulator'],
    };
    const wrong: string[] = [];
    for (const [file, targets] of GRAPH) {
      const from = layer(file);
      for (const t of targets) if (allowed[from] && !allowed[from].includes(layer(t))) wrong.push(`${file} -> ${t}`);
    }
    expect(wrong).toEqual([]);
  });

  it('only the emulator command imports the emulator', () => {
    const importers = [...GRAPH].filter(([f, ts]) => layer(f) !== 'emulator' && ts.some((t) => layer(t) === 'emulator')).map(([f]) => f);
    expect(importers.every((f) => f.startsWith('cli/emulator'))).toBe(true);
  });

  it('no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (f: string) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        cycles.push([...path.slice(path.indexOf(f)), f].join(' -> '));
        return;
      }
      state.set(f, 'open');
      path.push(f);
      for (const t of GRAPH.get(f)!) visit(t);
      path.pop();
      state.set(f, 'done');
    };
    for (const f of FILES) visit(f);
    expect(cycles).toEqual([]);
  });

  it('no file over 500 lines', () => {
    const long = FILES.map((f) => [f, TEXT.get(f)!.split('\n').length] as const).filter(([, n]) => n > 500);
    expect(long).toEqual([]);
  });

  it('the environment is read in one module: cli/factory.ts', () => {
    const readers = FILES.filter((f) => f !== 'cli/factory.ts' && /process\.env\b/.test(TEXT.get(f)!.replace(/\/\/.*$/gm, '')));
    expect(readers).toEqual([]);
  });
});
