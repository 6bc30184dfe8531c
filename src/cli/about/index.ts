// `vx version`: what a bug report needs. Declaration only; the action loads version.js.
import { command } from '../define.js';

export const VERSION_COMMAND = command({
  name: 'version',
  summary: 'print the version of vx, of Node.js and the platform (for bug reports)',
  examples: ['vx version', 'vx version -o json'],
  profile: 'unused',
  run: async (ctx) => (await import('./version.js')).run(ctx),
});
