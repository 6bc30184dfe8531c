import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// the version esbuild writes into the build (build.mjs), so that in-process runs say what the built vx says
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// Test files that need a process of their own: they replace modules (vi.mock), spy on or fake
// globals and timers, or hold PostgreSQL databases for the file. Every other file runs in a worker
// that runs one file after another with the modules loaded once (a third of the suite's time went
// to loading them again for each file); test/setup.ts resets what a file may leave behind.
const OWN_PROCESS = /\bvi\.(mock|doMock|spyOn|hoisted|resetModules|useFakeTimers|setSystemTime|stubGlobal|stubEnv)\b|helpers\/postgres/;
const root = import.meta.dirname;
const isolated = readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts') && OWN_PROCESS.test(readFileSync(join(root, 'test', f), 'utf8')))
  .map((f) => `test/${f}`);

export default defineConfig({
  define: { __VX_VERSION__: JSON.stringify(pkg.version) },
  test: {
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // three workers on two cores: the suite waits on child processes, sockets and timers a third of the
    // time, so a third worker fills it (fresh-clone .ci/run on a quiet 2-core machine: 176 s with two, 142-145 s with three)
    maxWorkers: 3,
    projects: [
      { extends: true, test: { name: 'isolated', include: isolated } },
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: isolated, isolate: false } },
    ],
  },
});
