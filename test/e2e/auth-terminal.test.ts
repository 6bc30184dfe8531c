// The auth run functions in-process with a fake terminal: what vx asks (masked prompts through
// the prompter) and what it refuses to show on a terminal.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/api/settings.js';
import { run as login } from '../../src/cli/auth/login.js';
import { run as status } from '../../src/cli/auth/status.js';
import { run as token } from '../../src/cli/auth/token.js';
import { Ctx, type GlobalOptions } from '../../src/core/context.js';
import { AuthError, UsageError } from '../../src/core/errors.js';
import type { Prompter } from '../../src/core/prompt.js';
import { EMULATOR_CLIENT_SECRET } from '../../src/emulator/auth.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { removeDir, tempDir } from '../helpers/vx.js';
import { tty } from '../helpers/tty.js';

let emu: Emulator;
let configDir: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
beforeEach(() => {
  emu.reset();
  // a device code is polled every 50 ms, not every second: when it is polled is not what these tests check
  emu.state.auth.deviceInterval = 0.05;
  if (configDir) removeDir(configDir);
  configDir = tempDir();
});
afterAll(async () => {
  await emu?.close();
  removeDir(configDir);
});

function session(answers: { password?: string; select?: string; confirm?: boolean } = {}, globals: GlobalOptions = {}, extraEnv: Record<string, string> = {}) {
  const asked: string[] = [];
  const prompter: Prompter = {
    interactive: true,
    async confirm(message) {
      asked.push(`confirm: ${message}`);
      return answers.confirm ?? false;
    },
    input: async () => '',
    async password(message) {
      asked.push(`password: ${message}`);
      return answers.password ?? '';
    },
    async select(message, choices) {
      asked.push(`select: ${message} ${choices.map((c) => c.value).join(',')}`);
      return answers.select as never;
    },
    search: async () => undefined as never,
  };
  const stdout = tty();
  const stderr = tty();
  const stdin = Object.assign(Readable.from([]), { isTTY: true });
  const { VX_TRANSLATOR_KEY, VX_ERP_TOKEN, VX_LCS_TOKEN, VX_MGMT_TOKEN, ...endpoints } = emu.env();
  void [VX_TRANSLATOR_KEY, VX_ERP_TOKEN, VX_LCS_TOKEN, VX_MGMT_TOKEN];
  const env = { ...endpoints, VX_CONFIG_DIR: configDir, NO_COLOR: '1', VX_BROWSER: 'none', ...extraEnv };
  const ctx = new Ctx(globals, SETTINGS, { io: { stdout: stdout as any, stderr: stderr as any, stdin: stdin as any }, signal: new AbortController().signal, prompter, env });
  return { ctx, asked, stdout, stderr };
}

describe('auth at a terminal', () => {
  it('asks which service, then the translator key in a masked prompt', async () => {
    const s = session({ select: 'translator', password: ' emulator-key ' });
    await login(s.ctx, { browser: true, verify: true });
    expect(s.asked).toEqual(['select: Sign in to which service? translator,erp,lcs,mgmt', 'password: Translator subscription key:']);
    expect(s.ctx.config.profile()['translator.key']).toBe('emulator-key');
    expect(s.stdout.text).toBe('');
    expect(s.stderr.text).not.toContain('emulator-key');
  });

  it('an empty answer stores nothing', async () => {
    const s = session({ password: '' });
    await expect(login(s.ctx, { browser: true, verify: true, service: 'translator' })).rejects.toThrow(new UsageError('no key given; nothing was stored'));
    expect(s.ctx.config.profile()).toEqual({});
  });

  it('asks for the client secret (masked) when neither VX_CLIENT_SECRET nor --with-secret gives it', async () => {
    const s = session({ password: EMULATOR_CLIENT_SECRET });
    await login(s.ctx, { browser: true, verify: true, service: 'mgmt', clientCredentials: true, clientId: 'ci-app', tenant: 'contoso' });
    expect(s.asked).toEqual(['password: Client secret:']);
    expect(s.ctx.config.profile()['mgmt.token']).toMatch(/^emu\./);
  });

  it('auth token refuses to print a secret to a terminal without --yes, and prints it with --yes', async () => {
    const s = session({}, {}, { VX_MGMT_TOKEN: 'emulator-token' });
    await expect(token(s.ctx, { service: 'mgmt' })).rejects.toThrow(
      new UsageError('refusing to print the mgmt token to a terminal; pipe it to a program, or pass --yes'),
    );
    expect(s.stdout.text).toBe('');
    const y = session({}, { yes: true }, { VX_MGMT_TOKEN: 'emulator-token' });
    await token(y.ctx, { service: 'mgmt' });
    expect(y.stdout.text).toBe('emulator-token\n');
  });

  it('with no browser to open here (an SSH session) it offers the device code sign-in, and uses it when accepted', async () => {
    const saved = { DISPLAY: process.env.DISPLAY, WAYLAND_DISPLAY: process.env.WAYLAND_DISPLAY };
    delete process.env.DISPLAY;
    delete process.env.WAYLAND_DISPLAY;
    const question = 'confirm: No browser can be opened on this machine (an SSH session?). Sign in with a code on another device instead?';
    try {
      const s = session({ confirm: true }, {}, { VX_BROWSER: '' });
      const done = login(s.ctx, { browser: true, verify: true, service: 'mgmt', wait: '20' });
      let code: RegExpExecArray | null = null;
      for (let i = 0; i < 300 && !(code = /device\?user_code=([A-Z0-9-]+)/.exec(s.stderr.text)); i++) await new Promise((r) => setTimeout(r, 50));
      await fetch(`${emu.url}/auth/device?user_code=${code![1]}`);
      await done;
      expect(s.asked).toEqual([question]);
      expect(JSON.parse(s.ctx.config.profile()['mgmt.signIn']).method).toBe('device-code');
      expect(s.ctx.config.profile()['mgmt.refreshToken']).toBeDefined();
      // declined: the browser sign-in, its address printed
      const no = session({ confirm: false }, {}, { VX_BROWSER: '' });
      await expect(login(no.ctx, { browser: true, verify: true, service: 'erp', wait: '1' })).rejects.toThrow(/timed out/);
      expect(no.asked).toEqual([question]);
      expect(no.stderr.text).toContain('Open this address in a browser on this machine to sign in to erp');
      // --no-browser, or a browser setting (VX_BROWSER=none included), is a choice already made: no question
      for (const [o, env] of [[{ browser: false }, { VX_BROWSER: '' }], [{ browser: true }, { VX_BROWSER: 'none' }]] as const) {
        const quiet = session({ confirm: true }, {}, env);
        await expect(login(quiet.ctx, { ...o, verify: true, service: 'erp', wait: '1' })).rejects.toThrow(/timed out/);
        expect(quiet.asked).toEqual([]);
      }
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
    }
  });

  it('auth status draws a table and says where credentials are stored', async () => {
    const s = session({}, {}, { VX_ERP_TOKEN: 'emulator-token' });
    await expect(status(s.ctx, { service: 'mgmt' })).rejects.toThrow(AuthError);
    const all = session({}, {}, { VX_ERP_TOKEN: 'emulator-token' });
    await status(all.ctx, {});
    expect(all.stdout.text).toMatch(/erp +signed in +token +env VX_ERP_TOKEN/);
    expect(all.stdout.text).not.toContain('emulator-token');
    expect(all.stderr.text).toContain('(file mode 0600 in a 0700 directory); the OS keyring is not used\n');
  });
});
