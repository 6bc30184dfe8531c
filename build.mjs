// Bundles src/main.ts into dist/ with code splitting: the command tree is in the entry chunk,
// every action's module (and the heavy libraries it needs) lands in a chunk loaded on demand.
import { build } from 'esbuild';
import { rmSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });
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

await build({
  plugins: [lazyChildProcess],
  entryPoints: { main: 'src/main.ts', emulator: 'src/emulator/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: 'linked',
  minifySyntax: true,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __VX_VERSION__: JSON.stringify(pkg.version) },
  // CommonJS dependencies bundled into ESM need a require().
  banner: { js: "import { createRequire as __vxCreateRequire } from 'node:module'; const require = __vxCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
