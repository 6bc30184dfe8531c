// The service families vx speaks to, as data: the one list that --service choices, auth, the
// settings table (profile set --help), the emulator's printed environment and its routing derive
// from. Pure data: imported by cli/ (at start-up: keep it small), api/ and emulator/.

/** A family's name, as --service takes it and as settings are prefixed. */
export type FamilyName = 'translator' | 'erp' | 'lcs' | 'mgmt';

export interface FamilyDef {
  name: FamilyName;
}

export const FAMILIES: readonly FamilyDef[] = [{ name: 'translator' }, { name: 'erp' }, { name: 'lcs' }, { name: 'mgmt' }];

/** --service choices, in order */
export const FAMILY_NAMES = FAMILIES.map((f) => f.name) as readonly FamilyName[];
