// Fault injection: "429:0.1,503:0.05,500:0.02,reset:0.02,reset-after:0.01,hang:0.01,slow:0.05,latency:50".
// A status answers the family's code of that status; a translator error code of 6 digits ("403001:1x",
// the free quota used; "429002:0.1") answers that code, its status and the service's message, on the
// translator only.
// A probability in (0,1], or a count "2x" (the first two matching requests). A "family/" prefix
// limits a rule to one family ("erp/503:0.1"), a method prefix to one method ("mgmt/PATCH/reset-after:1x",
// "GET/500:0.05"). "retry-after:N" sets the Retry-After seconds on
// 429/503 (default 1), "slow-ms:N" the delay of a slow answer (default 1500), "seed:N" the random seed.
// "rate:N" makes the translator enforce N billed characters a second (characters x targets), as the
// service throttles a subscription: a token bucket holding "rate-burst:N" characters (default one
// second's worth, at least one full request: 50,000), refilled continuously; a request that does
// not fit is answered 429 with code 429001 and a Retry-After of the whole seconds until it fits.

import { FAMILIES, FAMILY_NAMES } from '../model/families.js';

/** the family whose error codes are 6 digits (403001), and the one whose billed characters rate:N throttles */
const CODED = FAMILIES.find((f) => f.emulator.sixDigitCodes)?.name;
const RATED = FAMILIES.find((f) => f.emulator.charRate)?.name;
const RULE = new RegExp(`^(?:(${FAMILY_NAMES.join('|')})\\/)?(?:(GET|HEAD|POST|PUT|PATCH|DELETE)\\/)?([a-z0-9-]+):([0-9.]+)(x?)$`, 'i');

export type FaultKind = 'status' | 'reset' | 'reset-after' | 'hang' | 'slow';

export interface FaultRule {
  kind: FaultKind;
  status?: number;
  /** the error code to answer (a translator code of 6 digits: `403001:1x`), else the family's code of the status */
  code?: string;
  family?: string;
  /** only requests with this method (upper case) */
  method?: string;
  probability?: number;
  remaining?: number;
}

export interface FaultSpec {
  rules: FaultRule[];
  latencyMs: number;
  slowMs: number;
  retryAfter: number;
  random: () => number;
  /** the translator's character rate, when one is enforced */
  rate?: CharRate;
}

/** A token bucket of billed characters (see rate:N). */
export interface CharRate {
  perSecond: number;
  burst: number;
  tokens: number;
  /** ms (performance.now()) of the last refill */
  at: number;
}

/** the largest request the translator accepts, in counted characters: the bucket always holds one */
const MIN_BURST = 50_000;

/** A bucket of `perSecond` characters a second holding `burst` (default: a second's worth, at least 50,000), full. */
export function charRate(perSecond: number, burst?: number): CharRate {
  if (!Number.isFinite(perSecond) || perSecond <= 0) throw new Error(`invalid character rate ${perSecond}: use a positive number of characters a second`);
  const size = Math.max(MIN_BURST, burst ?? perSecond);
  return { perSecond, burst: size, tokens: size, at: performance.now() };
}

/**
 * Takes `chars` from the bucket: 0 when they fit, else the whole seconds (at least 1) until they
 * will (nothing is taken then). `now` in ms.
 */
export function spendChars(rate: CharRate, chars: number, now = performance.now()): number {
  rate.tokens = Math.min(rate.burst, rate.tokens + ((now - rate.at) / 1000) * rate.perSecond);
  rate.at = now;
  if (chars <= rate.tokens) {
    rate.tokens -= chars;
    return 0;
  }
  return Math.max(1, Math.ceil((Math.min(chars, rate.burst) - rate.tokens) / rate.perSecond));
}

export interface PickedFault {
  kind: FaultKind | 'latency';
  status?: number;
  code?: string;
  latencyMs?: number;
}

/** mulberry32: a small seeded generator so fault runs can be repeated */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function parseFaults(spec: string): FaultSpec {
  const out: FaultSpec = { rules: [], latencyMs: 0, slowMs: 1500, retryAfter: 1, random: Math.random };
  if (!spec.trim()) return out;
  let rate: number | undefined;
  let burst: number | undefined;
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = RULE.exec(part);
    if (!m) throw new Error(`invalid fault "${part}": expected [family/][METHOD/]kind:probability, kind:Nx or latency:ms`);
    const [, family, method, kindRaw, num, x] = m;
    const kind = kindRaw.toLowerCase();
    const value = Number(num);
    if (!Number.isFinite(value)) throw new Error(`invalid number in fault "${part}"`);
    const setting = ['latency', 'slow-ms', 'retry-after', 'seed'].includes(kind);
    // a count of 0.5x or 0x fired never, a setting with an x was taken as its number: both silently
    if (x && (setting || !Number.isInteger(value) || value < 1)) {
      throw new Error(`invalid fault "${part}": ${setting ? `${kind}:N takes a number, not a count` : 'a count is a whole number of requests, 1 or more, e.g. 2x'}`);
    }
    // Retry-After is whole seconds (RFC 9110): a client reading 0.5 sees no valid header
    if (kind === 'retry-after' && !Number.isInteger(value)) throw new Error(`invalid fault "${part}": retry-after:N is whole seconds`);
    if (kind === 'latency') out.latencyMs = value;
    else if (kind === 'slow-ms') out.slowMs = value;
    else if (kind === 'retry-after') out.retryAfter = value;
    else if (kind === 'seed') out.random = seeded(value);
    else if (kind === 'rate' || kind === 'rate-burst') {
      if ((family && family.toLowerCase() !== RATED) || method || x) throw new Error(`invalid fault "${part}": ${kind}:N is the ${RATED}'s characters (a second, or in the bucket), e.g. rate:150000`);
      if (kind === 'rate') rate = value;
      else burst = value;
    }
    else out.rules.push(faultRule(part, family, method, kind, value, x));
  }
  if (burst !== undefined && rate === undefined) throw new Error('rate-burst:N needs rate:N (the characters a second)');
  if (rate !== undefined) out.rate = charRate(rate, burst);
  return out;
}

/** A fault rule: a status, a translator error code or a kind of broken connection, by probability or count. */
function faultRule(part: string, family: string | undefined, method: string | undefined, kind: string, value: number, x: string | undefined): FaultRule {
  let rule: FaultRule;
  let ruleFamily = family?.toLowerCase();
  if (/^\d{3}$/.test(kind)) {
    const status = Number(kind);
    if (status < 400 || status > 599) throw new Error(`invalid fault status ${status}: use 400-599`);
    rule = { kind: 'status', status };
  } else if (CODED && /^\d{6}$/.test(kind)) {
    // the translator's 6-digit codes (the status followed by 3 digits): 403001 (free quota used), 429002 ...
    const status = Math.floor(Number(kind) / 1000);
    if (status < 400 || status > 599) throw new Error(`invalid fault code ${kind}: a ${CODED} error code is a status of 400-599 followed by 3 digits`);
    if (ruleFamily && ruleFamily !== CODED) throw new Error(`invalid fault "${part}": ${kind} is a ${CODED} error code; use ${kind}:... or ${CODED}/${kind}:...`);
    rule = { kind: 'status', status, code: kind };
    ruleFamily = CODED;
  } else if (kind === 'reset' || kind === 'reset-after' || kind === 'hang' || kind === 'slow') {
    rule = { kind };
  } else {
    throw new Error(`unknown fault "${kind}": use a status (429, 500, 503...), a translator error code (403001, 429002...), reset, reset-after, hang, slow, latency, slow-ms, retry-after, seed, rate or rate-burst`);
  }
  if (ruleFamily) rule.family = ruleFamily;
  if (method) rule.method = method.toUpperCase();
  if (x) rule.remaining = value;
  else {
    if (value <= 0 || value > 1) throw new Error(`invalid probability in fault "${part}": use a number in (0, 1] or a count like 2x`);
    rule.probability = value;
  }
  return rule;
}

/** Decides the fault (if any) for one request. Count rules are used up first, in order. */
export function pickFault(spec: FaultSpec, family: string, method?: string): PickedFault | undefined {
  const applies = (r: FaultRule) => (!r.family || r.family === family) && (!r.method || r.method === method);
  for (const r of spec.rules) {
    if (!applies(r)) continue;
    if (r.remaining !== undefined && r.remaining > 0) {
      r.remaining--;
      return toPicked(r, spec);
    }
  }
  const roll = spec.random();
  let acc = 0;
  for (const r of spec.rules) {
    if (!applies(r)) continue;
    if (r.probability === undefined) continue;
    acc += r.probability;
    if (roll < acc) return toPicked(r, spec);
  }
  return spec.latencyMs ? { kind: 'latency', latencyMs: spec.latencyMs } : undefined;
}

function toPicked(r: FaultRule, spec: FaultSpec): PickedFault {
  const latencyMs = (r.kind === 'slow' ? spec.slowMs : 0) + spec.latencyMs;
  return { kind: r.kind, status: r.status, ...(r.code ? { code: r.code } : {}), latencyMs: latencyMs || undefined };
}
