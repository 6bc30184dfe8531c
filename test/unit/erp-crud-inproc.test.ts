// vx erp list/get/create/update usage errors, run in-process (test/helpers/inproc.ts): the whole
// command line parsed by buildProgram, exit 2, the message, nothing sent (the httpmock registry has
// no stubs: any request would fail the test). Moved from e2e/erp-crud, which keeps spawned cases
// for the exit codes end to end and everything that needs the emulator.
import { describe, expect, it } from 'vitest';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const ORDER = '0000100e-0000-4000-8000-0000000e0001';
const env = offlineEnv();

const CASES: [string[], RegExp][] = [
  // list and get options
  [['erp', 'sales-orders', 'list', '--top', '-1'], /^vx: invalid value "-1" for --top: expected a whole number of at least 1\n$/],
  [['erp', 'sales-orders', 'list', '--page-size', '0'], /^vx: invalid value "0" for --page-size: expected a whole number of at least 1\n$/],
  [['erp', 'sales-orders', 'list', '--skip', 'x'], /^vx: invalid value "x" for --skip: expected a whole number of at least 0\n$/],
  [['erp', 'sales-orders', 'list', '--filter', ' '], /^vx: --filter may not be empty\n$/],
  [['erp', 'sales-orders', 'list', '--company', 'two\nlines'], /^vx: invalid company id "two\\nlines": expected a GUID or a name\n$/],
  [['erp', 'sales-orders', 'get', 'not-a-guid-nor-an-order-number'], /^vx: invalid sales order id "not-a-guid-nor-an-order-number": expected a GUID or a number \(at most 20 characters\)\n$/],
  [['erp', 'job-queue-entries', 'create'], /^vx: unknown command 'create' \(run `vx erp job-queue-entries --help` for usage\)\n$/],
  [['erp', 'job-queue-entries', 'update', ORDER], /^vx: unknown command 'update'/],
  [['erp', 'job-queue-entries', 'delete', ORDER], /^vx: unknown command 'delete'/],
  // create: malformed values of every type, unknown and read-only fields, missing required fields
  [['erp', 'sales-orders', 'create', '--set', 'discountAmount=12,5'], /--set discountAmount: invalid value "12,5": expected number/],
  [['erp', 'sales-orders', 'create', '--set', 'partialShipping=yes'], /partialShipping: .*expected true or false/],
  [['erp', 'sales-orders', 'create', '--set', 'orderDate=01/02/2026'], /orderDate: .*expected date YYYY-MM-DD/],
  [['erp', 'sales-orders', 'create', '--set', 'customerId=123'], /customerId: .*expected GUID/],
  [['erp', 'sales-orders', 'create', '--set', 'status=Closed'], /status: .*expected one of "Draft", "In Review", "Open"/],
  [['erp', 'sales-orders', 'create', '--set', 'totalTaxAmount=1'], /"totalTaxAmount" of a sales order is read-only/],
  [['erp', 'sales-orders', 'create', '--set', 'colour=red'], /unknown field "colour"/],
  [['erp', 'sales-orders', 'create', '--data', '{"number":"S-1"}'], /--data field "number".*read-only/],
  [['erp', 'sales-orders', 'create', '--data', '{"discountAmount":"5"}'], /--data field "discountAmount": expected number/],
  [['erp', 'sales-orders', 'create', '--data', '{bad json'], /not valid JSON/],
  [['erp', 'currencies', 'create', '--set', 'code=ABCDEFGHIJK'], /code: .*at most 10/],
  [['erp', 'currencies', 'create', '--set', 'code=AB', '--set', 'amountDecimalPlaces=2'], /amountDecimalPlaces: .*<min>:<max>/],
  [['erp', 'currencies', 'create', '--set', 'displayName=No code'], /needs code/],
  [['erp', 'salespeople', 'create', '--set', 'code=X', '--set', 'commisionPercent=ten'], /commisionPercent: .*expected number/],
  // update: something to change, --if-match xor --force, read-only fields, the key
  [['erp', 'sales-orders', 'update', ORDER], /^vx: nothing to update: give fields with --set field=value or --data\n$/],
  [['erp', 'sales-orders', 'update', ORDER, '--set', 'status=Open', '--force', '--if-match', 'W/"x"'], /^vx: --if-match and --force exclude each other\n$/],
  [['erp', 'sales-orders', 'update', ORDER, '--set', 'number=1'], /^vx: --set number: field "number" of a sales order is read-only \(set by the service\)\n$/],
  [['erp', 'sales-orders', 'update', ORDER, '--set', 'lastModifiedDateTime=2026-01-01T00:00:00Z'], /field "lastModifiedDateTime" of a sales order is read-only/],
  [['erp', 'sales-orders', 'update', 'not-a-guid-nor-an-order-number', '--set', 'status=Open'], /^vx: invalid sales order id "not-a-guid-nor-an-order-number": expected a GUID or a number/],
  // delete without a terminal needs --yes
  [['erp', 'sales-quotes', 'delete', '00001010-0000-4000-8000-000000100001'], /confirmation needed; pass --yes/],
];

describe('erp usage errors: exit 2, the message, nothing sent', () => {
  for (const [args, message] of CASES) {
    it(args.slice(1).join(' '), async () => {
      const r = await runInProc(args, { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
      expect(r.stdout).toBe('');
      expect(r.http.requests).toEqual([]);
    });
  }

  it('no company configured names VX_ERP_COMPANY', async () => {
    const { VX_ERP_COMPANY: _, ...noCompany } = env;
    const r = await runInProc(['erp', 'currencies', 'list'], { env: noCompany });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/company .*VX_ERP_COMPANY/);
    expect(r.http.requests).toEqual([]);
  });
});
