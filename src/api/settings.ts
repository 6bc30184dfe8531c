// The settings of the command-line contract: profile key, environment variable, secrecy. The
// family settings come from the registry (model/families.ts); `output` is vx's own.
import { allSettings, type SettingDef } from '../model/families.js';

export const SETTINGS: readonly SettingDef[] = [
  ...allSettings(),
  {
    key: 'output',
    description: 'default output format',
    choices: ['json', 'yaml', 'table', 'wide', 'tsv', 'csv', 'ndjson', 'text', 'none'],
  },
];
