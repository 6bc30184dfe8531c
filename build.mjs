// Two bundles, shaped for start-up time:
//
// 1. dist/main.cjs: the launcher's one file. main.ts, commander and the command tree (declarations
//    only), as CommonJS: a single CommonJS file is the cheapest thing Node 20 can load (the ESM
//    loader and every extra file cost milliseconds on each start). Every `await import('./x.js')`
//    of the tree is left as a dynamic import of the second bundle.
// 2. dist/lazy/**: ESM with code splitting, one entry per module the tree imports on demand (the
//    run functions, the context, the error reporter, the emulator); the heavy libraries (undici,
//    conf, inquirer, yaml, jmespath) land in chunks that only the commands needing them load.
//
// The two bundles share no mutable state: the tree hands the run functions plain values, and
// errors are recognised by a brand, not by class identity (see core/errors.ts).
import { build } from 'esbuild';
import { rmSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const src = join(root, 'src');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const define = { __VX_VERSION__: JSON.stringify(pkg.version) };
rmSync(join(root, 'dist'), { recursive: true, force: true });

// commander requires node:child_process at load time for executable subcommands, which vx does
// not use; loading it costs ~4 ms of every start. Give commander a lazy stand-in instead.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) ? { path: 'lazy-child-process', namespace: 'vx-lazy' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'vx-lazy' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_t, k) => require('node:child_process')[k] });",
      loader: 'js',
    }));
  },
};

/** src/a/b.js (as written in an import) -> the .ts file it names. */
function sourceOf(importer, spec) {
  const p = resolve(dirname(importer), spec);
  const ts = p.replace(/\.js$/, '.ts');
  return existsSync(ts) ? ts : p;
}

// Bundle 1: the tree. Relative dynamic imports become imports of bundle 2's entries.
const lazyEntries = new Set([join(src, 'emulator/index.ts')]);
const splitLazy = {
  name: 'split-lazy',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const file = sourceOf(args.importer, args.path);
      lazyEntries.add(file);
      const out = `./lazy/${relative(src, file).replace(/\.ts$/, '.js').split('\\').join('/')}`;
      return { path: out, external: true };
    });
  },
};
await build({
  entryPoints: { main: join(src, 'main.ts') },
  outdir: join(root, 'dist'),
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.19',
  sourcemap: 'linked',
  minifySyntax: true,
  legalComments: 'none',
  define,
  plugins: [lazyChildProcess, splitLazy],
  logLevel: 'warning',
});

// bin/vx.js runs main.cjs from a V8 code cache, under which Node 20 has no dynamic-import hook:
// the launcher provides __vxImport, resolving against dist/main.cjs.
const mainFile = join(root, 'dist', 'main.cjs');
const mainSource = readFileSync(mainFile, 'utf8');
const rewritten = mainSource.replaceAll('import("./lazy/', '__vxImport("./lazy/');
if (/\bimport\(/.test(rewritten.replace(/\/\/.*$/gm, ''))) throw new Error('build: an import() in main.cjs is not an import of a lazy module');
writeFileSync(mainFile, rewritten);

// Bundle 2: everything loaded on demand.
await build({
  entryPoints: [...lazyEntries],
  outbase: src,
  outdir: join(root, 'dist', 'lazy'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: 'linked',
  minifySyntax: true,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  define,
  plugins: [lazyChildProcess],
  // CommonJS dependencies bundled into ESM need a require().
  banner: { js: "import { createRequire as __vxCreateRequire } from 'node:module'; const require = __vxCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});

// The code cache of main.cjs, made by running the help of the root and of each noun once, so the
// functions every start needs are compiled into it.
execFileSync(process.execPath, [join(root, 'bin', 'vx.js'), '--help'], {
  env: { ...process.env, VX_WRITE_CODE_CACHE: '1' },
  stdio: 'ignore',
});
