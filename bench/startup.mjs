// Start-up: `vx --version` and `vx --help` against bare `node -e 0`, interleaved in one run.
import { timeCommands, report, VX } from './lib.mjs';

export async function startup({ rounds = 40 } = {}) {
  const m = await timeCommands(
    {
      node: [process.execPath, '-e', '0'],
      version: [process.execPath, VX, '--version'],
      help: [process.execPath, VX, '--help'],
    },
    { rounds },
  );
  report('vx --version vs node -e 0', m.version, m.node, 1.2);
  report('vx --help vs node -e 0', m.help, m.node, 1.2);
}

if (import.meta.url === `file://${process.argv[1]}`) await startup();
