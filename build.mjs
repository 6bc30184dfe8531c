// Bundles src/main.ts into dist/ with code splitting: the command tree is in the entry chunk,
// every action's module (and the heavy libraries it needs) lands in a chunk loaded on demand.
import { build } from 'esbuild';
import { rmSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });
await build({
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
