// The record a bound action creates when its answer does not carry it. A quote's makeOrder
// answers 204 No Content (the service's reference: "The response has no content"), so the order
// is told by the quote's values (customer, external document number, currency, amount): the one
// record of the target set that holds them after the action and did not before.
import { erpSets, type ActionDef, type ErpSet } from '../../model/erp/index.js';
import { odataLiteral } from './bulk.js';
import type { Entity, ErpClient } from './client.js';

export interface Created {
  set: ErpSet;
  /** the record created, when exactly one was found */
  record?: Entity;
  /** otherwise: how many candidates, and the command that lists them */
  candidates?: number;
  look?: string;
}

/** The $filter of the records holding the source's values of `match` (the fields it has a value for). */
function matchFilter(source: Entity, match: readonly string[]): string {
  const terms: string[] = [];
  for (const f of match) {
    const v = source[f];
    if (typeof v === 'string' && v !== '') terms.push(`${f} eq ${odataLiteral(v)}`);
    else if (typeof v === 'number' && Number.isFinite(v)) terms.push(`${f} eq ${v}`);
  }
  return terms.join(' and ');
}

const MAX_CANDIDATES = 1000;

async function idsMatching(client: ErpClient, set: ErpSet, filter: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for await (const page of client.listPages(set, { filter: filter || undefined, select: 'id', top: MAX_CANDIDATES })) for (const e of page) ids.add(String(e.id));
  return ids;
}

/** What is known before the action: where the record it creates goes, how it is told, the records already there. */
export interface CreatingPlan {
  target: ErpSet;
  filter: string;
  before: Set<string>;
  /** the source record as read */
  source: Entity;
}

/** Reads the records of the target set holding the source's values (the source `id` read unless `source` has them). */
export async function beforeCreating(client: ErpClient, set: ErpSet, creates: NonNullable<ActionDef['creates']>, id: string, source?: Entity): Promise<CreatingPlan> {
  const target = erpSets().find((s) => s.name === creates.set)!;
  const from = source && creates.match.every((f) => f in source) ? source : await client.get(set, id);
  const filter = matchFilter(from, creates.match);
  return { target, filter, before: await idsMatching(client, target, filter), source: from };
}

/** The record the action made: the one holding the source's values now that did not before (and is not in `taken`, made by another record of the run). */
export async function createdAfter(client: ErpClient, plan: CreatingPlan, taken?: ReadonlySet<string>): Promise<Created> {
  const { target, filter, before } = plan;
  const fresh = [...(await idsMatching(client, target, filter))].filter((x) => !before.has(x) && !taken?.has(x));
  if (fresh.length === 1) return { set: target, record: await client.get(target, fresh[0]) };
  const look = `vx erp ${target.noun} list${filter ? ` --filter "${filter.replace(/["\\$`]/g, '\\$&')}"` : ''} --orderby "lastModifiedDateTime desc" --top 5`;
  return { set: target, candidates: fresh.length, look };
}

/**
 * Runs the action on the record `id` (`source`: the record as read, if it was) and finds the record
 * it created: the result of the action, and what was created (or why it could not be told).
 */
export async function runCreating(client: ErpClient, set: ErpSet, def: ActionDef & { creates: NonNullable<ActionDef['creates']> }, id: string, source: Entity | undefined, run: () => Promise<unknown>): Promise<{ result: unknown; created: Created }> {
  const plan = await beforeCreating(client, set, def.creates, id, source);
  const result = await run();
  return { result, created: await createdAfter(client, plan) };
}
