// What a target holds as other tools read it (test/helpers/validators.py: Python's XML parser and
// plistlib; Java's own java.util.Properties), so that the tests of vx's writers do not trust vx's
// readers.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './vx.js';

function withFile<T>(text: string | Buffer, name: string, f: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'vx-validate-'));
  try {
    const p = join(dir, name);
    writeFileSync(p, text);
    return f(p);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function python(kind: string, text: string | Buffer, name: string): unknown {
  return withFile(text, name, (p) => JSON.parse(execFileSync('python3', [join(ROOT, 'test', 'helpers', 'validators.py'), kind, p], { encoding: 'utf8' })));
}

export interface AndroidString {
  text: string;
  spans: [string, Record<string, string>, string][];
  translatable: boolean;
}

export function parseAndroid(text: string): { strings: Map<string, AndroidString>; plurals: Map<string, Map<string, string>>; arrays: Map<string, string[]> } {
  const r = python('android', text, 'strings.xml') as { strings: Record<string, AndroidString>; plurals: Record<string, [string, string][]>; arrays: Record<string, string[]> };
  return {
    strings: new Map(Object.entries(r.strings)),
    plurals: new Map(Object.entries(r.plurals).map(([k, v]) => [k, new Map(v)])),
    arrays: new Map(Object.entries(r.arrays)),
  };
}

export function parseResx(text: string): Record<string, { value: string | null; comment: string | null; type: string | null }> {
  return python('resx', text, 'x.resx') as Record<string, { value: string | null; comment: string | null; type: string | null }>;
}

export function parsePlist(data: string | Buffer): unknown {
  return python('plist', data, 'x.plist');
}

/** An XLIFF file as Python's XML parser reads it (it must be well-formed): each unit's target text, or null without one. */
export function parseXliff(text: string): Record<string, string | null> {
  return python('xliff', text, 'x.xlf') as Record<string, string | null>;
}

/** A YAML file as PyYAML reads it. */
export function parseYaml(text: string): unknown {
  return python('yaml', text, 'x.yml');
}

/** A .properties file as java.util.Properties loads it (ISO-8859-1 with \uXXXX escapes, or UTF-8 as ResourceBundle reads it since Java 9). */
export function loadProperties(data: Buffer, charset: 'ISO-8859-1' | 'UTF-8'): Record<string, string> {
  const src = `import java.io.*; import java.nio.charset.*; import java.util.*;
public class P { public static void main(String[] a) throws Exception {
  Properties p = new Properties();
  try (Reader r = new InputStreamReader(new FileInputStream(a[0]), Charset.forName(a[1]))) { p.load(r); }
  StringBuilder sb = new StringBuilder("{");
  boolean first = true;
  for (String k : new TreeSet<>(p.stringPropertyNames())) {
    if (!first) sb.append(','); first = false;
    sb.append(q(k)).append(':').append(q(p.getProperty(k)));
  }
  System.out.print(sb.append('}'));
}
static String q(String s) { StringBuilder b = new StringBuilder("\\""); for (char c : s.toCharArray()) { if (c == '"' || c == '\\\\') b.append('\\\\').append(c); else if (c < 0x20 || c > 0x7e) b.append(String.format("\\\\u%04x", (int) c)); else b.append(c); } return b.append('"').toString(); }
}`;
  return withFile(data, 'x.properties', (p) => JSON.parse(execFileSync('java', ['-cp', compiled('P', src), 'P', p, charset], { encoding: 'utf8' })) as Record<string, string>);
}

const classDirs = new Map<string, string>();

/** A directory holding the class compiled from `src` (javac once per test process: `java P.java` compiles at every run, ~1 s). */
function compiled(name: string, src: string): string {
  let dir = classDirs.get(src);
  if (!dir) {
    dir = mkdtempSync(join(tmpdir(), 'vx-java-'));
    const d = dir;
    process.once('exit', () => rmSync(d, { recursive: true, force: true }));
    writeFileSync(join(dir, `${name}.java`), src);
    execFileSync('javac', ['-d', dir, join(dir, `${name}.java`)]);
    classDirs.set(src, dir);
  }
  return dir;
}
