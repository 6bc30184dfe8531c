// Runs before each test file, in its worker. The workers of the "shared" project (vitest.config.ts)
// run one file after another in one process with the modules loaded once: what a file may leave
// behind in them is reset here, and the checks after each test are registered for every file.
import { afterEach } from 'vitest';
import { forgetSecrets } from '../src/core/redact.js';
import { registeredMocks } from './helpers/httpmock.js';
import { ROOT } from './helpers/vx.js';

// the working directory a file starts in (in-process runs move it), and no secrets known yet
process.chdir(ROOT);
forgetSecrets();

// every stub registered in a test (test/helpers/ctx.ts) must have been used by its end
afterEach(() => {
  for (const m of registeredMocks().splice(0)) m.verify();
});
