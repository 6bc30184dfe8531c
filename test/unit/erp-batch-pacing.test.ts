// A $batch is paced by its operations: the service counts each operation of a $batch toward the
// user's rate limit (docs/erp.md, "Bulk work"), so a batch of 7 costs the pacer 7 requests.
import { describe, expect, it } from 'vitest';
import { BatchClient } from '../../src/api/erp/batch.js';
import { Http } from '../../src/core/http/index.js';
import type { Paced, Ticket } from '../../src/core/pacer.js';
import { fixedAuth } from '../helpers/authenticator.js';
import { HttpMock, json } from '../helpers/httpmock.js';

describe('erp $batch pacing', () => {
  it('each $batch acquires as many units as it holds operations', async () => {
    const costs: number[] = [];
    const pacer: Paced = {
      acquire: async (cost) => (costs.push(cost), { cost } as unknown as Ticket),
      accepted: () => undefined,
      throttled: () => 0,
    };
    const mock = new HttpMock().stub(
      'POST',
      'http://127.0.0.1:9/api/v2.0/$batch',
      (req) => json(200, { responses: (JSON.parse(req.text) as { requests: { id: string }[] }).requests.map((o) => ({ id: o.id, status: 201, headers: {}, body: { id: 'x' } })) }),
      2,
    );
    const batch = new BatchClient(new Http({ transport: mock.transport, retries: 0 }), 'http://127.0.0.1:9/api/v2.0/', fixedAuth({ Authorization: 'Bearer t' }), pacer);
    const op = { method: 'POST' as const, url: 'http://127.0.0.1:9/api/v2.0/companies(c)/currencies', body: { code: 'X' } };
    await batch.send(Array.from({ length: 7 }, () => op));
    await batch.send([op]);
    expect(costs).toEqual([7, 1]);
    mock.verify();
  });
});
