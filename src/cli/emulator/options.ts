// The options of `vx emulator start|exec`, and the types their run functions receive.
import { opt, type OptionsOf } from '../define.js';

function serverOptions<const P extends string>(defaultPort: P) {
  return [
    opt('--port <n>', 'port to listen on (0 picks a free one)', { default: defaultPort }),
    opt('--host <address>', 'loopback address to listen on', { default: '127.0.0.1' }),
    opt('--state <file>', 'load state from this JSON file and save every change to it'),
    opt('--faults <spec>', 'inject faults, e.g. "429:0.1,503:0.05,reset:0.02,latency:50"; a translator error code by its 6 digits: "403001:1x" (the grammar: docs/emulator.md)'),
    opt('--rate <family=n>', 'enforce a rate as the service does (429 + Retry-After): translator=<billed characters a second>'),
    opt('--rate-limit <requests/seconds>', 'the business-data per-user rate limit, e.g. 6000/300 as the real service (429 + Retry-After beyond it); off by default'),
  ] as const;
}

export const START_OPTIONS = [...serverOptions('4010'), opt('--save-profile <name>', "also store the emulator settings as a profile (one holding another service's endpoint, key or sign-in is replaced only when confirmed, or with --yes)")] as const;

export const EXEC_OPTIONS = serverOptions('0');

/** what both commands take: where to listen, the state file, faults and rates */
export type ServerOptions = OptionsOf<typeof EXEC_OPTIONS>;
export type StartOptions = OptionsOf<typeof START_OPTIONS>;
