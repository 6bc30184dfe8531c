#!/usr/bin/env node
// The launcher: run the built entry, dist/main.cjs. It is compiled with the V8 code cache the
// build writes next to it (main.cjs.cache), which saves several milliseconds of every start; a
// missing or rejected cache only means an ordinary compile. Node 20 loses the dynamic-import
// hook of a script compiled from a cache, so the entry's on-demand imports (the vendor bundle,
// node: builtins) go through __vxImport, defined here (see build.mjs).
'use strict';
const { readFileSync, writeFileSync, writeSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');
const Module = require('node:module');
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
const file = join(__dirname, '..', 'dist', 'main.cjs');
const base = pathToFileURL(file);
globalThis.__vxImport = (spec) =>
  import(new URL(spec, base).href).then((ns) => (ns && '__vxNs' in ns ? ns.__vxNs : ns));
let cachedData;
try {
  cachedData = readFileSync(`${file}.cache`);
} catch {
  cachedData = undefined;
}
const script = new Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
function start() {
  const entry = new Module(file, module);
  entry.filename = file;
  entry.paths = Module._nodeModulePaths(dirname(file));
  script.runInThisContext().call(entry.exports, entry.exports, Module.createRequire(file), entry, file, dirname(file));
}
if (process.env.VX_WRITE_CODE_CACHE) {
  // The build: run each command line of VX_WRITE_CODE_CACHE (a JSON array of argument arrays) in
  // turn from this one compiled script, then write the cache of everything they compiled. Each
  // run ends in process.exit(), which starts the next one instead.
  const lines = JSON.parse(process.env.VX_WRITE_CODE_CACHE);
  const exit = process.exit;
  let failed = 0;
  process.exit = (code) => {
    if (code) failed = code;
    if (lines.length === 0) {
      writeFileSync(`${file}.cache`, script.createCachedData());
      exit(failed);
    }
    process.argv = [process.argv[0], process.argv[1], ...lines.shift()];
    setImmediate(start);
  };
  process.exit(0);
} else start();
