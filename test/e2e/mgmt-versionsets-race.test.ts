// version-sets create reads first, then PUTs without If-Match. The spec makes If-Match "not required
// when creating, required when updating"; the emulator follows the published examples, where a PUT
// without it replaces, so here its PUT route is wrapped to refuse an update without If-Match as the
// spec reads. A set that appears between the read and the PUT is then refused instead of replaced:
// vx leaves it as it is (exit 5) — unless it is the run's own, made by an attempt whose answer was
// lost (then the repeated PUT's refusal is the success).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allFamilies, Emulator, type EmuReply } from '../../src/emulator/index.js';
import { runVxInProc } from '../helpers/inproc.js';
import { removeDir, tempDir } from '../helpers/vx.js';

let emu: Emulator;
let dir: string;
/** when set, a version set this GET found missing is created right after it answers (by "someone else") */
let someoneCreates: Record<string, unknown> | undefined;

beforeAll(async () => {
  const families = allFamilies();
  const mgmt = families.find((f) => f.name === 'mgmt')!;
  const get = mgmt.routes.find((r) => r.method === 'GET' && String(r.path).includes('apiVersionSets') && String(r.path).includes('(?<id>'))!;
  const read = get.handler;
  get.handler = async (req) => {
    try {
      return (await read(req)) as EmuReply;
    } catch (e) {
      if (someoneCreates) {
        const sets = Object.values(emu.state.mgmt.versionSets)[0] as Record<string, unknown>;
        sets[decodeURIComponent(req.params.id!).toLowerCase()] = { name: req.params.id, properties: someoneCreates, etag: 999 };
        someoneCreates = undefined;
      }
      throw e;
    }
  };
  const put = mgmt.routes.find((r) => r.method === 'PUT' && String(r.path).includes('apiVersionSets'))!;
  const write = put.handler;
  put.handler = async (req) => {
    const sets = Object.values(emu.state.mgmt.versionSets)[0] as Record<string, unknown>;
    if (sets[decodeURIComponent(req.params.id!).toLowerCase()] && req.headers['if-match'] === undefined) {
      return { status: 400, body: { error: { code: 'ValidationError', message: 'The If-Match header is required to update a version set.', target: 'If-Match', details: [], additionalInfo: [] } } };
    }
    return write(req);
  };
  emu = new Emulator({ families });
  await emu.listen(0, '127.0.0.1');
  dir = tempDir();
});
beforeEach(() => {
  emu.reset();
  someoneCreates = undefined;
});
afterAll(async () => {
  await emu?.close();
  removeDir(dir);
});

const S = ['--resource-group', 'web', '--service', 'contoso-api'];
const run = (args: string[]) => runVxInProc(args, { configDir: dir, env: emu.env() });
const puts = () => emu.log.filter((l) => l.family === 'mgmt' && l.method === 'PUT').map((l) => l.status);

describe('version-sets create and a set made meanwhile', () => {
  it('a set someone else created after the read is left as it is: exit 5, nothing written', async () => {
    someoneCreates = { displayName: 'Theirs', versioningScheme: 'Segment' };
    const r = await run(['mgmt', 'version-sets', 'create', 'raced', ...S, '--display-name', 'Mine', '--scheme', 'Segment']);
    expect(r.code).toBe(5);
    expect(r.stderr).toBe(
      'vx: version set raced was created by someone else after it was checked; it was left as it is (nothing was written): see it with `vx mgmt version-sets get raced`, change it with `vx mgmt version-sets update raced`\n',
    );
    expect(puts()).toEqual([400]);
    const after = await run(['mgmt', 'version-sets', 'get', 'raced', ...S, '-o', 'json']);
    expect(JSON.parse(after.stdout).properties).toEqual({ displayName: 'Theirs', versioningScheme: 'Segment' });
  });

  it('a PUT whose answer was lost is repeated; the refusal of the repeat finds the run\'s own set: exit 0, the set printed', async () => {
    emu.setFaults('mgmt/PUT/reset-after:1x');
    const r = await run(['mgmt', 'version-sets', 'create', 'mine', ...S, '--display-name', 'Mine', '--scheme', 'Query', '--query-name', 'v', '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'mine', properties: { displayName: 'Mine', versioningScheme: 'Query', versionQueryName: 'v' } });
    expect(puts()).toHaveLength(2);
  });
});
