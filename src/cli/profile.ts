import type { Command } from 'commander';
import { SETTINGS } from '../api/settings.js';
import { act, examples } from './runner.js';

const run = () => import('./profile-run.js');

/** The keys `profile set|unset` take, with the variable that overrides each (and its default). */
function settingsHelp(): string {
  const keys = SETTINGS.filter((d) => !d.internal);
  const w = Math.max(...keys.map((d) => d.key.length));
  const lines = keys.map((d) => {
    const notes = [d.env ? `env ${d.env}` : '', d.default ? `default ${d.default}` : '', d.choices ? `one of ${d.choices.join(', ')}` : '', d.secret ? 'secret' : '']
      .filter(Boolean)
      .join(', ');
    return `  ${d.key.padEnd(w)}  ${notes}`.trimEnd();
  });
  return `\nSettings:\n${lines.join('\n')}\n`;
}

export function registerProfile(program: Command): void {
  const profile = program
    .command('profile')
    .description('manage named profiles of settings (stored in VX_CONFIG_DIR/config.json, mode 0600)')
    .addHelpText('after', examples('vx profile set mgmt.endpoint https://management.example.com', 'vx profile use staging', 'vx profile show'));
  profile
    .command('list')
    .description('list profiles and mark the active one')
    .addHelpText('after', examples('vx profile list -o json'))
    .action(act(async (ctx) => (await run()).list(ctx)));
  profile
    .command('show [name]')
    .description('show the settings of a profile (secrets masked) and where each effective value comes from')
    .addHelpText('after', examples('vx profile show', 'vx profile show staging -o json'))
    .action(act(async (ctx, _o, name?: string) => (await run()).show(ctx, name)));
  profile
    .command('set <key> [value]')
    .description('set a key in the profile; without a value it is read from a masked prompt or from stdin')
    .addHelpText(
      'after',
      // the settings table is built only when this help is shown
      () =>
        examples('vx profile set translator.endpoint http://127.0.0.1:4010/translator', 'printf %s "$KEY" | vx profile set translator.key', 'vx -p staging profile set erp.company 5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f') +
        settingsHelp(),
    )
    .action(act(async (ctx, _o, key: string, value?: string) => (await run()).set(ctx, key, value), { profile: 'creates' }));
  profile
    .command('unset <key>')
    .description('remove a key from the profile')
    .addHelpText('after', () => examples('vx profile unset erp.token') + settingsHelp())
    .action(act(async (ctx, _o, key: string) => (await run()).unset(ctx, key)));
  profile
    .command('use <name>')
    .description('make an existing profile the active one (create one with `vx -p <name> profile set <key> <value>`)')
    .addHelpText('after', examples('vx profile use staging'))
    .action(act(async (ctx, _o, name: string) => (await run()).use(ctx, name)));
  profile
    .command('delete <name>')
    .description('delete a profile and the credentials stored in it (asks; --yes without a terminal)')
    .addHelpText('after', examples('vx profile delete old --yes'))
    .action(act(async (ctx, _o, name: string) => (await run()).remove(ctx, name)));
}
