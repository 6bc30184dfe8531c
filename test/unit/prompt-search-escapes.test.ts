// The searchable lists of the interactive prompts (the quota wizard's quotas, named by the service)
// showed their entries as they came, where select() escapes them: a quota's localized name holding
// a terminal escape (OSC 52 writes the clipboard, CSI clears the screen) reached the terminal.
import { describe, expect, it, vi } from 'vitest';

const seen: { source?: (term: string | undefined) => Promise<{ name: string }[]> } = {};
vi.mock('@inquirer/prompts', () => ({
  search: async (config: { source: (term: string | undefined) => Promise<{ name: string; value: unknown }[]> }) => {
    seen.source = config.source;
    return (await config.source(undefined))[0]!.value;
  },
}));

describe('terminalPrompter().search', () => {
  it('shows the entries escaped, as select does; the value picked is untouched', async () => {
    const { terminalPrompter } = await import('../../src/core/prompt.js');
    const value = await terminalPrompter(undefined, { env: {} }).search('Quota', () => [{ name: 'cores \u001b]52;c;cm0gLXJm\u0007\u001b[2J(1 of 2 used)', value: 'cores\u001b' }]);
    expect(value).toBe('cores\u001b');
    expect((await seen.source!(undefined)).map((c) => c.name)).toEqual(['cores \\u001b]52;c;cm0gLXJm\\u0007\\u001b[2J(1 of 2 used)']);
  });
});
