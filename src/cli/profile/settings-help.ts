// The settings table after `vx profile set|unset --help`, built only when that help is shown.
import { SETTINGS } from '../../api/settings.js';

/** The keys `profile set|unset` take, with the variable that overrides each (and its default). */
export function settingsHelp(): string {
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
