// Options of `vx profile` (a leaf: define.ts only).
import { opt, type OptionsOf } from '../define.js';

export const PROFILE_GET = [opt('--show-source', 'add where the value comes from: a tab, then env VX_…, profile or default')] as const;

export type ProfileGetOpts = OptionsOf<typeof PROFILE_GET>;
