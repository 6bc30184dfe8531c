import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// the version esbuild writes into the build (build.mjs), so that in-process runs say what the built vx says
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __VX_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // three workers on two cores: the suite waits on child processes, sockets and timers a third of the
    // time, so a third worker fills it (fresh-clone .ci/run on a quiet 2-core machine: 176 s with two, 142-145 s with three)
    maxWorkers: 3,
  },
});
