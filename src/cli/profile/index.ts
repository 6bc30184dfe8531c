// The `vx profile` tree: named profiles of settings. Declarations only; each action loads its verb's module when it runs.
import { arg, command, group } from '../define.js';
import { PROFILE_GET } from './options.js';
import { settingsHelp } from './settings-help.js';

export const PROFILE = group({
  name: 'profile',
  summary: 'manage named profiles of settings (in $VX_CONFIG_DIR/config.json, else ~/.config/vx/config.json; mode 0600)',
  examples: ['vx profile set mgmt.endpoint https://management.example.com', 'vx profile use staging', 'vx profile show'],
  commands: () => [
    command({
      name: 'list',
      summary: 'list profiles and mark the active one',
      examples: ['vx profile list -o json'],
      run: async (ctx) => (await import('./list.js')).run(ctx),
    }),
    command({
      name: 'show',
      summary: 'show the effective value of every setting for a profile (secrets masked) and where each comes from',
      args: [arg('[name]', 'the profile (default: the one in use)')],
      examples: ['vx profile show', 'vx profile show staging -o json'],
      run: async (ctx, _o, name) => (await import('./show.js')).run(ctx, name),
    }),
    command({
      name: 'get',
      summary: 'print the effective value of one setting (flag > env > profile > default), for scripts; exit 1 when it has none',
      args: [arg('<key>', 'the setting, e.g. erp.company')],
      options: PROFILE_GET,
      examples: ['vx profile get mgmt.namespace', 'vx profile get mgmt.namespace --show-source', 'vx -p staging profile get erp.company'],
      more: settingsHelp,
      run: async (ctx, o, key) => (await import('./get.js')).run(ctx, o, key),
    }),
    command({
      name: 'set',
      summary: 'set a key in the profile; without a value it is read from a masked prompt or from stdin',
      args: [arg('<key>', ''), arg('[value]', '')],
      examples: ['vx profile set translator.endpoint http://127.0.0.1:4010/translator', 'printf %s "$KEY" | vx profile set translator.key', 'vx -p staging profile set erp.company 5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f'],
      // the settings table is built only when this help is shown
      more: settingsHelp,
      profile: 'creates',
      run: async (ctx, _o, key, value) => (await import('./set.js')).run(ctx, key, value),
    }),
    command({
      name: 'unset',
      summary: 'remove a key from the profile',
      args: [arg('<key>', '')],
      examples: ['vx profile unset erp.token'],
      more: settingsHelp,
      run: async (ctx, _o, key) => (await import('./unset.js')).run(ctx, key),
    }),
    command({
      name: 'use',
      summary: 'make an existing profile the active one (create one with `vx -p <name> profile set <key> <value>`)',
      args: [arg('<name>', '')],
      examples: ['vx profile use staging'],
      run: async (ctx, _o, name) => (await import('./use.js')).run(ctx, name),
    }),
    command({
      name: 'delete',
      summary: 'delete a profile and the credentials stored in it (asks; --yes without a terminal)',
      args: [arg('<name>', '')],
      examples: ['vx profile delete old --yes'],
      run: async (ctx, _o, name) => (await import('./delete.js')).run(ctx, name),
    }),
  ],
});
