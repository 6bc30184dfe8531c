// The question a change of erp records puts before it runs (the one rule: core/prompt.ts Confirmation).
import type { BulkVerb } from '../../api/erp/bulk-action.js';
import { recordLabel, type ErpClient, type Resolved } from '../../api/erp/client.js';
import type { Ctx } from '../../core/context.js';
import type { ErpSet } from '../../model/erp/index.js';

/** "Delete sales order S-ORD101001 (Adatum)?", "Ship and invoice 12 sales order records matching …?", "Turn sales quote S-QUO1 (…) into a sales order?" */
export function actionQuestion(action: BulkVerb, records: string): string {
  if (action === 'delete') return `Delete ${records}?`;
  const m = /^(.+?) the [\w ]+?((?: (?:into|to) .*)?)$/.exec(action.description);
  const capital = (s: string) => s.replace(/^\w/, (c) => c.toUpperCase());
  return m ? `${capital(m[1])} ${records}${m[2]}?` : `${capital(action.description)}: ${records}?`;
}

/** Whether a change of one record asks first: a delete, and an action that cannot be undone. */
export function asksFirst(action: BulkVerb): boolean {
  return action === 'delete' || action.irreversible === true;
}

/**
 * The record a one-record change names, once confirmed where the change asks first: off a
 * terminal without --yes refused before anything is read; at a terminal the question names the
 * record (its number and name: read when the key did not give them).
 */
export async function confirmedRecord(ctx: Ctx, client: ErpClient, set: ErpSet, action: BulkVerb, key: string): Promise<Resolved> {
  const confirm = asksFirst(action) ? ctx.confirmation() : undefined;
  confirm?.early(actionQuestion(action, `${set.singular} ${key}`));
  const resolved = await client.resolve(set, key);
  if (!confirm?.asks) return resolved;
  const record = resolved.record ?? (await client.get(set, resolved.id));
  await confirm.ask(actionQuestion(action, recordLabel(set, resolved.id, record)));
  return { ...resolved, record };
}
