// The one door to configuration. Precedence: flag > environment > profile > default.
// Reads take a fast path (one readFileSync + JSON.parse); writes go through conf, loaded lazily,
// which writes atomically with mode 0600. The setting registry is handed in by the caller: this
// module knows nothing about any API family.
import { accessSync, chmodSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../env.js';
import { AuthError, UsageError } from '../errors.js';
import { jsonErrorWithoutText } from '../json.js';
import { addSecret, redact } from '../redact.js';
import { normalizeBase } from '../url.js';
// the declaration of a setting is pure data of the registry; this module knows no family
import type { SettingDef } from '../../model/families.js';
import { accessAdvice, briefError, checkDir, checkOwners, defaultConfigDir, ensureDir } from './files.js';
import { withLock } from './lock.js';
import { nullProto, PROFILE_NAME, type ProfileData, type Resolved, type StoreData } from './store.js';

export type { SettingDef };
export { lockHolderAlive } from './lock.js';
export { defaultConfigDir } from './files.js';
export { PROFILE_NAME, type ProfileData, type Resolved, type Source, type StoreData } from './store.js';

/**
 * A setting's value as `profile show` prints it: a secret masked; in any other, a `user:password@`
 * of an address hidden (an endpoint, or a translation memory's postgres:// URL) and any known secret.
 */
export function shownValue(def: Pick<SettingDef, 'secret'> | undefined, value: unknown): string {
  return def?.secret ? maskSecret(value as string) : redact(String(value));
}

export function maskSecret(value: string | undefined): string {
  if (!value) return '';
  return '********';
}

/** The profile in use when none is chosen; it may be stored or not (settings from the environment). */
export const DEFAULT_PROFILE = 'default';

function emptyFlag(what: string): UsageError {
  return new UsageError(`${what} was given as an empty value; leave the option out to use the environment or profile setting (nothing was sent)`);
}

export class Config {
  readonly dir: string;
  readonly path: string;
  private data: StoreData | undefined;
  /** why the file could not be read (it exists: not ENOENT) */
  private readError: NodeJS.ErrnoException | undefined;
  /** the same, once a lookup went on without the file */
  private unreadable: NodeJS.ErrnoException | undefined;
  private readonly defs = new Map<string, SettingDef>();

  constructor(
    defs: readonly SettingDef[],
    private readonly opts: { dir?: string; profileFlag?: string; env: Env; warn?: (message: string) => void },
  ) {
    for (const d of defs) {
      this.defs.set(d.key, d);
      // every secret in the environment is redacted, whether or not this command uses it
      if (d.secret && d.env) addSecret(this.env[d.env]);
    }
    this.dir = opts.dir ?? defaultConfigDir(this.env);
    this.path = join(this.dir, 'config.json');
  }

  private get env(): Env {
    return this.opts.env;
  }

  settings(): SettingDef[] {
    return [...this.defs.values()];
  }

  /** The settings a person sets (`profile set|unset`), without vx's internal records. */
  publicSettings(): SettingDef[] {
    return this.settings().filter((d) => !d.internal);
  }

  def(key: string): SettingDef | undefined {
    return this.defs.get(key);
  }

  /** The raw store, read once. A file that is not valid JSON is reported, never replaced. */
  store(): StoreData {
    if (this.data) return this.data;
    let text: string;
    try {
      checkOwners(this.dir, this.path);
      text = readFileSync(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return (this.data = {});
      this.readError = e as NodeJS.ErrnoException;
      throw new UsageError(`cannot read config file ${this.path}: ${(e as Error).message}${this.accessAdvice(e)}`);
    }
    checkDir(this.dir, this.path);
    if (!text.trim()) return (this.data = {});
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new UsageError(
        `config file ${this.path} is not valid JSON (${jsonErrorWithoutText(text, e as Error)}); fix it or remove it — vx leaves it untouched`,
      );
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new UsageError(`config file ${this.path} does not hold a JSON object; fix it or remove it — vx leaves it untouched`);
    }
    this.data = nullProto(parsed as StoreData);
    for (const p of Object.values(this.data.profiles ?? {})) {
      for (const [k, v] of Object.entries(p ?? {})) if (this.defs.get(k)?.secret && typeof v === 'string') addSecret(v);
    }
    return this.data;
  }

  /**
   * The store for looking settings up in the implicit profile. A file that exists but cannot be
   * read (permissions, a directory in its place) is needed only when a profile is named: otherwise
   * the command goes on with flags and environment variables, with one warning (as CI runs that
   * give everything by environment expect), and a setting they do not give is reported as that
   * read failure, not as "not set". A corrupt file stays an error (it is never silently skipped).
   */
  private lookupStore(): StoreData {
    if (this.unreadable) return {};
    try {
      return this.store();
    } catch (e) {
      const cause = this.readError;
      if (!cause || this.opts.profileFlag || this.env.VX_PROFILE) throw e;
      this.unreadable = cause;
      this.opts.warn?.(`cannot read config file ${this.path} (${briefError(cause)}): only flags and environment variables are used${this.accessAdvice(cause)}`);
      return {};
    }
  }

  /** flag > VX_PROFILE > the active profile > "default" */
  profileName(): string {
    return this.opts.profileFlag || this.activeProfile();
  }

  /**
   * The active profile: the one every command of this environment uses unless `-p` names another
   * (VX_PROFILE, else the one `profile use` chose, else "default"). What `profile list` and
   * `profile show` mark active: a `-p` on their own line does not change it.
   */
  activeProfile(): string {
    return this.env.VX_PROFILE || this.lookupStore().activeProfile || DEFAULT_PROFILE;
  }

  /** The named profile's settings; without a name, the profile in use (looked up as lookupStore says). */
  profile(name?: string): ProfileData {
    const profiles = (name === undefined ? this.lookupStore() : this.store()).profiles;
    name ??= this.profileName();
    return (profiles && Object.hasOwn(profiles, name) ? profiles[name] : undefined) ?? Object.create(null);
  }

  profileExists(name: string): boolean {
    const profiles = this.store().profiles;
    return Boolean(profiles && Object.hasOwn(profiles, name) && profiles[name]);
  }

  /** The names of the stored profiles, sorted. */
  profileNames(): string[] {
    return Object.keys(this.store().profiles ?? {}).sort();
  }

  /** "existing profiles: a, b" or "no profile exists yet" */
  private existingProfiles(): string {
    const names = this.profileNames();
    return names.length ? `existing profiles: ${names.join(', ')}` : 'no profile exists yet';
  }

  /** The error for a profile that was named but does not exist (a usage error: exit 2). */
  noSuchProfile(name: string, origin?: string, howToCreate = true): UsageError {
    const create = !PROFILE_NAME.test(name)
      ? '; a profile name is a letter or digit followed by up to 63 letters, digits, dots, underscores or dashes'
      : howToCreate
        ? `; create it with \`vx -p ${name} profile set <key> <value>\` or \`vx -p ${name} auth login\``
        : '';
    return new UsageError(`no profile named "${name}"${origin ? ` (from ${origin})` : ''}; ${this.existingProfiles()}${create}`);
  }

  /**
   * Refuses a profile named by --profile or VX_PROFILE that does not exist (as aws does), before
   * anything is sent. The implicit "default" profile may be absent (settings from the environment).
   */
  checkProfile(): void {
    const flag = this.opts.profileFlag;
    const env = this.env.VX_PROFILE;
    const name = flag || env;
    if (!name || this.profileKnown(name)) return;
    throw this.noSuchProfile(name, flag ? '--profile' : 'VX_PROFILE');
  }

  /**
   * Resolves a setting: flag > environment > profile > default (then its fallback setting). `what`
   * names the setting in the error for an empty flag.
   */
  /** Where a setting's value comes from, for a message about a bad one: its variable, its profile, or the key. */
  originOf(key: string): string {
    const r = this.resolve(key);
    if (r?.source === 'env') return `${r.origin} (the ${key} setting)`;
    if (r?.source === 'profile') return `the ${key} setting of profile "${r.origin}"`;
    return key;
  }

  resolve(key: string, flag?: string, what?: string): Resolved | undefined {
    return this.resolveIn(undefined, key, flag, what);
  }

  /**
   * The effective value of a setting for the commands that use profile `name` (undefined: the
   * one in use): flag > environment > that profile > default (then its fallback setting).
   */
  resolveIn(name: string | undefined, key: string, flag?: string, what?: string): Resolved | undefined {
    const def = this.defs.get(key);
    // an empty flag ("--subscription $UNSET_VAR") must not fall back to another subscription or company
    if (flag === '') throw emptyFlag(what ?? def?.description ?? key);
    if (flag !== undefined) return { value: flag, source: 'flag' };
    if (def?.env) {
      const v = this.env[def.env];
      if (v !== undefined && v !== '') {
        if (def.secret) addSecret(v);
        return { value: v, source: 'env', origin: def.env };
      }
    }
    const p = this.profile(name)[key];
    if (typeof p === 'string' && p !== '') return { value: p, source: 'profile', origin: name ?? this.profileName() };
    if (def?.default !== undefined) return { value: def.default, source: 'default' };
    if (def?.fallback) return this.resolveIn(name, def.fallback);
    return undefined;
  }

  get(key: string, flag?: string): string | undefined {
    return this.resolve(key, flag)?.value;
  }

  /**
   * Like get(), for a setting with a form (its check): a value that breaks it is a usage error that
   * names where it came from (the variable or the profile), at every use as profile set does.
   */
  checked(key: string): string | undefined {
    const value = this.get(key);
    const expected = value === undefined ? undefined : this.defs.get(key)?.check?.(value);
    if (expected !== undefined) throw new UsageError(`invalid value "${value}" for ${this.originOf(key)}: expected ${expected}`);
    return value;
  }

  /** Like get(), but a missing value is an error that says how to set it. */
  require(key: string, flag?: string, what?: string): string {
    const r = this.resolve(key, flag, what);
    if (r) return r.value;
    const def = this.defs.get(key);
    // a setting that falls back to another one says so (lcs.token falls back to erp.token)
    const fb = def?.fallback ? this.defs.get(def.fallback) : undefined;
    const fallback = fb ? ` (falls back to ${[fb.env, fb.key].filter(Boolean).join('/')})` : '';
    const how = [def?.env ? `set ${def.env}${fallback}` : undefined, `run \`vx profile set ${key} <value>\``].filter(Boolean).join(' or ');
    const label = what ?? def?.description ?? key;
    // the file that may hold it could not be read (a warning said so, with what to do): that is the error to fix
    if (this.unreadable) {
      throw new UsageError(`${label} is not in ${def?.env ?? 'the environment'}, and config file ${this.path}, which may hold it, could not be read (${briefError(this.unreadable)})`);
    }
    if (def?.credential) {
      throw new AuthError(`no credentials configured: ${label} is not set; ${how}, or sign in with \`vx auth login --service ${key.split('.')[0]}\``);
    }
    throw new UsageError(`${label} is not set: ${how}`);
  }

  // ---- writes (conf, loaded on demand) ----

  private async conf() {
    const { default: Conf } = await import('conf');
    this.ensureDir();
    this.store(); // refuse to touch a corrupt file
    return new Conf<Record<string, unknown>>({
      cwd: this.dir,
      configName: 'config',
      projectName: 'vx',
      projectSuffix: '',
      clearInvalidConfig: false,
      accessPropertiesByDotNotation: false,
      configFileMode: 0o600,
      // a blank file counts as empty (as store() reads it), not as a JSON error
      deserialize: (text: string) => (text.trim() ? JSON.parse(text) : {}),
    });
  }

  private ensureDir(): void {
    ensureDir(this.dir, this.path);
  }

  /** What to do about a config file or directory this user may not read or write (often left by `sudo vx`). */
  private accessAdvice(e: unknown): string {
    return accessAdvice(e, this.dir);
  }

  /**
   * Refuses, before a sign-in begins, a configuration that could not keep its result: a corrupt or
   * unreadable file, a directory that cannot be created or written. Otherwise the person would go
   * through the browser or device sign-in for nothing (the token obtained would be lost).
   */
  checkWritable(): void {
    this.store();
    this.ensureDir();
    try {
      accessSync(this.dir, constants.W_OK);
    } catch (e) {
      throw new UsageError(`cannot store credentials: config directory ${this.dir} is not writable (${(e as NodeJS.ErrnoException).code})${this.accessAdvice(e)}; nothing was sent`);
    }
  }

  /** Serialises writers across processes (config/lock.ts); inside the lock the file is read afresh. */
  private async withLock<T>(fn: () => Promise<T>): Promise<T> {
    this.ensureDir();
    return withLock(this.path, (e) => this.accessAdvice(e), fn);
  }

  /** true while exclusive() runs: writes inside it take no second lock */
  private lockHeld = false;

  /**
   * Runs `fn` holding the config lock, with the store read afresh: another vx that wants the lock
   * (to write, or to run its own exclusive step) waits until `fn` is done. Writes made inside `fn`
   * (set, setMany, ...) use the lock already held. For read-check-write steps that must not run
   * twice at once, e.g. renewing a sign-in whose refresh token can be used only once.
   */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    // callers in this process take turns too (`auth status --check` renews erp and lcs, which falls
    // back to it, at once: both ran the step, and the second spent the used refresh token); `fn`
    // must not call exclusive() itself
    const turn = this.exclusiveTail.then(() =>
      this.withLock(async () => {
        this.data = undefined;
        this.lockHeld = true;
        try {
          return await fn();
        } finally {
          this.lockHeld = false;
        }
      }),
    );
    this.exclusiveTail = turn.catch(() => undefined);
    return turn;
  }

  /** the last exclusive() step of this process, which the next one waits for */
  private exclusiveTail: Promise<unknown> = Promise.resolve();

  private async mutate(fn: (d: StoreData) => void): Promise<void> {
    if (this.lockHeld) return this.mutateLocked(fn);
    await this.withLock(() => this.mutateLocked(fn));
  }

  private async mutateLocked(fn: (d: StoreData) => void): Promise<void> {
    this.data = undefined; // read afresh under the lock
    const conf = await this.conf();
    const d: StoreData = nullProto({
      activeProfile: conf.get('activeProfile') as string | undefined,
      profiles: structuredClone((conf.get('profiles') as StoreData['profiles']) ?? {}),
    });
    fn(d);
    const next: Record<string, unknown> = { ...conf.store, profiles: d.profiles };
    if (d.activeProfile) next.activeProfile = d.activeProfile;
    else delete next.activeProfile;
    conf.store = next;
    try {
      chmodSync(this.path, 0o600);
    } catch {
      /* ignore */
    }
    this.data = nullProto(next as StoreData);
  }

  validateKey(key: string): SettingDef {
    const def = this.defs.get(key);
    if (!def) {
      // what follows an = is never shown: `translator.key=<key>` is a setting written az's way
      throw new UsageError(`unknown setting "${key.replace(/=.*/s, '=…')}"; known settings: ${this.publicSettings().map((d) => d.key).join(', ')}`);
    }
    return def;
  }

  /** What set() refuses: an unknown key, a value outside the key's choices, an invalid profile name. */
  checkValue(key: string, value: string, profile = this.profileName()): void {
    const def = this.validateKey(key);
    if (def.choices && !def.choices.includes(value)) {
      throw new UsageError(`invalid value "${value}" for ${key}; allowed: ${def.choices.join(', ')}`);
    }
    if (def.url) normalizeBase(value, key);
    // a credential goes into a header: one it cannot carry would make every command fail (never shown)
    if (def.credential && /[^\x21-\x7e]/.test(value)) {
      throw new UsageError(`the value for ${key} holds a character a credential cannot carry (a control character, a space or one beyond ASCII); nothing was stored`);
    }
    const expected = def.check?.(value);
    if (expected !== undefined) throw new UsageError(`invalid value ${def.secret ? '(not shown)' : `"${value}"`} for ${key}: expected ${expected}`);
    if (!PROFILE_NAME.test(profile)) throw new UsageError(`invalid profile name "${profile}"`);
  }

  async set(key: string, value: string, profile = this.profileName()): Promise<void> {
    this.checkValue(key, value, profile);
    await this.mutate((d) => {
      d.profiles ??= {};
      d.profiles[profile] = Object.assign(Object.create(null), d.profiles[profile], { [key]: value });
    });
  }

  /** Stores several keys at once (one write). Keys are not checked against the registry. */
  async setMany(values: Record<string, string | undefined>, profile = this.profileName()): Promise<void> {
    await this.mutate((d) => {
      d.profiles ??= {};
      const p: ProfileData = Object.assign(Object.create(null), d.profiles[profile]);
      for (const [k, v] of Object.entries(values)) {
        if (v === undefined) delete p[k];
        else p[k] = v;
      }
      d.profiles[profile] = p;
    });
  }

  async unset(key: string, profile = this.profileName()): Promise<boolean> {
    let had = false;
    await this.mutate((d) => {
      const p = d.profiles?.[profile];
      if (p && Object.hasOwn(p, key)) {
        had = true;
        delete p[key];
      }
    });
    return had;
  }

  /** Makes a stored profile the active one; "default" is always one (settings from the environment when it stores none). */
  async use(name: string): Promise<void> {
    if (name === DEFAULT_PROFILE) {
      await this.mutate((d) => void delete d.activeProfile);
      return;
    }
    if (!this.profileExists(name)) throw this.noSuchProfile(name);
    await this.mutate((d) => {
      if (!d.profiles || !Object.hasOwn(d.profiles, name)) throw this.noSuchProfile(name); // deleted meanwhile
      d.activeProfile = name;
    });
  }

  /** A profile that `-p`, `profile use` and `profile show` may name: a stored one, or the implicit "default". */
  profileKnown(name: string): boolean {
    return name === DEFAULT_PROFILE || this.profileExists(name);
  }

  async deleteProfile(name: string): Promise<void> {
    if (!this.profileExists(name)) throw this.noSuchProfile(name, undefined, false);
    await this.mutate((d) => {
      delete d.profiles?.[name];
      if (d.activeProfile === name) delete d.activeProfile;
    });
  }

  listProfiles(): { name: string; active: boolean; settings: number }[] {
    const s = this.store();
    const active = this.activeProfile();
    const names = new Set(Object.keys(s.profiles ?? {}));
    names.add(active);
    return [...names].sort().map((name) => ({ name, active: name === active, settings: Object.keys(this.profile(name)).length }));
  }

  /** The profile's stored settings with secrets masked. */
  showProfile(name = this.profileName()): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.profile(name))) out[k] = shownValue(this.defs.get(k), v);
    return out;
  }
}
