// Fleet data of the emulated management APIs: quotas of several subscriptions and locations (each
// with its own limits, usage and hidden regional cap), quotas whose change requests stay
// InProgress for longer, and health events that appear, change and resolve as the emulated clock
// moves (Emulator.now(); `POST /_emulator/clock {"advanceSeconds": n}` or emu.advanceClock(ms)).
// growFleet() makes a synthetic fleet of any size for the benchmarks.
import { makeEvent, type EventSeed } from './seed.js';
import { quotaId, scopeKey, type HealthEvent, type MgmtState, type Quota } from './state.js';

/** Two more subscriptions with quotas (the default one gets two more locations). */
export const EMU_FLEET_SUBSCRIPTIONS = ['b2c4e6f8-1a3c-4e5f-9a7b-2c4d6e8f0a11', 'c3d5f7a9-2b4d-4f6a-8b9c-3d5e7f9a1b22'] as const;

/** [subscription (index: 0 default, 1-2 fleet), location, name, limit, usage, cap, status reads a change stays InProgress] */
type FleetQuota = [number, string, string, number, number, number, number?];

const DISPLAY: Record<string, string> = {
  cores: 'Total Regional vCPUs',
  standardDSv3Family: 'Standard DSv3 Family vCPUs',
  standardFSv2Family: 'Standard FSv2 Family vCPUs',
  standardNCFamily: 'Standard NC Family vCPUs',
  lowPriorityCores: 'Total Regional Low-priority vCPUs',
};

/**
 * Vendor.Compute quotas of the fleet. The default subscription keeps its eastus and westeurope
 * quotas (seed.ts) and gets westus2 and northeurope; GPU quotas (standardNCFamily) take 6
 * status reads to end; a limit already at its cap cannot grow (the request ends Failed).
 */
const FLEET_QUOTAS: FleetQuota[] = [
  [0, 'westus2', 'cores', 200, 150, 1000],
  [0, 'westus2', 'standardDSv3Family', 100, 96, 400],
  [0, 'westus2', 'standardNCFamily', 24, 0, 48, 6],
  [0, 'northeurope', 'cores', 60, 58, 100],
  [0, 'northeurope', 'standardDSv3Family', 40, 8, 80],
  [1, 'eastus', 'cores', 350, 300, 1000],
  [1, 'eastus', 'standardDSv3Family', 200, 190, 400],
  [1, 'eastus', 'standardFSv2Family', 100, 20, 300],
  [1, 'westeurope', 'cores', 250, 120, 500],
  [1, 'westeurope', 'standardDSv3Family', 120, 118, 150],
  [1, 'westus2', 'cores', 100, 100, 100],
  [1, 'westus2', 'standardNCFamily', 8, 8, 64, 6],
  [1, 'northeurope', 'cores', 80, 12, 400],
  [2, 'eastus', 'cores', 20, 4, 200],
  [2, 'eastus', 'standardDSv3Family', 10, 10, 100],
  [2, 'westeurope', 'cores', 20, 0, 200],
];

function quotaRecord(sub: string, provider: string, location: string, name: string, display: string, limit: number, used: number): Quota {
  return {
    id: quotaId(sub, provider, location, name),
    name,
    type: 'Vendor.Capacity/ServiceLimits',
    properties: { limit, unit: 'Count', currentValue: used, name: { value: name, localizedValue: display }, resourceType: name === 'lowPriorityCores' ? 'lowPriority' : 'dedicated', properties: {} },
  };
}

function addQuota(state: MgmtState, sub: string, provider: string, location: string, name: string, display: string, limit: number, used: number, cap: number, polls?: number): void {
  const etag = ++state.version;
  (state.quotas[scopeKey(sub, provider, location)] ??= {})[name.toLowerCase()] = {
    quota: quotaRecord(sub, provider, location, name, display, limit, used),
    cap,
    etag,
    ...(polls !== undefined ? { pollsToFinish: polls } : {}),
  };
}

// ---------------------------------------------------------------- health events over time

/** One step of an event's life, `atMin` minutes after the emulator was seeded. */
export interface EventPhase {
  atMin: number;
  status: 'Active' | 'Resolved';
  eventLevel?: string;
  summary: string;
}

export interface TimelineEvent {
  seed: Omit<EventSeed, 'status' | 'startH' | 'updateH' | 'mitigatedH' | 'summary'>;
  phases: EventPhase[];
}

/**
 * Events of the default subscription that are not there when the emulator starts: each appears
 * at its first phase, changes (a new update, another level) and may resolve, as the clock moves.
 */
export const TIMELINE: TimelineEvent[] = [
  {
    seed: { id: 'FLT1-A01', title: 'Virtual Machines - West US 2 - Allocation failures', eventType: 'ServiceIssue', eventLevel: 'Error', services: [['Virtual Machines', ['West US 2']]] },
    phases: [
      { atMin: 10, status: 'Active', summary: 'We are investigating allocation failures for virtual machines in West US 2.' },
      { atMin: 25, status: 'Active', eventLevel: 'Warning', summary: 'A mitigation is being rolled out; new allocations succeed for most sizes.' },
      { atMin: 45, status: 'Resolved', eventLevel: 'Warning', summary: 'Between 10 and 45 minutes past the hour allocations in West US 2 could fail. This is mitigated.' },
    ],
  },
  {
    seed: { id: 'FLT2-B02', title: 'Planned maintenance: Storage - North Europe', eventType: 'PlannedMaintenance', eventLevel: 'Informational', services: [['Storage', ['North Europe']]] },
    phases: [
      { atMin: 30, status: 'Active', summary: 'Storage in North Europe gets platform updates over the next 90 minutes.' },
      { atMin: 120, status: 'Resolved', summary: 'The maintenance of Storage in North Europe is complete.' },
    ],
  },
  {
    seed: { id: 'FLT3-C03', title: 'Advisory: Basic SKU public IP addresses retire', eventType: 'HealthAdvisory', eventLevel: 'Warning', subType: 'Retirement', services: [['Virtual Network', ['Global']]] },
    phases: [{ atMin: 60, status: 'Active', summary: 'Basic SKU public IP addresses retire; move them to the Standard SKU.' }],
  },
];

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The event as it stands at `now`, or undefined when it has not appeared yet. */
export function eventAt(t: TimelineEvent, seededAt: number, sub: string, now: number): HealthEvent | undefined {
  const reached = t.phases.filter((p) => seededAt + p.atMin * 60_000 <= now);
  if (!reached.length) return undefined;
  const cur = reached[reached.length - 1];
  const start = seededAt + reached[0].atMin * 60_000;
  const update = seededAt + cur.atMin * 60_000;
  const resolved = cur.status === 'Resolved';
  const e = makeEvent({ ...t.seed, eventLevel: cur.eventLevel ?? t.seed.eventLevel, status: cur.status, summary: cur.summary, startH: 0, updateH: 0, mitigatedH: resolved ? 0 : undefined }, sub, now);
  // exact times of the phases (makeEvent counts hours back from now)
  const p = e.properties;
  p.impactStartTime = iso(start);
  p.lastUpdateTime = iso(update);
  if (resolved) {
    p.impactMitigationTime = iso(update);
    p.duration = Math.round((update - start) / 1000);
  } else p.impactMitigationTime = iso(start + 24 * 3_600_000); // the expected end, as makeEvent gives active events
  const updates = reached
    .slice()
    .reverse()
    .map((ph) => ({ summary: ph.summary, updateDateTime: iso(seededAt + ph.atMin * 60_000), eventTags: [] }));
  for (const i of p.impact) for (const r of i.impactedRegions) Object.assign(r, { status: cur.status, lastUpdateTime: p.lastUpdateTime, updates });
  return e;
}

/** The events of the default subscription at `now`: the seeded ones and the timeline's that have appeared. */
export function eventsAt(state: MgmtState, now: number): HealthEvent[] {
  const seededAt = state.seededAt ?? now;
  const appeared = TIMELINE.map((t) => eventAt(t, seededAt, state.defaultSubscription, now)).filter((e): e is HealthEvent => e !== undefined);
  // the newest first, as the service lists them
  return [...appeared.reverse(), ...state.events];
}

// ---------------------------------------------------------------- seeding

/** Adds the fleet to a freshly seeded state: subscriptions, quotas and the timeline's origin. */
export function seedFleet(state: MgmtState, now = Date.now()): MgmtState {
  const subs = [state.defaultSubscription, ...EMU_FLEET_SUBSCRIPTIONS];
  for (const s of EMU_FLEET_SUBSCRIPTIONS) if (!state.subscriptions.includes(s)) state.subscriptions.push(s);
  for (const [i, location, name, limit, used, cap, polls] of FLEET_QUOTAS) addQuota(state, subs[i], 'Vendor.Compute', location, name, DISPLAY[name] ?? name, limit, used, cap, polls);
  // whole seconds, so that the times of the timeline's phases are exact
  state.seededAt = Math.floor(now / 1000) * 1000;
  return state;
}

export interface FleetSize {
  subscriptions: number;
  locations: number;
  quotas: number;
  provider?: string;
}

/**
 * A synthetic fleet for benchmarks: `subscriptions` new subscriptions (returned) x `locations`
 * locations (`region01`...) x `quotas` quotas (`quota001`...) of `provider`, with usage spread
 * from 0 to the limit so that a report has something to sort.
 */
export function growFleet(state: MgmtState, size: FleetSize): { subscriptions: string[]; locations: string[]; provider: string } {
  const provider = size.provider ?? 'Vendor.Compute';
  const subscriptions: string[] = [];
  const locations = Array.from({ length: size.locations }, (_, i) => `region${String(i + 1).padStart(2, '0')}`);
  for (let s = 0; s < size.subscriptions; s++) {
    const sub = `f1ee7000-0000-4000-8000-${String(s + 1).padStart(12, '0')}`;
    subscriptions.push(sub);
    if (!state.subscriptions.includes(sub)) state.subscriptions.push(sub);
    for (const [li, location] of locations.entries()) {
      for (let q = 0; q < size.quotas; q++) {
        const name = `quota${String(q + 1).padStart(3, '0')}`;
        const limit = 100 + ((q * 37 + li * 11 + s * 7) % 400);
        const used = (q * 53 + li * 17 + s * 29) % (limit + 1);
        addQuota(state, sub, provider, location, name, `Quota ${q + 1}`, limit, used, limit * 4);
      }
    }
  }
  const p = provider.toLowerCase();
  if (!state.listableProviders.includes(p)) state.listableProviders.push(p);
  return { subscriptions, locations, provider };
}

// ---------------------------------------------------------------- read throttling

/**
 * The resource manager's throttling of reads, when `state.readLimit` is set (tests and sandbox
 * users set it; off by default): a token bucket of `burst` GETs refilled at `perSecond`. An empty
 * bucket answers 429 with Retry-After in whole seconds. Returns the seconds to wait, or 0.
 */
export function throttleRead(state: MgmtState, method: string, now = performance.now()): number {
  const limit = state.readLimit;
  if (!limit || (method !== 'GET' && method !== 'HEAD')) return 0;
  limit.tokens = Math.min(limit.burst, (limit.tokens ?? limit.burst) + ((now - (limit.at ?? now)) / 1000) * limit.perSecond);
  limit.at = now;
  if (limit.tokens >= 1) {
    limit.tokens -= 1;
    return 0;
  }
  return Math.max(1, Math.ceil((1 - limit.tokens) / limit.perSecond));
}
