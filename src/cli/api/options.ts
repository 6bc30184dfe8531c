// The options of `vx api`, and the type its run function receives.
import { FAMILY_NAMES } from '../../model/families.js';
import { opt, type OptionsOf } from '../define.js';

export const API_OPTIONS = [
  opt('--service <name>', 'which service', { choices: FAMILY_NAMES, required: true }),
  opt('-d, --data <json|@file|->', 'request body: JSON text, @file, or - (or @-) for stdin'),
  opt('-H, --header <key:value>', 'extra request header (repeatable)', { repeat: true }),
  opt('--paginate', 'follow nextLink / @odata.nextLink and print all items as one array'),
] as const;

export type ApiOptions = OptionsOf<typeof API_OPTIONS>;
