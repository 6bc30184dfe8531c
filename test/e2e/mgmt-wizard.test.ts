// vx mgmt quota wizard: in-process with a scripted prompter (happy path, typed resource, invalid
// limits, Ctrl-C at every step, answering no), and the refusal without a terminal (spawned).
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/api/settings.js';
import { run as runQuotaSet } from '../../src/cli/mgmt/quota/set.js';
import { run as runVsDelete } from '../../src/cli/mgmt/version-sets/delete.js';
import { run as runQuotaWizard } from '../../src/cli/mgmt/quota/wizard.js';
import { Ctx } from '../../src/core/context.js';
import { InterruptedError, ServiceError, UsageError, type VxError } from '../../src/core/errors.js';
import { GoBack, type Choice, type Prompter } from '../../src/core/prompt.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { screenOf } from '../helpers/screen.js';
import { tty } from '../helpers/tty.js';
import { baseEnv, BIN, removeDir, runVx, tempDir } from '../helpers/vx.js';

let emu: Emulator;
let configDir: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  configDir = tempDir();
});
beforeEach(() => {
  emu.reset();
  emu.state.mgmt.retryAfter = 0;
});
afterAll(async () => {
  await emu?.close();
  removeDir(configDir);
});

type Step =
  | { kind: 'input'; message: RegExp; answers: string[] }
  | { kind: 'select'; message: RegExp; pick: string }
  | { kind: 'search'; message: RegExp; term: string; pick: string; offered?: string[] }
  | { kind: 'confirm'; message: RegExp; answer: boolean }
  | { kind: 'interrupt' }
  | { kind: 'back' };

/** A prompter that plays a script and records what was asked and what each validator said. */
function scripted(steps: Step[]) {
  const asked: string[] = [];
  const rejected: string[] = [];
  const queue = [...steps];
  const next = (kind: string, message: string): Step => {
    asked.push(`${kind}: ${message}`);
    const s = queue.shift();
    if (!s) throw new Error(`unexpected ${kind} "${message}"`);
    if (s.kind === 'interrupt') throw new InterruptedError('cancelled');
    if (s.kind === 'back') throw new GoBack();
    if (s.kind !== kind || !s.message.test(message)) throw new Error(`expected ${s.kind} ${s.message}, got ${kind} "${message}"`);
    return s;
  };
  const prompter: Prompter = {
    interactive: true,
    async confirm(message) {
      return (next('confirm', message) as Extract<Step, { kind: 'confirm' }>).answer;
    },
    async input(message, opts = {}) {
      const s = next('input', message) as Extract<Step, { kind: 'input' }>;
      for (const a of s.answers) {
        const value = a === '' && opts.default !== undefined ? opts.default : a;
        const ok = opts.validate ? opts.validate(value) : true;
        if (ok === true) return value;
        rejected.push(`${value}: ${ok}`);
      }
      throw new Error(`no valid answer for "${message}"`);
    },
    async password() {
      throw new Error('no password expected');
    },
    async select<T>(message: string, choices: Choice<T>[]) {
      const s = next('select', message) as Extract<Step, { kind: 'select' }>;
      const c = choices.find((ch) => ch.name === s.pick || ch.value === (s.pick as unknown));
      if (!c) throw new Error(`no choice ${s.pick} in ${choices.map((x) => x.name).join(', ')}`);
      return c.value;
    },
    async search<T>(message: string, source: (term: string | undefined) => Promise<Choice<T>[]> | Choice<T>[]) {
      const s = next('search', message) as Extract<Step, { kind: 'search' }>;
      const found = await source(s.term);
      // as the terminal shows them: a disabled line carries its reason and cannot be picked
      if (s.offered) expect(found.map((x) => (x.disabled ? `${x.name} ${x.disabled}` : x.name))).toEqual(s.offered);
      if (!s.pick) throw new InterruptedError('cancelled'); // nothing to pick: the person stops there
      const c = found.find((ch) => !ch.disabled && ch.name.startsWith(s.pick));
      if (!c) throw new Error(`no search result ${s.pick} for "${s.term}": ${found.map((x) => x.name).join(', ')}`);
      return c.value;
    },
  };
  return { prompter, asked, rejected, left: () => queue.length };
}

function session(steps: Step[], env: Record<string, string | undefined> = {}, globals: Record<string, unknown> = {}) {
  const script = scripted(steps);
  const stdout = tty();
  const stderr = tty();
  // the floor between status reads (core/poll.ts) lowered, as test/helpers/vx.ts does for spawned runs
  const fullEnv = { ...emu.env(), VX_CONFIG_DIR: configDir, NO_COLOR: '1', VX_POLL_FLOOR_MS: '5', ...env } as NodeJS.ProcessEnv;
  const ctx = new Ctx({ output: 'json', ...globals }, SETTINGS, { io: { stdout: stdout as any, stderr: stderr as any, stdin: process.stdin }, signal: new AbortController().signal, prompter: script.prompter, env: fullEnv });
  return { ctx, stdout, stderr, ...script };
}

const writes = () => emu.state.mgmt.writes as { method: string; path: string; body: any }[];
const limitOf = (provider: string, name: string) => emu.state.mgmt.quotas[`${emu.state.mgmt.defaultSubscription}|${provider.toLowerCase()}|eastus`][name.toLowerCase()].quota.properties.limit;

/** how the provider search shows a typed value that is not a provider id */
const PROVIDER_REFUSED = 'no dots — the resource provider id must match the pattern ^[A-Za-z][A-Za-z0-9]*(\\.[A-Za-z][A-Za-z0-9]*)+$ (dotted names such as Vendor.Compute)';

const HAPPY: Step[] = [
  { kind: 'search', message: /^Subscription \(type to search or enter another\)$/, term: '', pick: '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f (default, VX_SUBSCRIPTION)' },
  { kind: 'search', message: /^Resource provider \(type to search or enter another\)$/, term: '', pick: 'Vendor.Compute' },
  { kind: 'search', message: /^Location \(type to search or enter another\)$/, term: 'east', pick: 'eastus' },
  { kind: 'search', message: /^Quota/, term: 'dsv3', pick: 'standardDSv3Family' },
  { kind: 'input', message: /^New limit \(from 48, no upper bound; now 50\)$/, answers: ['120'] },
  { kind: 'confirm', message: /^Submit this quota change\?$/, answer: true },
];

describe('vx mgmt quota wizard', () => {
  it('happy path: choose, search, see limit and usage, enter, review, confirm, watch, outcome', async () => {
    const s = session(HAPPY);
    await runQuotaWizard(s.ctx, {});
    expect(s.left()).toBe(0);
    expect(s.asked).toEqual([
      'search: Subscription (type to search or enter another)',
      'search: Resource provider (type to search or enter another)',
      'search: Location (type to search or enter another)',
      'search: Quota (type to search)',
      'input: New limit (from 48, no upper bound; now 50)',
      'confirm: Submit this quota change?',
    ]);
    const err = s.stderr.text;
    expect(err).toContain('standardDSv3Family (Standard DSv3 Family vCPUs): limit 50 Count, usage 48 (96% used)');
    expect(err).toContain('Summary:\n  subscription  7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f\n  provider      Vendor.Compute\n  location      eastus\n  quota         standardDSv3Family\n  limit         50 -> 120 Count\n');
    expect(err).toMatch(/quota request [0-9a-f-]+: Succeeded\n/);
    // the spinner ran on the (fake) terminal while the request was InProgress
    expect(err).toMatch(/\r[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] quota request [0-9a-f-]+: InProgress/);
    expect(err).toContain('the limit of standardDSv3Family in eastus is now 120');
    expect(err.trimEnd().split('\n').at(-1)).toBe(
      'the same change without the wizard: vx mgmt quota set standardDSv3Family --subscription 7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f --provider Vendor.Compute --location eastus --limit 120 --yes',
    );
    expect(JSON.parse(s.stdout.text).properties.provisioningState).toBe('Succeeded');
    expect(writes().map((w) => [w.method, w.body])).toEqual([['PATCH', { properties: { limit: 120, unit: 'Count', name: { value: 'standardDSv3Family' } } }]]);
    expect(limitOf('Vendor.Compute', 'standardDSv3Family')).toBe(120);
    await s.ctx.http.close();
  });

  it('defaults come from the profile settings (env here): the preselected choices are marked', async () => {
    const s = session(
      [
        { kind: 'search', message: /^Subscription \(type to search or enter another\)$/, term: '', pick: '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f (default, VX_SUBSCRIPTION)' },
        { kind: 'search', message: /^Resource provider/, term: '', pick: 'Vendor.Network (default)' },
        { kind: 'search', message: /^Location/, term: '', pick: 'eastus (default)' },
        // the service cannot list Network quotas: the name is typed; an unknown one is asked again
        { kind: 'input', message: /^Quota resource name/, answers: ['nosuch'] },
        { kind: 'input', message: /^Quota resource name/, answers: ['a/b', 'PublicIPAddresses'] },
        { kind: 'input', message: /^New limit/, answers: ['150'] },
        { kind: 'confirm', message: /^Submit/, answer: true },
      ],
      { VX_MGMT_PROVIDER: 'Vendor.Network', VX_MGMT_LOCATION: 'eastus' },
    );
    await runQuotaWizard(s.ctx, {});
    expect(s.left()).toBe(0);
    expect(s.stderr.text).toContain('(the service does not list the quotas of Vendor.Network in eastus; type the resource name)');
    expect(s.stderr.text).toContain('no quota named nosuch for Vendor.Network in eastus; try another name');
    expect(s.rejected).toEqual(['a/b: the quota resource name must fit in one URL path segment: no / \\ ? # % or control characters']);
    expect(limitOf('Vendor.Network', 'PublicIPAddresses')).toBe(150);
    await s.ctx.http.close();
  });

  it('a location that lists no quota is said to be empty (not "cannot list"); Esc goes back to choose another', async () => {
    const s = session([
      { kind: 'search', message: /^Subscription \(type to search or enter another\)$/, term: '', pick: '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f (default, VX_SUBSCRIPTION)' },
      { kind: 'search', message: /^Resource provider/, term: '', pick: 'Vendor.Compute' },
      { kind: 'search', message: /^Location/, term: 'eastus2', pick: 'eastus2' },
      { kind: 'back' },
      // the location asked again offers the previous answer first
      { kind: 'search', message: /^Location/, term: '', pick: 'eastus2 (default)', offered: ['eastus2 (default)', 'eastus', 'westus2', 'centralus', 'northeurope', 'westeurope', 'uksouth', 'southeastasia', 'japaneast', 'australiaeast'] },
      { kind: 'back' },
      { kind: 'search', message: /^Location/, term: 'weste', pick: 'westeurope' },
      { kind: 'search', message: /^Quota/, term: 'cores', pick: 'cores' },
      { kind: 'input', message: /^New limit/, answers: ['60'] },
      { kind: 'confirm', message: /^Submit/, answer: true },
    ]);
    await runQuotaWizard(s.ctx, {});
    expect(s.left()).toBe(0);
    expect(s.stderr.text).toContain('(no quotas of Vendor.Compute in eastus2 are listed: is the location right? Esc goes back; or type the resource name)');
    expect(s.stderr.text).not.toContain('does not list');
    expect(s.asked[3]).toMatch(/^input: Quota resource name/);
    expect(writes().map((w) => w.path.split('/').slice(-3).join('/'))).toEqual(['westeurope/serviceLimits/cores']);
    await s.ctx.http.close();
  });

  it('a default provider or location that breaks its rule is not offered (it would fail later, less clearly)', async () => {
    const s = session(
      [
        { kind: 'search', message: /^Subscription \(type to search or enter another\)$/, term: '', pick: '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f (default, VX_SUBSCRIPTION)' },
        { kind: 'search', message: /^Resource provider/, term: '', pick: 'Vendor.Compute', offered: ['Vendor.Compute', 'Vendor.Network', 'Vendor.Storage', 'Vendor.MachineLearningServices', 'Vendor.Web'] },
        { kind: 'search', message: /^Location/, term: '', pick: 'eastus', offered: ['eastus', 'eastus2', 'westus2', 'centralus', 'northeurope', 'westeurope', 'uksouth', 'southeastasia', 'japaneast', 'australiaeast'] },
        { kind: 'interrupt' },
      ],
      { VX_MGMT_PROVIDER: 'Compute', VX_MGMT_LOCATION: 'East US' },
    );
    await expect(runQuotaWizard(s.ctx, {})).rejects.toThrow(InterruptedError);
    expect(s.left()).toBe(0);
    await s.ctx.http.close();
  });

  it('a provider not in the list is typed into the search and offered when it passes its rule', async () => {
    const steps: Step[] = [...HAPPY];
    steps.splice(1, 1, {
      kind: 'search',
      message: /^Resource provider/,
      term: 'Vendor.CognitiveServices',
      pick: 'Vendor.CognitiveServices (use what you typed)',
      offered: ['Vendor.CognitiveServices (use what you typed)'],
    });
    steps.splice(3, 1, { kind: 'search', message: /^Quota/, term: 'token', pick: 'TokensPerMinute' });
    steps.splice(4, 1, { kind: 'input', message: /^New limit/, answers: ['2000'] });
    const s = session(steps);
    await runQuotaWizard(s.ctx, {});
    expect(s.stderr.text).toContain('period PT1M');
    expect(writes()).toHaveLength(1);
    await s.ctx.http.close();
  });

  it('what fails the rule is not offered as typed but says why; the list is filtered by what is typed', async () => {
    const steps: Step[] = [HAPPY[0]!, { kind: 'search', message: /^Resource provider/, term: 'compute', pick: 'Vendor.Compute', offered: ['Vendor.Compute'] }, { kind: 'interrupt' }];
    const s = session(steps);
    await expect(runQuotaWizard(s.ctx, {})).rejects.toThrow(InterruptedError);
    const t = session([HAPPY[0]!, { kind: 'search', message: /^Resource provider/, term: 'no dots', pick: '', offered: [PROVIDER_REFUSED] }]);
    await expect(runQuotaWizard(t.ctx, {})).rejects.toThrow(InterruptedError);
  });

  it('the subscription is chosen from those vx knows (the one in use, every profile\'s) or typed', async () => {
    const dir = tempDir();
    const s = session(
      [
        {
          kind: 'search',
          message: /^Subscription/,
          term: '',
          pick: '0f0e0d0c-0b0a-4909-8807-060504030201',
          offered: ['7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f (default, VX_SUBSCRIPTION)', '0f0e0d0c-0b0a-4909-8807-060504030201 (profile prod)'],
        },
        { kind: 'interrupt' },
      ],
      { VX_CONFIG_DIR: dir },
    );
    await s.ctx.config.set('mgmt.subscription', '0f0e0d0c-0b0a-4909-8807-060504030201', 'prod');
    await s.ctx.config.set('mgmt.subscription', '7C1B3E5A-2F4D-4B6A-9C8E-1A2B3C4D5E6F', 'same');
    await expect(runQuotaWizard(s.ctx, {})).rejects.toThrow(InterruptedError);
    expect(s.left()).toBe(0);
    removeDir(dir);
  });

  it('with every other answer a flag, the subscription in use (VX_SUBSCRIPTION) is taken, not asked', async () => {
    const s = session([{ kind: 'confirm', message: /^Submit this quota change\?$/, answer: true }]);
    await runQuotaWizard(s.ctx, { provider: 'Vendor.CognitiveServices', location: 'eastus', name: 'TokensPerMinute', limit: '2,000' });
    expect(s.asked).toEqual(['confirm: Submit this quota change?']);
    expect(s.stderr.text).toContain('  subscription  7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f\n');
    // thousands grouped by commas, as a person writes them
    expect(writes().map((w) => w.body.properties.limit)).toEqual([2000]);
    await s.ctx.http.close();
  });

  it('flags skip their questions: with all five only the review is asked', async () => {
    const s = session([{ kind: 'confirm', message: /^Submit this quota change\?$/, answer: true }]);
    await runQuotaWizard(s.ctx, { subscription: '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f', provider: 'Vendor.Compute', location: 'eastus', name: 'standardDSv3Family', limit: '64' });
    expect(s.left()).toBe(0);
    expect(s.asked).toEqual(['confirm: Submit this quota change?']);
    expect(s.stderr.text).toContain('limit         50 -> 64 Count');
    expect(limitOf('Vendor.Compute', 'standardDSv3Family')).toBe(64);
    await s.ctx.http.close();
  });

  it('a request the service shows only after a lag (404 to the first reads) is read again; one never shown: exit 1, accepted, how to find it', async () => {
    const flags = { subscription: '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f', provider: 'Vendor.Compute', location: 'eastus', name: 'standardDSv3Family' };
    const fast = { VX_POLL_FLOOR_MS: '5' };
    const statusReads = () => emu.log.filter((l) => l.method === 'GET' && /\/serviceLimitsRequests\//.test(l.path)).map((l) => l.status);
    emu.state.mgmt.requestLag = 3;
    const s = session([{ kind: 'confirm', message: /^Submit this quota change\?$/, answer: true }], fast);
    await runQuotaWizard(s.ctx, { ...flags, limit: '64' });
    await s.ctx.http.close();
    expect(statusReads()).toEqual([404, 404, 404, 200, 200, 200]);
    expect(s.stderr.text).toContain('the limit of standardDSv3Family in eastus is now 64');
    expect(limitOf('Vendor.Compute', 'standardDSv3Family')).toBe(64);

    emu.reset();
    emu.state.mgmt.retryAfter = 0;
    emu.state.mgmt.requestLag = 6;
    const t = session([{ kind: 'confirm', message: /^Submit this quota change\?$/, answer: true }], fast);
    const err = await runQuotaWizard(t.ctx, { ...flags, limit: '64' }).catch((e: unknown) => e as VxError);
    await t.ctx.http.close();
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as VxError).exitCode).toBe(1);
    expect((err as VxError).message).toMatch(
      /^the quota change was accepted \(request [0-9a-f-]{36}\), but the service did not show its status: 6 reads over \d+ s answered 404 ResourceNotFound; the change goes on; find its request with: vx mgmt quota requests list --provider Vendor\.Compute --location eastus --subscription 7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f$/,
    );
    expect(t.stderr.text).not.toContain('requests get');
    expect(statusReads()).toEqual([404, 404, 404, 404, 404, 404]);
    expect(writes()).toHaveLength(1);
  });

  it('a request of the quota still running (an earlier quota set --no-wait): the same limit is followed, not submitted again; another is exit 5', async () => {
    const flags = { subscription: '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f', provider: 'Vendor.Compute', location: 'eastus', name: 'standardDSv3Family' };
    const first = session([{ kind: 'confirm', message: /^Submit this quota change\?$/, answer: true }]);
    emu.state.mgmt.pollsToFinish = 1_000_000;
    await expect(runQuotaWizard(first.ctx, { ...flags, limit: '64', waitTimeout: '1' })).rejects.toThrow(/did not end within --wait-timeout/);
    await first.ctx.http.close();
    expect(writes()).toHaveLength(1);
    const other = session([{ kind: 'confirm', message: /^Submit this quota change\?$/, answer: true }]);
    await expect(runQuotaWizard(other.ctx, { ...flags, limit: '70', waitTimeout: '1' })).rejects.toThrow(/ \(64\) is still InProgress; a second change now would race it/);
    await other.ctx.http.close();
    expect(writes()).toHaveLength(1);
    // the running request ends at its next status read
    for (const r of Object.values(emu.state.mgmt.requests as Record<string, { pollsLeft: number }>)) r.pollsLeft = 0;
    const same = session([{ kind: 'confirm', message: /^Submit this quota change\?$/, answer: true }]);
    await runQuotaWizard(same.ctx, { ...flags, limit: '64' });
    expect(same.stderr.text).toMatch(/quota request [0-9a-f-]{36} for standardDSv3Family \(64\) is still InProgress: following it instead of submitting the same change again/);
    expect(writes()).toHaveLength(1);
    expect(limitOf('Vendor.Compute', 'standardDSv3Family')).toBe(64);
    await same.ctx.http.close();
  });

  it('a --limit the quota cannot take is exit 2 before anything is changed', async () => {
    const s = session([]);
    await expect(runQuotaWizard(s.ctx, { provider: 'Vendor.Compute', location: 'eastus', subscription: '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f', name: 'standardDSv3Family', limit: '47' })).rejects.toThrow(
      new UsageError('invalid --limit 47: the limit may not be below the current usage of 48; nothing was sent'),
    );
    expect(writes()).toEqual([]);
    await s.ctx.http.close();
  });

  it('Esc goes back one question (skipping those given as flags); at the first it stays', async () => {
    const s = session(
      [
        { kind: 'back' }, // Esc at the first question: asked again
        { kind: 'search', message: /^Subscription \(type to search or enter another\)$/, term: '', pick: '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f (default, VX_SUBSCRIPTION)' },
        { kind: 'search', message: /^Location/, term: 'west', pick: 'westeurope' },
        { kind: 'search', message: /^Quota/, term: 'cores', pick: 'cores' },
        { kind: 'back' }, // at the new limit: back to the quota
        { kind: 'search', message: /^Quota/, term: 'cor', pick: 'cores' },
        { kind: 'back' }, // at the limit again: back to the quota
        { kind: 'back' }, // at the quota: back to the location (the provider was a flag)
        { kind: 'search', message: /^Location/, term: 'east', pick: 'eastus' },
        { kind: 'search', message: /^Quota/, term: 'dsv3', pick: 'standardDSv3Family' },
        { kind: 'input', message: /^New limit/, answers: ['70'] },
        { kind: 'back' }, // at the review: back to the limit
        { kind: 'input', message: /^New limit/, answers: ['80'] },
        { kind: 'confirm', message: /^Submit/, answer: true },
      ],
    );
    await runQuotaWizard(s.ctx, { provider: 'Vendor.Compute' });
    expect(s.left()).toBe(0);
    expect(writes().map((w) => w.body.properties.limit)).toEqual([80]);
    expect(limitOf('Vendor.Compute', 'standardDSv3Family')).toBe(80);
    await s.ctx.http.close();
  });

  it('an unknown subscription is asked again (not quota names); the later answers are offered as they were', async () => {
    const s = session([
      { kind: 'search', message: /^Subscription/, term: '0f0e0d0c-0b0a-4909-8807-060504030299', pick: '0f0e0d0c-0b0a-4909-8807-060504030299 (use what you typed)' },
      { kind: 'search', message: /^Resource provider/, term: '', pick: 'Vendor.Compute' },
      { kind: 'search', message: /^Location/, term: '', pick: 'eastus' },
      { kind: 'search', message: /^Subscription/, term: '', pick: emu.state.mgmt.defaultSubscription },
      { kind: 'search', message: /^Resource provider/, term: '', pick: 'Vendor.Compute (default)' },
      { kind: 'search', message: /^Location/, term: '', pick: 'eastus (default)' },
      { kind: 'search', message: /^Quota/, term: 'dsv3', pick: 'standardDSv3Family' },
      { kind: 'input', message: /^New limit/, answers: ['120'] },
      { kind: 'confirm', message: /^Submit/, answer: true },
    ]);
    await runQuotaWizard(s.ctx, {});
    expect(s.left()).toBe(0);
    expect(s.stderr.text).toMatch(
      /\nHTTP 404 Not Found SubscriptionNotFound: The subscription '0f0e0d0c-0b0a-4909-8807-060504030299' could not be found\. \(request id [0-9a-f-]{36}\)\ncheck the subscription id \(Ctrl-C stops\)\n/,
    );
    expect(writes()).toHaveLength(1);
    expect(limitOf('Vendor.Compute', 'standardDSv3Family')).toBe(120);
    await s.ctx.http.close();
  });

  it('an unknown subscription given as --subscription ends the wizard with the service error (exit 4)', async () => {
    const s = session([
      { kind: 'search', message: /^Resource provider/, term: '', pick: 'Vendor.Compute' },
      { kind: 'search', message: /^Location/, term: '', pick: 'eastus' },
    ]);
    const err = await runQuotaWizard(s.ctx, { subscription: '0f0e0d0c-0b0a-4909-8807-060504030299' }).then(
      () => undefined,
      (e) => e,
    );
    expect(s.left()).toBe(0);
    expect(err?.exitCode).toBe(4);
    expect(err.message).toMatch(/^HTTP 404 Not Found SubscriptionNotFound: The subscription '0f0e0d0c-0b0a-4909-8807-060504030299' could not be found\. \(request id [0-9a-f-]{36}\)$/);
    expect(writes()).toEqual([]);
    await s.ctx.http.close();
  });

  it('invalid limits are refused with the rule until a valid one is typed', async () => {
    const steps = HAPPY.map((x) => (x.kind === 'input' && x.message.source.includes('New limit') ? { ...x, answers: ['lots', '12.5', '-3', '2147483648', '2,147,483,648', '1,00', '47', '50', '64'] } : x));
    const s = session(steps);
    await runQuotaWizard(s.ctx, {});
    expect(s.rejected).toEqual([
      'lots: the limit must be a whole number',
      '12.5: the limit must be a whole number',
      '-3: the limit must be at least 0',
      '2147483648: the limit must be at most 2147483647 (a 32-bit integer)',
      '2,147,483,648: the limit must be at most 2147483647 (a 32-bit integer)',
      '1,00: the limit must be a whole number',
      '47: the limit may not be below the current usage of 48',
      '50: 50 is the current limit; enter a different number',
    ]);
    expect(writes()[0].body.properties.limit).toBe(64);
    await s.ctx.http.close();
  });

  for (let step = 0; step < HAPPY.length; step++) {
    it(`Ctrl-C at step ${step + 1} (${HAPPY[step].kind}) exits 130 with nothing sent`, async () => {
      const steps = [...HAPPY.slice(0, step), { kind: 'interrupt' } as Step];
      const s = session(steps);
      const err = await runQuotaWizard(s.ctx, {}).then(
        () => undefined,
        (e) => e,
      );
      expect(err).toBeInstanceOf(InterruptedError);
      expect(err.exitCode).toBe(130);
      expect(writes()).toEqual([]);
      expect(emu.count({ family: 'mgmt', method: 'PATCH' })).toBe(0);
      await s.ctx.http.close();
    });
  }

  it('answering no at the review sends nothing (exit 2) and prints the command that would do it', async () => {
    const s = session(HAPPY.map((x) => (x.kind === 'confirm' ? { ...x, answer: false } : x)));
    await expect(runQuotaWizard(s.ctx, {})).rejects.toThrow(new UsageError('cancelled; nothing was sent'));
    expect(writes()).toEqual([]);
    expect(s.stderr.text.trimEnd().split('\n').at(-1)).toBe(
      'the same change without the wizard: vx mgmt quota set standardDSv3Family --subscription 7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f --provider Vendor.Compute --location eastus --limit 120 --yes',
    );
    await s.ctx.http.close();
  });

  it('--yes submits after the summary without asking (the global option skips confirmations)', async () => {
    const s = session(HAPPY.filter((x) => x.kind !== 'confirm'), {}, { yes: true });
    await runQuotaWizard(s.ctx, {});
    expect(s.left()).toBe(0);
    expect(s.asked.some((a) => a.startsWith('confirm'))).toBe(false);
    expect(s.stderr.text).toContain('Summary:\n');
    expect(s.stderr.text).toContain('(--yes: submitted without asking)\n');
    expect(limitOf('Vendor.Compute', 'standardDSv3Family')).toBe(120);
    await s.ctx.http.close();
  });

  it('a request that ends Failed: the outcome is shown and it exits 1', async () => {
    const s = session(HAPPY.map((x) => (x.kind === 'input' && x.message.source.includes('New limit') ? { ...x, answers: ['900'] } : x)));
    await expect(runQuotaWizard(s.ctx, {})).rejects.toThrow(/ended Failed: The requested limit 900 exceeds the regional capacity of 200/);
    expect(s.stderr.text).toMatch(/quota request [0-9a-f-]+: Failed\n/);
    expect(s.stderr.text).toContain('the same change without the wizard: vx mgmt quota set standardDSv3Family');
    await s.ctx.http.close();
  });

  it('a request still running when the wait times out: how to follow it, never "the same change" (it would be submitted twice)', async () => {
    emu.state.mgmt.retryAfter = 30;
    const s = session(HAPPY);
    await expect(runQuotaWizard(s.ctx, { waitTimeout: '1' })).rejects.toThrow(/did not end within --wait-timeout 1 s \(last state InProgress/);
    expect(s.stderr.text).toMatch(/quota request ([0-9a-f-]{36}) was submitted; follow it with: vx mgmt quota requests get \1 /);
    expect(s.stderr.text).not.toContain('the same change without the wizard');
    expect(writes()).toHaveLength(1);
    await s.ctx.http.close();
  });

  it('without a terminal it refuses with exit 2 and names the non-interactive command (spawned)', async () => {
    const r = await runVx(['mgmt', 'quota', 'wizard'], { configDir, env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('vx: the quota wizard needs a terminal (stdin and stderr); without one use: vx mgmt quota set <resourceName> --provider <id> --location <loc> --limit <n> --yes\n');
    expect(r.stdout).toBe('');
    expect(emu.count({ family: 'mgmt' })).toBe(0);
  });
});

describe('confirmation at a terminal', () => {
  const scope = { provider: 'Vendor.Compute', location: 'eastus' };

  it('quota set asks with the current and new limit; no sends nothing, yes changes it', async () => {
    const no = session([{ kind: 'confirm', message: /^Change the limit of cores \(Total Regional vCPUs\) in eastus from 100 to 150 Count\?$/, answer: false }]);
    await expect(runQuotaSet(no.ctx, { ...scope, wait: true, limit: '150' }, 'cores')).rejects.toThrow(new UsageError('cancelled; nothing was sent'));
    expect(writes()).toEqual([]);
    const yes = session([{ kind: 'confirm', message: /^Change the limit/, answer: true }]);
    await runQuotaSet(yes.ctx, { ...scope, wait: true, limit: '150', pollInterval: '0' }, 'cores');
    expect(limitOf('Vendor.Compute', 'cores')).toBe(150);
    expect(yes.stderr.text).toContain('the limit of cores in eastus is now 150');
    await no.ctx.http.close();
    await yes.ctx.http.close();
  });

  it('version-sets delete reads, then asks; no deletes nothing', async () => {
    const no = session([{ kind: 'confirm', message: /^Delete version set orders \(Orders\) of service contoso-api\?$/, answer: false }]);
    await expect(runVsDelete(no.ctx, { resourceGroup: 'web', service: 'contoso-api' }, 'orders')).rejects.toThrow(UsageError);
    expect(emu.count({ family: 'mgmt' })).toBe(1);
    expect(emu.count({ family: 'mgmt', method: 'DELETE' })).toBe(0);
    const yes = session([{ kind: 'confirm', message: /^Delete version set orders/, answer: true }]);
    await runVsDelete(yes.ctx, { resourceGroup: 'web', service: 'contoso-api' }, 'orders');
    expect(yes.stderr.text).toBe('deleted version set orders\n');
    await yes.ctx.http.close();
  });
});

describe('on a real terminal (util-linux script): the @inquirer prompts themselves', () => {
  const plain = (s: string) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');

  /** Runs the wizard on a pseudo-terminal; each step waits for its text (after the previous one) and types its keys. */
  function onTerminal(steps: [RegExp, string][], o: { args?: string[]; env?: Record<string, string | undefined> } = {}): Promise<{ code: number | null; screen: string; raw: string; left: number; seen: string[] }> {
    const sh = (x: string) => `'${x.replace(/'/g, `'\\''`)}'`;
    const cmd = [process.execPath, BIN, 'mgmt', 'quota', 'wizard', ...(o.args ?? [])].map(sh).join(' ');
    const env: Record<string, string | undefined> = { ...baseEnv(configDir), ...emu.env(), TERM: 'xterm', COLUMNS: '160', ...o.env };
    for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], {
      env: env as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let raw = '';
    let from = 0;
    // the bytes written when each step's text was seen (what the terminal showed then: screenOf)
    const seen: string[] = [];
    const queue = [...steps];
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.on('data', (c) => {
      raw += c;
      const screen = plain(raw);
      const next = queue[0];
      if (!next) return;
      const m = next[0].exec(screen.slice(from));
      if (!m) return;
      from += m.index + m[0].length;
      seen.push(raw);
      queue.shift();
      // give the prompt a moment to start reading keys
      setTimeout(() => child.stdin.write(next[1]), 60);
    });
    return new Promise((resolve) => {
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, screen: plain(raw), raw, left: queue.length, seen });
      });
    });
  }

  it('happy path with a searched quota and a refused limit: the PATCH, the spinner, the outcome', async () => {
    const r = await onTerminal([
      [/\? Subscription \(type to search or enter another\)\s*\n❯ 7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f \(default, VX_SUBSCRIPTION\)/, '\r'],
      [/\? Resource provider \(type to search or enter another\)[\s\S]*❯ Vendor\.Compute/, '\r'],
      [/\? Location[\s\S]*❯ eastus/, '\r'],
      [/\? Quota \(type to search\)[\s\S]*standardFSv2Family/, 'fsv'],
      [/Quota \(type to search\) fsv\s*\n❯ standardFSv2Family — Standard FSv2 Family vCPUs \(0 of 20 Count used\)/, '\r'],
      [/\? New limit/, 'abc\r'],
      [/> the limit must be a whole number/, '\u007f\u007f\u007f20\r'],
      [/> 20 is the current limit; enter a different number/, '\u007f\u007f40\r'],
      [/limit {9}20 -> 40 Count\n\? Submit this quota change\? \(y\/N\)/, 'y\r'],
    ]);
    expect(r.left, r.screen).toBe(0);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toContain('standardFSv2Family (Standard FSv2 Family vCPUs): limit 20 Count, usage 0 (0% used)');
    expect(r.screen).toMatch(/⠋ quota request [0-9a-f-]{36}: InProgress/);
    expect(r.screen).toMatch(/quota request [0-9a-f-]{36}: Succeeded\n/);
    expect(r.screen).toContain('the limit of standardFSv2Family in eastus is now 40');
    expect(writes().map((w) => [w.method, w.body])).toEqual([['PATCH', { properties: { limit: 40, unit: 'Count', name: { value: 'standardFSv2Family' } } }]]);
    expect(limitOf('Vendor.Compute', 'standardFSv2Family')).toBe(40);
  }, 30_000);

  it('Esc on a real terminal goes back to the question before, its old answer erased; the flow then goes on', async () => {
    const r = await onTerminal([
      [/\? Subscription[\s\S]*❯ 7c1b/, '\r'],
      [/\? Resource provider[\s\S]*❯ Vendor\.Compute/, '\r'],
      [/\? Location[\s\S]*❯ eastus/, 'west\u001b'],
      [/\? Resource provider[\s\S]*❯ Vendor\.Compute/, '\r'],
      [/\? Location[\s\S]*❯ eastus/, '\r'],
      [/\? Quota \(type to search\)[\s\S]*❯ cores/, '\r'],
      [/\? New limit \(from \d+, no upper bound; now \d+\)/, '1,000\u001b'],
      [/\? Quota \(type to search\)[\s\S]*❯ cores/, '\u0003'],
    ]);
    expect(r.left, r.screen).toBe(0);
    expect(r.code, r.screen).toBe(130);
    const top = (raw: string) => screenOf(raw, 160).slice(0, 3);
    const intro = '(Esc goes back one question, Ctrl-C stops; nothing is changed before the last question)';
    const sub = '✔ Subscription (type to search or enter another) 7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f';
    // the provider asked again stands where it stood: neither its old answer nor the location left above or below it
    expect(top(r.seen[3]!)).toEqual([intro, sub, '? Resource provider (type to search or enter another)']);
    expect(screenOf(r.seen[3]!, 160).join('\n')).not.toMatch(/Location|west/);
    // back from the limit: the quota's answer and the line about it are gone too
    const quota = screenOf(r.seen[7]!, 160);
    expect(quota.slice(0, 5)).toEqual([intro, sub, '✔ Resource provider (type to search or enter another) Vendor.Compute', '✔ Location (type to search or enter another) eastus', '? Quota (type to search)']);
    expect(quota.join('\n')).not.toMatch(/limit 100|New limit|1,000/);
    expect(writes()).toEqual([]);
  }, 30_000);

  it('--no-color draws the prompts without colour (without it, and without NO_COLOR, they have colour)', async () => {
    const steps: [RegExp, string][] = [
      [/\? Subscription[\s\S]*❯ 7c1b/, '\r'],
      [/\? Resource provider[\s\S]*❯ Vendor\.Compute/, '\u0003'],
    ];
    const sgr = /\u001b\[(?:[0-9;]*)m/;
    const coloured = await onTerminal(steps, { env: { NO_COLOR: undefined } });
    expect(coloured.left, coloured.screen).toBe(0);
    expect(coloured.raw).toMatch(sgr);
    const plainRun = await onTerminal(steps, { args: ['--no-color'], env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(plainRun.left, plainRun.screen).toBe(0);
    expect(plainRun.code).toBe(130);
    expect(plainRun.raw).not.toMatch(sgr);
  }, 30_000);

  it('Ctrl-C at the review exits 130 and sends no PATCH', async () => {
    const r = await onTerminal([
      [/\? Subscription[\s\S]*❯ 7c1b/, '\r'],
      [/\? Resource provider[\s\S]*❯ Vendor\.Compute/, '\r'],
      [/\? Location[\s\S]*❯ eastus/, '\r'],
      [/\? Quota \(type to search\)[\s\S]*❯ cores/, '\r'],
      [/\? New limit/, '150\r'],
      [/\? Submit this quota change\? \(y\/N\)/, '\u0003'],
    ]);
    expect(r.left, r.screen).toBe(0);
    expect(r.code, r.screen).toBe(130);
    expect(r.screen).toContain('vx: cancelled');
    expect(writes()).toEqual([]);
    expect(emu.count({ family: 'mgmt', method: 'PATCH' })).toBe(0);
  }, 30_000);
});
