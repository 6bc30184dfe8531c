// `vx version`: the version of vx, of Node.js and the platform, as `gh version` prints its own;
// what a bug report needs. `-o json|yaml` gives them as a record.
import type { Ctx } from '../../core/context.js';
import { VERSION } from '../version.js';

interface VersionInfo {
  version: string;
  node: string;
  platform: string;
  arch: string;
}

function versionInfo(): VersionInfo {
  return { version: VERSION, node: process.version, platform: process.platform, arch: process.arch };
}

/** the text form: `vx version 0.1.0` then `node v20.19.0 (linux x64)` */
function versionText(v: VersionInfo): string {
  return `vx version ${v.version}\nnode ${v.node} (${v.platform} ${v.arch})\n`;
}

export async function run(ctx: Ctx): Promise<void> {
  const info = versionInfo();
  // text unless a format or a --query was asked for (a version is read by people, also through a
  // pipe; a --query is applied to the record, as everywhere)
  const format = ctx.explicitFormat();
  if (!ctx.globals.query && (!format || format === 'text' || format === 'table' || format === 'wide')) await ctx.write(versionText(info));
  else await ctx.print(info);
}
