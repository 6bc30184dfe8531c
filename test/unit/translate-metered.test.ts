// The run's character accounting: senders to different targets (the pay-once layer's lanes, the
// groups of translate sync) spend from one account against one --budget.
import { describe, expect, it } from 'vitest';
import { BudgetExceeded, MeteredSender } from '../../src/api/translator/metered.js';
import type { BatchOutcome } from '../../src/api/translator/client.js';

const client = { translate: async (texts: readonly string[]): Promise<BatchOutcome> => ({ results: texts.map(() => ({ translations: [] })), traceId: 't' }) };

describe('MeteredSender', () => {
  it('senders sharing an account stop at one budget: the second sees what the first spent', async () => {
    const account = { spent: 0 };
    const both = new MeteredSender(client, { targets: 2, budget: 30, account });
    const one = new MeteredSender(client, { targets: 1, budget: 30, account });
    await both.translate(['abcde', 'fghij']); // 10 characters x 2
    expect(account.spent).toBe(20);
    expect(one.spent).toBe(20);
    await one.translate(['klmnopqrst']); // 10 x 1: exactly at the budget
    const refused = await one.translate(['u']).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BudgetExceeded);
    expect((refused as Error).message).toBe('--budget 30 characters reached: 30 billed so far, the next request would bill 1 more');
    expect(account.spent).toBe(30);
    // without an account each sender counts alone
    const alone = new MeteredSender(client, { targets: 1, budget: 30 });
    await alone.translate(['abc']);
    expect(alone.spent).toBe(3);
  });

  it('affordable: how many texts of a batch, from the first, fit what the budget has left (weighed with a glossary\'s markup when given)', async () => {
    const plain = new MeteredSender(client, { targets: 2, budget: 21 });
    expect(plain.affordable(['abcde', 'fghij', 'k'])).toBe(2); // 10 + 10 + 2 > 21
    await plain.translate(['abcde']);
    expect(plain.affordable(['abcde', 'fghij'])).toBe(1);
    expect(new MeteredSender(client, { targets: 1 }).affordable(['a', 'b'])).toBe(2);
    // markup of 4 characters a text: 9, 18, 27
    const weighed = new MeteredSender(client, { targets: 1, budget: 20, weigh: (texts) => texts.reduce((n, t) => n + t.length + 4, 0) });
    expect(weighed.affordable(['abcde', 'fghij', 'klmno'])).toBe(2);
    expect(weighed.affordable(['x'.repeat(30)])).toBe(0);
  });
});
