#!/usr/bin/env node
// The launcher: run the built entry, dist/main.cjs, and the part of dist/ of the family a command
// runs (translate.cjs, erp.cjs, mgmt.cjs) when it first needs it. Each part is compiled with the V8
// code cache the build writes next to it (<part>.cjs.cache), which saves several milliseconds of
// every start; a missing or rejected cache only means an ordinary compile. Node 20 loses the
// dynamic-import hook of a script compiled from a cache, so the parts' on-demand imports (the
// vendor bundle, node: builtins, another part's modules) go through __vxImport, defined here (see
// build.mjs).
'use strict';
const { readdirSync, readFileSync, writeFileSync, writeSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');
// the loader's own class: require('node:module') would also load the ESM loader and the source
// map support behind the public module (~0.3 ms)
const Module = module.constructor;
const { pathToFileURL } = require('node:url');

// `vx --version` alone needs nothing but the version.
// A reader that went away (`vx --version | true`) is a quiet end, as for every command; any other
// failure (a full disk) is said, exit 1.
if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V')) {
  const line = Buffer.from(`${require('../package.json').version}\n`);
  for (let off = 0; off < line.length; ) {
    try {
      off += writeSync(1, line, off);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      if (e.code !== 'EPIPE') {
        writeFileSync(2, `vx: cannot write to standard output: ${e.message}; the output is incomplete\n`);
        process.exitCode = 1;
      }
      break;
    }
  }
  return;
}
const dist = join(__dirname, '..', 'dist');
const base = pathToFileURL(join(dist, 'main.cjs'));
/** each part of dist/ compiled once a process (the build's cache run shares them between its runs) */
const scripts = new Map();
/** the exports of each part, and the modules taken from them, for the command line being run */
let parts;
let modules;

function compile(name) {
  let script = scripts.get(name);
  if (!script) {
    const file = join(dist, `${name}.cjs`);
    let cachedData;
    try {
      cachedData = readFileSync(`${file}.cache`);
    } catch {
      cachedData = undefined;
    }
    script = new Script(readFileSync(file, 'utf8'), { filename: file, cachedData });
    scripts.set(name, script);
  }
  return script;
}

/** Runs a part (dist/<name>.cjs) once per command line; its exports hold `modules`, the loaders of what other parts import. */
function part(name) {
  let exports = parts.get(name);
  if (exports) return exports;
  const file = join(dist, `${name}.cjs`);
  const entry = new Module(file, module);
  entry.filename = file;
  entry.paths = Module._nodeModulePaths(dist);
  const nodeRequire = Module.createRequire(file);
  const req = Object.assign((id) => (id.startsWith('vx:') ? own(id) : nodeRequire(id)), nodeRequire);
  compile(name).runInThisContext().call(entry.exports, entry.exports, req, entry, file, dist);
  exports = entry.exports;
  parts.set(name, exports);
  return exports;
}

/** `vx:<part>:<module>`: a module of vx held by another part (one instance per command line). */
function own(spec) {
  let ns = modules.get(spec);
  if (!ns) {
    const at = spec.indexOf(':', 3);
    ns = part(spec.slice(3, at)).modules[spec.slice(at + 1)]();
    modules.set(spec, ns);
  }
  return ns;
}

globalThis.__vxImport = (spec) =>
  spec.startsWith('vx:')
    ? new Promise((resolve) => resolve(own(spec)))
    : import(new URL(spec, base).href).then((ns) => (ns && '__vxNs' in ns ? ns.__vxNs : ns));

function start() {
  parts = new Map();
  modules = new Map();
  part('main');
}
if (process.env.VX_WRITE_CODE_CACHE) {
  // The build: run each command line of VX_WRITE_CODE_CACHE (a JSON array of argument arrays) in
  // turn from the same compiled parts, then write the cache of each part: everything the runs
  // compiled, and for a part they did not load, its top level. Each run ends in process.exit(),
  // which starts the next one instead.
  const lines = JSON.parse(process.env.VX_WRITE_CODE_CACHE);
  const exit = process.exit;
  let failed = 0;
  process.exit = (code) => {
    if (code) failed = code;
    if (lines.length === 0) {
      for (const f of readdirSync(dist)) {
        if (f.endsWith('.cjs')) writeFileSync(join(dist, `${f}.cache`), compile(f.slice(0, -4)).createCachedData());
      }
      exit(failed);
    }
    process.argv = [process.argv[0], process.argv[1], ...lines.shift()];
    setImmediate(start);
  };
  process.exit(0);
} else start();
