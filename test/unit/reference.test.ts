// The command reference (docs/commands) and the manual pages (docs/man) are generated from the
// command tree: a command, option or choice added, renamed or removed without `npm run docs` fails
// here, as completions/ does in test/e2e/core-cli.test.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { referenceFiles } from '../../src/cli/reference.js';

const ROOT = join(import.meta.dirname, '..', '..');
const program = buildProgram();
const files = referenceFiles(program);
const STALE = 'is stale: run `npm run docs`';

function commands(c: Command): Command[] {
  return [c, ...c.commands.flatMap(commands)];
}

function path(c: Command): string {
  const w: string[] = [];
  for (let x: Command | null = c; x; x = x.parent) w.unshift(x.name());
  return w.join(' ');
}

/** The page that documents a command: its own, else its nearest ancestor's. */
function pageText(c: Command, dir: 'commands' | 'man'): string {
  const name = (x: Command) => path(x).replace(/ /g, '-');
  for (let x: Command | null = c; x; x = x.parent) {
    const f = files.find((f) => f.path === `docs/${dir}/${name(x)}.${dir === 'man' ? '1' : 'md'}`);
    // a | in a table cell is escaped, code spans included
    if (f) return f.text.replace(/\\\|/g, '|');
  }
  throw new Error(`no page documents ${path(c)}`);
}

describe('the command reference and manual pages', () => {
  it('match the files in docs/commands and docs/man, with none left over', () => {
    for (const f of files) {
      expect(existsSync(join(ROOT, f.path)), `${f.path} is missing: run \`npm run docs\``).toBe(true);
      expect(readFileSync(join(ROOT, f.path), 'utf8'), `${f.path} ${STALE}`).toBe(f.text);
    }
    const wanted = new Set(files.map((f) => f.path));
    for (const dir of ['docs/commands', 'docs/man']) {
      for (const f of readdirSync(join(ROOT, dir))) expect(wanted.has(`${dir}/${f}`), `${dir}/${f} documents no command: run \`npm run docs\``).toBe(true);
    }
  });

  it('are what package.json ships as manual pages', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { man: string[]; files: string[] };
    expect(manifest.man, `package.json "man" ${STALE}`).toEqual(files.filter((f) => f.path.startsWith('docs/man/')).map((f) => `./${f.path}`));
    expect(manifest.files).toEqual(expect.arrayContaining(['docs/**/*.md', 'docs/man']));
  });

  it('name every command, alias, argument, option and choice of the tree', () => {
    const all = commands(program).filter((c) => c.parent);
    expect(all.length).toBeGreaterThan(90);
    for (const c of all) {
      const md = pageText(c, 'commands');
      const man = pageText(c, 'man');
      expect(md, path(c)).toContain(`# ${path(c)}\n`);
      const roffPath = path(c).replace(/-/g, '\\-');
      expect(man.includes(`\\fB${roffPath}\\fR`) || man.includes(`.TH "${path(c).replace(/ /g, '-').toUpperCase()}"`), path(c)).toBe(true);
      for (const a of c.aliases()) expect(md, `${path(c)} alias ${a}`).toContain(`\`${a}\``);
      for (const a of c.registeredArguments) expect(md, `${path(c)} <${a.name()}>`).toContain(a.name());
      for (const o of c.options.filter((o) => !o.hidden)) {
        expect(md, `${path(c)} ${o.flags}`).toContain(`\`${o.flags}\``);
        expect(man, `${path(c)} ${o.flags}`).toContain(o.flags.replace(/-/g, '\\-'));
        for (const choice of o.argChoices ?? []) expect(md, `${path(c)} ${o.flags} ${choice}`).toMatch(new RegExp(`one of: [^|]*\\b${choice.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`));
      }
    }
    for (const o of program.options) expect(pageText(program, 'commands')).toContain(`\`${o.flags}\``);
  });

  it('escape what markdown and roff would read as markup', () => {
    for (const f of files.filter((f) => f.path.endsWith('.md'))) {
      const outsideCode = f.text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      expect(outsideCode, f.path).not.toMatch(/<(?!!--)[a-z]/i);
      // every row of a table has the columns of its header (a | left unescaped would add one)
      let columns = 0;
      for (const row of f.text.split('\n')) {
        if (!row.startsWith('|')) columns = 0;
        else if (!columns) columns = row.split(/(?<!\\)\|/).length;
        else expect(row.split(/(?<!\\)\|/).length, `${f.path}: ${row}`).toBe(columns);
      }
    }
    for (const f of files.filter((f) => f.path.endsWith('.1'))) {
      for (const line of f.text.split('\n')) expect(line.startsWith("'") || (line.startsWith('.') && !/^\.(\\"|(TH|SH|SS|TP|PP|RS|RE|nf|fi)\b)/.test(line)), `${f.path}: ${line}`).toBe(false);
    }
  });
});
