// The build, shaped for start-up time (see bench/README.md).
//
// dist/main.cjs, translate.cjs, erp.cjs, mgmt.cjs: vx's own code (main, the command tree, the run
//   functions, core, api, model) and the small library it always needs (commander), one
//   CommonJS file per part: main.cjs holds what every command needs and what families share, each
//   family's file what only its commands run (see "Bundle 1" below). CommonJS files are the
//   cheapest thing Node 20 loads: no ESM loader, no per-file resolution, builtins through plain
//   require(). The run functions stay lazy inside each (each `await import('./x-run.js')` becomes
//   a lazily initialised module of the same file, or of the family's), so a command only executes
//   what it uses. bin/vx.js runs each from its V8 code cache.
// dist/vendor/*.js: the heavy libraries, loaded only by the commands that need them (undici,
//   conf, @inquirer/prompts, yaml, JMESPath, string-width, ...) and the emulator, as an ESM bundle
//   with code splitting. Every bare `await import('pkg')` in src/ lands here automatically.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { builtinModules } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// `prepare` runs on `npm ci`/`npm install` in a clone and when npm installs vx from a git URL
// (then with the dev dependencies, which hold every bundled library); `npm pack`/`npm publish`
// run `prepack` first, which already built, so the `prepare` that follows it does not build again.
if (process.argv.includes('--unless-packing') && ['pack', 'publish'].includes(process.env.npm_command ?? '')) process.exit(0);

const root = dirname(fileURLToPath(import.meta.url));
const src = join(root, 'src');
const dist = join(root, 'dist');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const define = { __VX_VERSION__: JSON.stringify(pkg.version) };

// `node build.mjs --reference` (npm run docs): writes the command reference and the manual pages
// (src/cli/reference.ts) from the command tree, removes the pages of commands that are gone, and
// lists the manual pages in package.json's "man" (npm links those, and only those, on install).
// dist/ is left alone: the generator is bundled on its own, next to node_modules so that the
// libraries it imports resolve.
if (process.argv.includes('--reference')) {
  const cache = join(root, 'node_modules', '.cache', 'vx-reference.mjs');
  await build({
    stdin: {
      contents: "import { buildProgram } from './src/cli/program.ts';\nimport { referenceFiles } from './src/cli/reference.ts';\nexport const files = referenceFiles(buildProgram());\n",
      resolveDir: root,
      loader: 'ts',
    },
    outfile: cache,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    define,
    logLevel: 'warning',
  });
  const { files } = await import(pathToFileURL(cache).href);
  const wanted = new Set(files.map((f) => f.path));
  for (const dir of ['docs/commands', 'docs/man']) {
    mkdirSync(join(root, dir), { recursive: true });
    for (const f of readdirSync(join(root, dir))) if (!wanted.has(`${dir}/${f}`)) rmSync(join(root, dir, f));
  }
  for (const f of files) writeFileSync(join(root, f.path), f.text);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  manifest.man = files.filter((f) => f.path.startsWith('docs/man/')).map((f) => `./${f.path}`);
  writeFileSync(join(root, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  rmSync(cache);
  console.log(`wrote ${files.length} files of the command reference (docs/commands, docs/man)`);
  process.exit(0);
}
// `--if-stale` (npm test): nothing to do when dist/ was built after the last change of every file
// it is made of (the stamp a whole build leaves in dist/): in a clone, `npm ci` built it already
const STAMP = join(dist, '.built');
if (process.argv.includes('--if-stale') && builtAfter(STAMP, [src, join(root, 'bin'), join(root, 'build.mjs'), join(root, 'package.json'), join(root, 'package-lock.json')])) {
  console.log('dist/ is up to date');
  process.exit(0);
}

/** Whether `stamp` is newer than every file of `paths` (files, or directories read whole). */
function builtAfter(stamp, paths) {
  let built;
  try {
    built = statSync(stamp).mtimeMs;
  } catch {
    return false;
  }
  const newer = (p) => {
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) return false;
    if (!st.isDirectory()) return st.mtimeMs >= built;
    return st.mtimeMs >= built || readdirSync(p).some((f) => newer(join(p, f)));
  };
  return !paths.some(newer);
}

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
rmSync(dist, { recursive: true, force: true });

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

// In an ES module every `import ... from 'node:x'` builds an ESM facade of the builtin (~1 ms
// each); the vendor bundle gets its builtins through require() instead (the banner provides one).
const builtinsViaRequire = {
  name: 'builtins-via-require',
  setup(b) {
    b.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
      if (!BUILTINS.has(args.path)) return undefined;
      if (args.namespace === 'vx-builtin') return { path: args.path, external: true };
      return { path: args.path, namespace: 'vx-builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'vx-builtin' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path.startsWith('node:') ? args.path : `node:${args.path}`)});`,
      loader: 'js',
    }));
  },
};

// Packages with native code cannot be bundled: they stay runtime dependencies (package.json
// "dependencies"), imported lazily by name from their vendor entry. lmdb (the translation memory's
// store) loads its prebuilt binary from @lmdb/lmdb-<platform>, installed from the registry with it.
const NATIVE = new Set(['lmdb']);

// Small libraries a hot command needs stay in vx's own files, still loaded only when imported (esbuild
// turns the dynamic import into a lazily run module of the same file): the first import from
// dist/vendor starts Node's ESM loader, ~6 ms, a third of what `erp import` of 10,000 rows spends
// on its CSV. papaparse is ~20 KB minified.
const INLINE = new Set(['papaparse']);

// Bundle 1. Dynamic imports of packages and of the emulator become imports of vendor entries.
const vendor = new Map(); // out name -> absolute entry file
const emulatorDir = join(src, 'emulator') + '/';
const splitVendor = {
  name: 'split-vendor',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== 'dynamic-import' || BUILTINS.has(args.path) || INLINE.has(args.path)) return undefined;
      let name;
      let file;
      if (/^\.\.?\//.test(args.path)) {
        file = resolve(dirname(args.importer), args.path).replace(/\.js$/, '.ts');
        if (!file.startsWith(emulatorDir)) return undefined; // vx's own code stays in its parts
        name = 'emulator';
      } else {
        name = args.path.replace(/^@/, '').replace(/[^a-zA-Z0-9.-]+/g, '-');
        // a package with a native binary stays a package: its entry imports it by name at run time
        file = NATIVE.has(args.path) ? args.path : fileURLToPath(import.meta.resolve(args.path));
      }
      vendor.set(name, file);
      return { path: `./vendor/${name}.js`, external: true };
    });
  },
};
// Bundle 1, split by family: vx's own code is one CommonJS file per part, dist/<part>.cjs.
// main.cjs holds the entry, the command tree, core and everything two families share (so a class
// has one copy, and instanceof holds wherever it is checked); translate.cjs, erp.cjs and mgmt.cjs
// hold the code only that family's commands run (the translator's api alone is a third of vx), so
// a command reads and deserializes only main and its own family. Each stays CommonJS (Node's ESM
// loader costs ~6 ms to start) and has its own code cache. A part's modules reach another part's
// through `vx:<part>:<module>` (bin/vx.js resolves it: require() for a static import, __vxImport
// for a dynamic one); each part exports `modules`, the lazy loaders of the modules others use.
const FAMILIES = { translate: /^src\/(cli\/translate|api\/translator)\//, erp: /^src\/(cli\/erp|api\/erp)\//, mgmt: /^src\/(cli\/mgmt|api\/mgmt)\// };
const bundleOptions = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.19',
  sourcemap: 'linked',
  minifySyntax: true,
  // a quarter less source to read and keep in memory at every start (names stay: errors and
  // stack traces keep them)
  minifyWhitespace: true,
  legalComments: 'none',
  define,
  logLevel: 'warning',
};
const { metafile } = await build({ ...bundleOptions, entryPoints: [join(src, 'main.ts')], outdir: dist, write: false, metafile: true, plugins: [lazyChildProcess, splitVendor] });
const parts = partition(metafile.inputs);
const resolved = resolvedImports(metafile.inputs);
await Promise.all(
  [...new Set(parts.owner.values())].map(async (name) => {
    const outfile = join(dist, `${name}.cjs`);
    await build({
      ...bundleOptions,
      stdin: { contents: partEntry(name, parts), resolveDir: root, loader: 'js', sourcefile: `vx-${name}-entry.js` },
      outfile,
      plugins: [lazyChildProcess, splitVendor, partBoundary(name, parts)],
    });
    finishPart(outfile);
  }),
);

/**
 * A part as bin/vx.js compiles it. It runs from a V8 code cache, under which Node 20 has no
 * dynamic-import hook: the launcher provides __vxImport (relative to dist/; it unwraps the vendor
 * namespaces and resolves the `vx:` modules of the other parts). The file is the CommonJS wrapper
 * function itself, on a line of its own (the source map gets the line), so that the launcher
 * compiles the string it read, not a concatenation V8 would copy again. Non-ASCII characters
 * (esbuild leaves them in regular expressions) are escaped: one of them makes the whole source a
 * two-byte string, twice the memory.
 */
function finishPart(outfile) {
  const code = readFileSync(outfile, 'utf8')
    .replaceAll(/\bimport\((?=["'])/g, '__vxImport(')
    .replaceAll(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  writeFileSync(outfile, `(function (exports, require, module, __filename, __dirname) {\n${code}\n})`);
  const map = JSON.parse(readFileSync(`${outfile}.map`, 'utf8'));
  writeFileSync(`${outfile}.map`, JSON.stringify({ ...map, mappings: `;${map.mappings}` }));
}

/**
 * Which part each module of vx's graph goes to. main: what src/main.ts reaches (statically, or
 * through dynamic imports that are not a family's), and any module two families reach. A family:
 * the modules only it reaches from the dynamic imports of its files (the commands' run modules).
 */
function partition(inputs) {
  const edges = (f) => (inputs[f]?.imports ?? []).filter((i) => !i.external && i.path in inputs);
  const familyOf = (f) => Object.keys(FAMILIES).find((n) => FAMILIES[n].test(f));
  const reach = (starts, stop) => {
    const seen = new Set();
    const todo = [...starts];
    while (todo.length) {
      const f = todo.pop();
      if (seen.has(f)) continue;
      seen.add(f);
      for (const i of edges(f)) if (!seen.has(i.path) && !stop(i)) todo.push(i.path);
    }
    return seen;
  };
  const targets = new Set(Object.keys(inputs).flatMap((f) => edges(f).filter((i) => i.kind === 'dynamic-import').map((i) => i.path)));
  const isFamilyTarget = (i, name) => i.kind === 'dynamic-import' && familyOf(i.path) !== undefined && familyOf(i.path) !== name;
  const main = reach(['src/main.ts'], (i) => isFamilyTarget(i, undefined));
  const owner = new Map([...main].map((f) => [f, 'main']));
  const reachedBy = new Map();
  for (const name of Object.keys(FAMILIES)) {
    const starts = [...targets].filter((f) => familyOf(f) === name && !main.has(f));
    for (const f of reach(starts, (i) => main.has(i.path) || isFamilyTarget(i, name))) reachedBy.set(f, [...(reachedBy.get(f) ?? []), name]);
  }
  for (const [f, names] of reachedBy) owner.set(f, names.length === 1 ? names[0] : 'main');
  // the modules each part must hand to the others: those another part's modules import
  const exported = new Map();
  for (const [f, part] of owner) {
    for (const i of edges(f)) {
      const to = owner.get(i.path);
      if (to !== part) exported.set(to, new Set([...(exported.get(to) ?? []), i.path]));
    }
  }
  return { owner, exported };
}

/** A part's entry: its `modules` (loaders of the modules other parts import); main also runs src/main.ts. */
function partEntry(name, { exported }) {
  const loaders = [...(exported.get(name) ?? [])].map((f) => `  ${JSON.stringify(f)}: () => require(${JSON.stringify(join(root, f))}),`);
  return `exports.modules = {\n${loaders.join('\n')}\n};\n${name === 'main' ? `require(${JSON.stringify(join(src, 'main.ts'))});\n` : ''}`;
}

/**
 * Where bundle 1 resolved each import (`<importer>\0<specifier>` -> the module, as its metafile names
 * both): the parts' builds find their modules there instead of asking esbuild, whose build.resolve()
 * from a plugin costs ~60 ms of CPU a call (a hundred calls: six of the build's ten seconds).
 */
function resolvedImports(inputs) {
  const found = new Map();
  for (const [f, input] of Object.entries(inputs)) for (const i of input.imports) if (!i.external && i.original !== undefined) found.set(`${f}\0${i.original}`, i.path);
  return found;
}

/** Imports of a module another part holds become the external `vx:<part>:<module>`. */
function partBoundary(name, { owner }) {
  return {
    name: 'part-boundary',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === 'vx-inner' || BUILTINS.has(args.path) || args.namespace !== 'file') return undefined;
        // as bundle 1 resolved it; a part's entry requires its modules by absolute path; vx's own
        // `./x.js` is `./x.ts`; else esbuild is asked
        let rel =
          resolved.get(`${relative(root, args.importer)}\0${args.path}`) ??
          (isAbsolute(args.path) ? relative(root, args.path) : /^\.\.?\//.test(args.path) ? relative(root, resolve(args.resolveDir, args.path)).replace(/\.js$/, '.ts') : undefined);
        if (rel === undefined || !owner.has(rel)) {
          const found = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'vx-inner' });
          if (found.errors.length || found.external) return undefined;
          rel = relative(root, found.path);
        }
        const part = owner.get(rel);
        if (part === undefined || part === name) return undefined;
        if (args.kind !== 'dynamic-import' && name === 'main') throw new Error(`main imports ${rel} of ${part}.cjs statically`);
        return { path: `vx:${part}:${rel}`, external: true };
      });
    },
  };
}

// Bundle 2: each vendor entry re-exports its module's namespace as `__vxNs`, so CommonJS and ES
// packages alike arrive with their named exports, as `await import('pkg')` gives them in source.
const vendorEntry = {
  name: 'vendor-entry',
  setup(b) {
    b.onResolve({ filter: /^vx-vendor:/ }, (args) => ({ path: args.path.slice('vx-vendor:'.length), namespace: 'vx-vendor' }));
    b.onLoad({ filter: /.*/, namespace: 'vx-vendor' }, (args) => ({
      // a native package through require(): its CommonJS build is one file (lmdb: ~25 ms to load,
      // against ~50 ms for the dozen modules of its ES build)
      contents: NATIVE.has(vendor.get(args.path))
        ? `export const __vxNs = require(${JSON.stringify(vendor.get(args.path))});\n`
        : `import * as ns from ${JSON.stringify(vendor.get(args.path))};\nexport const __vxNs = ns;\n`,
      resolveDir: root,
      loader: 'js',
    }));
  },
};
await build({
  entryPoints: Object.fromEntries([...vendor.keys()].map((n) => [n, `vx-vendor:${n}`])),
  outdir: join(dist, 'vendor'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: 'linked',
  minifySyntax: true,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  external: [...NATIVE],
  define,
  plugins: [lazyChildProcess, builtinsViaRequire, vendorEntry],
  // CommonJS dependencies bundled into ESM need a require().
  banner: { js: "import { createRequire as __vxCreateRequire } from 'node:module'; const require = __vxCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});

// The code caches of the parts, made in one process that runs the root help and then a whole command
// of each family against the emulator on loopback: `vx mgmt quota get` (the cheapest command that
// sends a request, and the one scripts call in loops), `vx translate` of a file with a glossary and
// `vx translate file` of a JSON catalogue (the translation pipeline, the glossary, the locale files),
// and `vx erp currencies list`, so that the tree, the help, the config, the HTTP transport, the
// renderer and each family's common path come compiled (a short `vx translate` starts ~5 ms sooner
// than with its part's top level alone; the root help is no slower for the larger main cache).
// Whatever those runs do not compile (another command's adapter) is compiled on first use, as
// without a cache. A cache from another Node version is rejected by V8 and ignored.
await writeCodeCache();
// (written last: a build that fails on the way leaves no stamp, and the next --if-stale builds)
writeFileSync(STAMP, '');

async function writeCodeCache() {
  const { startEmulator } = (await import(pathToFileURL(join(dist, 'vendor', 'emulator.js')).href)).__vxNs;
  const emu = await startEmulator({ port: 0 });
  const configDir = mkdtempSync(join(tmpdir(), 'vx-build-'));
  try {
    // the user's own VX_* settings (a profile, an output format) stay out of the run
    const own = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VX_')));
    const input = join(configDir, 'lines.txt');
    const glossary = join(configDir, 'terms.csv');
    writeFileSync(input, 'Good morning\nThe account statement is ready\n');
    writeFileSync(glossary, 'en,de\naccount statement,Kontoauszug\n');
    const locale = join(configDir, 'en.json');
    writeFileSync(locale, '{"greeting": "Hello {{name}}", "statement": "Your account statement is ready"}\n');
    const lines = [
      ['--help'],
      ['mgmt', 'quota', 'get', 'cores', '--provider', 'Vendor.Compute', '--location', 'eastus', '-o', 'json'],
      ['translate', '--from', 'en', '--to', 'de', '--file', input, '--glossary', glossary],
      ['translate', 'file', locale, '--to', 'de', '--out-dir', join(configDir, 'out')],
      ['erp', 'currencies', 'list', '-o', 'json'],
    ];
    const env = { ...own, ...emu.env(), VX_CONFIG_DIR: configDir, VX_WRITE_CODE_CACHE: JSON.stringify(lines) };
    const code = await new Promise((done, fail) => {
      const child = spawn(process.execPath, [join(root, 'bin', 'vx.js')], { env, stdio: 'ignore' });
      child.on('error', fail);
      child.on('close', done);
    });
    if (code !== 0) throw new Error(`the run that writes the code caches of dist/ exited ${code}`);
  } finally {
    await emu.close();
    rmSync(configDir, { recursive: true, force: true });
  }
}
