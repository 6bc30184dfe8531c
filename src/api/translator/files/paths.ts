// Where the targets of a source go, and its lock file.
import { basename, dirname, extname, join, sep } from 'node:path';
import type { FileFormat } from './types.js';

/** How the targets are named: --out pattern (with {lang}, {dir}, {name}, {ext}) or --out-dir. */
export interface TargetNaming {
  out?: string;
  outDir?: string;
}

/** Where the targets of a source go: --out pattern, --out-dir, or the format's convention beside the source. */
export function targetPath(source: string, lang: string, format: FileFormat, opts: TargetNaming, sourceLanguage?: string): string {
  if (opts.out !== undefined) {
    const file = basename(source);
    const ext = extname(file);
    return opts.out
      .replaceAll('{lang}', lang)
      .replaceAll('{dir}', dirname(source))
      .replaceAll('{name}', file.slice(0, file.length - ext.length))
      .replaceAll('{ext}', ext.replace(/^\./, ''));
  }
  const conventional = format.targetName(source.split(sep).join('/'), lang, sourceLanguage).split('/').join(sep);
  if (opts.outDir !== undefined) return join(opts.outDir, basename(format.targetName(basename(source), lang, sourceLanguage)));
  return conventional;
}

/** The lock file: in the directory that holds the targets (above a per-language directory), named after the source. */
export function lockPath(source: string, format: FileFormat, opts: TargetNaming, sourceLanguage?: string): string {
  const sentinel = 'xx-VXLOCK';
  const t = targetPath(source, sentinel, format, opts, sourceLanguage);
  const segs = t.split(sep);
  const i = segs.findIndex((s) => s.includes(sentinel));
  const dir = segs.slice(0, i).join(sep) || (t.startsWith(sep) ? sep : '.');
  // a pattern that puts the source's directory below the language (i18n/{lang}/{dir}/{name}.json)
  // gives each source directory its own lock (web/en.json and mobile/en.json would share one)
  if (opts.out !== undefined && opts.out.lastIndexOf('{dir}') > opts.out.indexOf('{lang}')) return join(dir, dirname(source), `${basename(source)}.vxlock`);
  return join(dir, `${basename(source)}.vxlock`);
}
