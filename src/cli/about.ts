// `vx version`: the version of vx, of Node.js and the platform, as `gh version` prints its own;
// what a bug report needs. `-o json|yaml` gives them as a record.
import { command } from './define.js';
import { VERSION } from './version.js';

export interface VersionInfo {
  version: string;
  node: string;
  platform: string;
  arch: string;
}

export function versionInfo(): VersionInfo {
  return { version: VERSION, node: process.version, platform: process.platform, arch: process.arch };
}

/** the text form: `vx version 0.1.0` then `node v20.19.0 (linux x64)` */
export function versionText(v: VersionInfo): string {
  return `vx version ${v.version}\nnode ${v.node} (${v.platform} ${v.arch})\n`;
}

export const VERSION_COMMAND = command({
  name: 'version',
  summary: 'print the version of vx, of Node.js and the platform (for bug reports)',
  examples: ['vx version', 'vx version -o json'],
  profile: 'unused',
  run: async (ctx) => {
    const info = versionInfo();
    // text unless a format or a --query was asked for (a version is read by people, also through a
    // pipe; a --query is applied to the record, as everywhere)
    const format = ctx.explicitFormat();
    if (!ctx.globals.query && (!format || format === 'text' || format === 'table' || format === 'wide')) await ctx.write(versionText(info));
    else await ctx.print(info);
  },
});
