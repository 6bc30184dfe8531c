// Companies and job-queue entries named as people name them: a company by its name (--company,
// VX_ERP_COMPANY, erp.company), a job-queue entry by its description; one read finds it, and a
// name that fits none or several records is refused (exit 4) with the ids to choose from.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { json } from '../helpers/httpmock.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const e2e = useEmulator();
const CRONUS = '5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f';
const log = () => e2e.emu.log.filter((l) => l.family === 'erp').map((l) => `${l.method} ${decodeURIComponent(l.path)}`);

describe('a company by its name', () => {
  it('--company and VX_ERP_COMPANY take a name: one read finds the id, the command works in it', async () => {
    const r = await e2e.run(['erp', 'currencies', 'list', '--company', 'CRONUS USA, Inc.', '--top', '1', '--query', '[].code', '-o', 'tsv']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'EUR\n', '']);
    expect(log()).toEqual([`GET /api/v2.0/companies?$filter=name eq 'CRONUS USA, Inc.'&$top=10`, `GET /api/v1.0/companies(${CRONUS})/currencies?$top=1`]);
    const env = await e2e.run(['erp', 'currencies', 'list', '--top', '1', '--query', '[].code', '-o', 'tsv'], { env: { VX_ERP_COMPANY: 'My Company' } });
    expect(env.code).toBe(0);
    expect(log().at(-1)).toBe('GET /api/v1.0/companies(7a9c2d4e-6f80-4b1c-8d2e-3f4a5b6c7d8e)/currencies?$top=1');
  });

  it('a name no company has is exit 4, naming the list command; nothing else is sent', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'list', '--company', 'Fabrikam']);
    expect([r.code, r.stdout, r.stderr]).toEqual([4, '', "vx: no company has name 'Fabrikam' (name a record by its name or its id; list them with `vx erp companies list`)\n"]);
    expect(log()).toEqual(["GET /api/v2.0/companies?$filter=name eq 'Fabrikam'&$top=10"]);
  });

  it('a name two companies share is refused with their ids', async () => {
    const two = [{ id: '00000000-0000-4000-8000-000000000001', name: 'Twin' }, { id: '00000000-0000-4000-8000-000000000002', name: 'Twin' }];
    const r = await runInProc(['erp', 'sales-orders', 'list', '--company', 'Twin'], {
      env: offlineEnv(),
      setup: (t) => t.http.stub('GET', /\/erp\/api\/v2\.0\/companies\?/, json(200, { value: two })),
    });
    expect([r.code, r.stderr]).toEqual([4, "vx: 2 company records have name 'Twin': Twin 00000000-0000-4000-8000-000000000001, Twin 00000000-0000-4000-8000-000000000002; name one by its id\n"]);
    expect(r.http.requests).toHaveLength(1);
  });

  it('--dry-run plans the read of the company and the request in it', async () => {
    const r = await runInProc(['--dry-run', 'erp', 'currencies', 'list', '--company', 'CRONUS USA, Inc.'], { env: offlineEnv() });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { url: string }[]).map((p) => decodeURIComponent(p.url))).toEqual([
      "http://127.0.0.1:9/erp/api/v2.0/companies?$filter=name eq 'CRONUS USA, Inc.'&$top=10",
      'http://127.0.0.1:9/erp/api/v1.0/companies(<id of company CRONUS USA, Inc.>)/currencies',
    ]);
  });

  it('a company not set anywhere: the message names the list command', async () => {
    const env = offlineEnv();
    delete env.VX_ERP_COMPANY;
    const r = await runInProc(['erp', 'currencies', 'list'], { env });
    expect([r.code, r.stderr]).toEqual([2, 'vx: the company (--company) is not set: set VX_ERP_COMPANY or run `vx profile set erp.company <value>` (list the companies with `vx erp companies list`)\n']);
    expect(r.http.requests).toEqual([]);
  });

  it('profile set erp.company takes a name', async () => {
    const r = await runInProc(['profile', 'set', 'erp.company', 'CRONUS USA, Inc.'], { env: offlineEnv() });
    expect([r.code, r.stderr]).toEqual([0, 'set erp.company in profile "default"\n']);
  });
});

describe('a job-queue entry by its description', () => {
  it('get and restart find it with one read', async () => {
    const r = await e2e.run(['erp', 'job-queue-entries', 'get', 'Sync with email', '--query', 'jobQueueEntryId', '-o', 'tsv']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'JQ1002\n', '']);
    const restart = await e2e.run(['erp', 'job-queue-entries', 'restart', 'Sync with email']);
    expect(restart.code).toBe(0);
    expect(log().slice(-2)).toEqual([`GET /api/v2.0/companies(${CRONUS})/jobQueueEntries?$filter=description eq 'Sync with email'&$top=10`, `POST /api/v2.0/companies(${CRONUS})/jobQueueEntries(0000100c-0000-4000-8000-0000000c0003)/Vendor.NAV.restart`]);
  });

  it('a description several entries share is refused with their ids, nothing restarted', async () => {
    const two = [{ id: '0000100c-0000-4000-8000-0000000c0001', description: 'Nightly' }, { id: '0000100c-0000-4000-8000-0000000c0002', description: 'Nightly' }];
    const r = await runInProc(['erp', 'job-queue-entries', 'restart', 'Nightly'], {
      env: offlineEnv(),
      setup: (t) => t.http.stub('GET', /\/jobQueueEntries\?/, json(200, { value: two })),
    });
    expect([r.code, r.stderr]).toEqual([4, "vx: 2 job queue entry records have description 'Nightly': Nightly 0000100c-0000-4000-8000-0000000c0001, Nightly 0000100c-0000-4000-8000-0000000c0002; name one by its id\n"]);
    expect(r.http.requests.map((q) => q.method)).toEqual(['GET']);
  });
});
