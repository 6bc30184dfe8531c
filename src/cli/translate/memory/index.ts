// `vx translate memory stats|export|import|prune|copy`: the declarations only; each verb's work is in
// its own module, loaded when it runs.
import { arg, command, group } from '../../define.js';
import { MEMORY_COPY_OPTIONS, MEMORY_EXPORT_OPTIONS, MEMORY_IMPORT_OPTIONS, MEMORY_PRUNE_OPTIONS, MEMORY_STATS_OPTIONS } from '../options.js';

export const TRANSLATE_MEMORY = group({
  name: 'memory',
  summary: 'the translation memory: statistics, TMX 1.4 export and import, pruning, copying between stores',
  examples: ['vx translate memory stats --memory <tm>', 'vx translate memory export --memory <tm> --out <tmx>', 'vx translate memory import <tmx> --memory <tm>'],
  more: `
The memory is --memory <path|url> (a file, or postgres://user@host:port/db), else the
translate.memory setting. See docs/translate.md.
`,
  commands: () => [
    command({
      name: 'stats',
      ownOptionsOnly: true,
      summary: 'entries, size, oldest and newest entry, entries per language pair',
      options: MEMORY_STATS_OPTIONS,
      examples: ['vx translate memory stats --memory <tm> -o json'],
      run: async (ctx, opts) => (await import('./stats.js')).run(ctx, opts),
    }),
    command({
      name: 'export',
      ownOptionsOnly: true,
      summary: 'write every entry as TMX 1.4 (streamed) to standard output or --out',
      options: MEMORY_EXPORT_OPTIONS,
      examples: ['vx translate memory export --memory <tm> --out <tmx>'],
      run: async (ctx, opts) => (await import('./export.js')).run(ctx, opts),
    }),
    command({
      name: 'import',
      ownOptionsOnly: true,
      summary: 'add the entries of a TMX file, 1.1 to 1.4 (checked whole first: any problem imports nothing)',
      args: [arg('<file.tmx>', 'the TMX file')],
      options: MEMORY_IMPORT_OPTIONS,
      examples: ['vx translate memory import <tmx> --memory <tm>'],
      run: async (ctx, opts, file) => (await import('./import.js')).run(ctx, opts, file),
    }),
    command({
      name: 'prune',
      ownOptionsOnly: true,
      summary: 'remove entries: older than an age, of a target or source language (asks, or --yes)',
      options: MEMORY_PRUNE_OPTIONS,
      examples: ['vx translate memory prune --memory <tm> --older-than 90d --yes'],
      run: async (ctx, opts) => (await import('./prune.js')).run(ctx, opts),
    }),
    command({
      name: 'copy',
      ownOptionsOnly: true,
      summary: 'copy every entry of one memory into another (a file, a PostgreSQL database; streamed)',
      args: [arg('<from>', 'the memory to copy: a file, or postgres://user@host:port/db'), arg('<to>', 'the memory to copy into (created when new)')],
      options: MEMORY_COPY_OPTIONS,
      examples: ['vx translate memory copy <tm> postgres://<user>@<host>:5432/<db>', 'vx translate memory copy postgres://<user>@<host>:5432/<db> <tm>'],
      run: async (ctx, opts, from, to) => (await import('./copy.js')).run(ctx, opts, from, to),
    }),
  ],
});
