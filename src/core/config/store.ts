// The config file's content: profiles of settings and the active profile, read with null-prototype
// maps (a profile named `constructor` is a name, never Object.prototype's).
export type Source = 'flag' | 'env' | 'profile' | 'default';

export interface Resolved {
  value: string;
  source: Source;
  /** the env variable or profile name it came from */
  origin?: string;
}

export type ProfileData = Record<string, string>;

export interface StoreData {
  activeProfile?: string;
  profiles?: Record<string, ProfileData>;
}

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The store with null-prototype maps: a profile named `toString`, `constructor` or
 * `hasOwnProperty` is looked up as a name, never found on Object.prototype.
 */
export function nullProto(d: StoreData): StoreData {
  const profiles: Record<string, ProfileData> = Object.create(null);
  for (const [name, p] of Object.entries(d.profiles ?? {})) {
    if (p && typeof p === 'object') profiles[name] = Object.assign(Object.create(null), p);
  }
  return { ...d, profiles };
}
