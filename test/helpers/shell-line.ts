// A command line read as the shell would, for the simple forms that run in-process: one `vx`
// command (or `echo … | vx …`), its words split and quoted as sh splits them, $VARIABLES from
// the given environment, one `*` in a file name matched in the working directory. Anything else
// (pipes into other programs, redirections, substitutions) needs a shell.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Words of a simple command line, or undefined when it needs a shell (pipes, redirections, globs, substitutions). */
function words(line: string, env: Record<string, string>, cwd: string): string[] | undefined {
  const out: string[] = [];
  // words holding an unquoted `*` are matched against file names; a quoted one ('*') is kept as is
  const globbed = new Set<number>();
  let cur: string | undefined;
  const expand = (s: string) => s.replace(/\$\{?([A-Z_][A-Z0-9_]*)\}?/g, (_, n: string) => env[n] ?? '');
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      cur = (cur ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      let s = '';
      for (; line[j] !== '"'; j++) s += line[j] === '\\' && /["\\$`]/.test(line[j + 1]!) ? line[++j] : line[j];
      if (/\$\(|`/.test(s)) return undefined;
      cur = (cur ?? '') + expand(s);
      i = j;
    } else if (c === ' ') {
      if (cur !== undefined) out.push(cur);
      cur = undefined;
    } else if (c === '#' && cur === undefined) break;
    else if (c === '*' && cur !== undefined && !cur.includes('*') && !line.slice(i + 1).split(' ')[0]!.includes('/')) {
      cur += c;
      globbed.add(out.length);
    }
    else if ('|&;<>(){}*?[`~'.includes(c) || (c === '$' && line[i + 1] === '(')) return undefined;
    else if (c === '$') {
      const m = /^\$\{?([A-Z_][A-Z0-9_]*)\}?/.exec(line.slice(i))!;
      cur = (cur ?? '') + (env[m[1]!] ?? '');
      i += m[0].length - 1;
    } else cur = (cur ?? '') + (c === '\\' ? line[++i] : c);
  }
  if (cur !== undefined) out.push(cur);
  return out.flatMap((w, n) => (globbed.has(n) ? glob(w, cwd) : [w]));
}

/** `locales/en/*.json`: one `*` in a file name, matched in the working directory `cwd`, as sh does (sorted; kept as is when nothing matches). */
function glob(word: string, cwd: string): string[] {
  const slash = word.lastIndexOf('/');
  const dir = slash < 0 ? '' : word.slice(0, slash + 1);
  const [head, tail] = word.slice(slash + 1).split('*') as [string, string];
  const found = readdirSync(join(cwd, dir || '.')).filter((f) => f.startsWith(head) && f.endsWith(tail) && f.length >= head.length + tail.length && !f.startsWith('.')).sort();
  return found.length ? found.map((f) => dir + f) : [word];
}

/** `vx …` or `echo text | vx …` / `printf %s text | vx …`: the argv and standard input, else undefined. */
export function inProcess(line: string, env: Record<string, string>, cwd = '.'): { argv: string[]; stdin?: string } | undefined {
  const pipe = /^(echo|printf %s) ((?:"[^"]*"|'[^']*'|[^|"'])*?) \| (vx .*)$/.exec(line);
  const cmd = words(pipe ? pipe[3]! : line, env, cwd);
  // emulator exec runs a process of this build (its PATH shim names the running script): spawned
  if (!cmd || cmd[0] !== 'vx' || (cmd[1] === 'emulator' && cmd[2] === 'exec')) return undefined;
  if (!pipe) return { argv: cmd.slice(1) };
  const text = words(pipe[2]!, env, cwd);
  if (!text) return undefined;
  return { argv: cmd.slice(1), stdin: text.join(' ') + (pipe[1] === 'echo' ? '\n' : '') };
}
