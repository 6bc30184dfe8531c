// Shared set-up of the auth e2e tests: an emulator whose families carry a test-only probe route
// (GET /_probe answers with the credential the request was authenticated with), a signed-out
// environment, and a way to drive a running `vx auth login` as a browser or a person would.
import type { ChildProcess } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { allFamilies, Emulator } from '../../src/emulator/index.js';
import { runVxInProc } from './inproc.js';
import { removeDir, runVx, tempDir, type RunOptions, type RunResult } from './vx.js';

export interface AuthE2E {
  emu: Emulator;
  /** endpoints of every family and the sign-in address; no credentials; no browser */
  env: Record<string, string>;
  /** a fresh config dir per test */
  configDir: string;
  run(args: string[], opts?: RunOptions): Promise<RunResult>;
  /** the active profile of the config file, or {} */
  profile(): Record<string, string>;
}

export const EMPTY_CREDENTIALS = {
  VX_TRANSLATOR_KEY: undefined,
  VX_ERP_TOKEN: undefined,
  VX_LCS_TOKEN: undefined,
  VX_MGMT_TOKEN: undefined,
};

export function useAuthEmulator(): AuthE2E {
  const t = {} as AuthE2E;
  beforeAll(async () => {
    const families = allFamilies();
    for (const f of families) {
      if (f.name === 'auth') continue;
      f.routes.push({ method: 'GET', path: '/_probe', handler: (req) => ({ status: 200, body: { credential: req.credential } }) });
    }
    t.emu = new Emulator({ families });
    await t.emu.listen(0, '127.0.0.1');
    const { VX_TRANSLATOR_KEY, VX_ERP_TOKEN, VX_LCS_TOKEN, VX_MGMT_TOKEN, ...endpoints } = t.emu.env();
    void [VX_TRANSLATOR_KEY, VX_ERP_TOKEN, VX_LCS_TOKEN, VX_MGMT_TOKEN];
    t.env = { ...endpoints, VX_BROWSER: 'none' };
    // in-process by default (the same run() as the process); spawned where the process is the subject
    t.run = (args, o = {}) => (o.spawn || o.onSpawn ? runVx : runVxInProc)(args, { configDir: t.configDir, ...o, env: { ...t.env, ...(o.env ?? {}) } });
    t.profile = () => {
      const p = join(t.configDir, 'config.json');
      if (!existsSync(p)) return {};
      const d = JSON.parse(readFileSync(p, 'utf8'));
      return d.profiles?.[d.activeProfile ?? 'default'] ?? {};
    };
  });
  beforeEach(() => {
    t.emu.reset();
    if (t.configDir) removeDir(t.configDir);
    t.configDir = tempDir();
  });
  afterAll(async () => {
    await t.emu?.close();
    if (t.configDir) removeDir(t.configDir);
  });
  return t;
}

/** Resolves with the first match of `re` in the child's stderr (rejects after `ms`). */
export function waitForStderr(child: ChildProcess, re: RegExp, ms = 15_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no ${re} in stderr within ${ms} ms; got: ${text}`)), ms);
    const on = (c: Buffer) => {
      text += c.toString('utf8');
      const m = re.exec(text);
      if (m) {
        clearTimeout(timer);
        child.stderr?.off('data', on);
        resolve(m);
      }
    };
    child.stderr?.on('data', on);
  });
}

/** Starts a command and hands the child to `drive` once it runs; resolves with the result. */
export async function drive(
  t: AuthE2E,
  args: string[],
  driver: (child: ChildProcess) => Promise<void>,
  opts: RunOptions = {},
): Promise<{ result: RunResult; driven: unknown }> {
  let child!: ChildProcess;
  let pending!: Promise<RunResult>;
  await new Promise<void>((resolve) => {
    pending = t.run(args, { ...opts, onSpawn: (c) => ((child = c), resolve()) });
  });
  let driven: unknown;
  try {
    await driver(child);
  } catch (e) {
    driven = e;
    child.kill('SIGKILL');
  }
  return { result: await pending, driven };
}

/** What the authorization server answers to the browser: the Location of its redirect. */
export async function followAuthorize(url: string): Promise<URL> {
  const res = await fetch(url, { redirect: 'manual' });
  if (res.status !== 302) throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
  return new URL(res.headers.get('location')!);
}

/** What the callback page's script does: POST the fragment to the page's own path, from its origin. */
export async function deliverFragment(callback: URL, fragment = callback.hash.slice(1), origin = callback.origin): Promise<{ status: number; text: string }> {
  const page = await fetch(`${callback.origin}${callback.pathname}`);
  const html = await page.text();
  if (!html.includes("fetch(location.pathname, { method: 'POST'")) throw new Error('the callback page does not deliver the fragment');
  const res = await fetch(`${callback.origin}${callback.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: fragment,
  });
  return { status: res.status, text: await res.text() };
}

export const SIGN_IN_URL = /(http:\/\/127\.0\.0\.1:\d+\/auth\/\S+\/oauth2\/authorize\?\S+)/;
export const DEVICE_URL = /\(or open (http:\/\/127\.0\.0\.1:\d+\/auth\/device\?user_code=[A-Z0-9-]+)\)/;
