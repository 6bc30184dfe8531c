// What `health watch` remembers between polls and runs (the state file), what counts as news
// (a new event, a change of status, level or update time), and how `health check` grades the
// active events for monitoring plugins. Pure, except reading and writing the state file.
import { constants } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { jsonErrorWithoutText } from '../../core/json.js';
import { atomicFileSink } from '../../core/output/index.js';
import { EVENT_TYPES } from '../../model/mgmt.js';
import type { HealthEvent } from './health.js';

export interface SeenEvent {
  status?: string;
  eventLevel?: string;
  lastUpdateTime?: string;
}

export interface WatchState {
  version: 1;
  /** tracking id -> what was last reported */
  events: Record<string, SeenEvent>;
}

export const emptyState = (): WatchState => ({ version: 1, events: {} });

/**
 * Reads the state file; a missing or empty file (`--state "$(mktemp)"`) is a first run, as the
 * emulator's --state. Anything else that cannot be read as a state is reported with its path and
 * left exactly as it is (exit 2): a watcher that silently started over would report every event
 * again.
 */
export async function loadState(path: string): Promise<WatchState> {
  await checkStateDirectory(path);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT') return emptyState();
    throw new UsageError(`cannot read the state file ${path}: ${err.code === 'EACCES' ? 'permission denied' : err.code === 'EISDIR' ? 'it is a directory' : err.message}; nothing was sent`);
  }
  // nothing to lose: written by the first save
  if (!text.trim()) return emptyState();
  const corrupt = (why: string) =>
    new UsageError(`the state file ${path} is corrupt (${why}); it was left as it is: repair it, or move it away to start over (every current event is then reported again); nothing was sent`);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    // where, never the piece of the file V8 quotes (a --state naming the wrong file: a .env)
    throw corrupt(`not JSON: ${jsonErrorWithoutText(text, e as Error)}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw corrupt('not an object');
  const s = v as Record<string, unknown>;
  if (s.version !== 1) throw corrupt(`unknown version ${JSON.stringify(s.version)}`);
  if (!s.events || typeof s.events !== 'object' || Array.isArray(s.events)) throw corrupt('"events" is not an object');
  for (const [id, e] of Object.entries(s.events as Record<string, unknown>)) {
    if (!e || typeof e !== 'object' || Array.isArray(e)) throw corrupt(`the entry of ${id} is not an object`);
    for (const k of ['status', 'eventLevel', 'lastUpdateTime'] as const) {
      const f = (e as Record<string, unknown>)[k];
      if (f !== undefined && typeof f !== 'string') throw corrupt(`${k} of ${id} is not a string`);
    }
  }
  return { version: 1, events: s.events as Record<string, SeenEvent> };
}

/**
 * The state is written after every poll (a temporary file renamed into place), so its directory
 * must exist and be writable: checked before anything is sent, not found out after the news were
 * printed and their --exec commands run (a cron job would then report them all again each run).
 */
async function checkStateDirectory(path: string): Promise<void> {
  const dir = dirname(resolve(path));
  const refuse = (why: string) => new UsageError(`cannot write the state file ${path}: ${why}; nothing was sent`);
  try {
    if (!(await stat(dir)).isDirectory()) throw refuse(`${dir} is not a directory`);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw refuse(code === 'ENOENT' ? `the directory ${dir} does not exist` : code === 'ENOTDIR' ? `${dir} is not a directory` : `the directory ${dir} cannot be read (${code ?? (e as Error).message})`);
  }
  try {
    await access(dir, constants.W_OK | constants.X_OK);
  } catch {
    throw refuse(`no permission to write in the directory ${dir}`);
  }
}

/** Writes the state through a temporary file renamed into place (never half-written). */
export async function saveState(path: string, state: WatchState): Promise<void> {
  const sink = await atomicFileSink(path);
  try {
    await sink.write(`${JSON.stringify(state, null, 1)}\n`);
  } catch (e) {
    await sink.abort();
    throw e;
  }
  await sink.commit();
}

export type ChangeKind = 'new' | 'updated' | 'resolved' | 'reactivated';

export interface EventChange {
  change: ChangeKind;
  event: HealthEvent;
  previous?: SeenEvent;
}

export function trackingId(e: HealthEvent): string {
  return typeof e.name === 'string' && e.name ? e.name : typeof e.id === 'string' ? (e.id.split('/').filter(Boolean).pop() ?? '') : '';
}

function seenOf(e: HealthEvent): SeenEvent {
  const p = e.properties ?? {};
  const s: SeenEvent = {};
  if (typeof p.status === 'string') s.status = p.status;
  if (typeof p.eventLevel === 'string') s.eventLevel = p.eventLevel;
  if (typeof p.lastUpdateTime === 'string') s.lastUpdateTime = p.lastUpdateTime;
  return s;
}

/**
 * The news in `events` against what `state` remembers: new events, and events whose status,
 * level or last update time changed. Returns the changes in the order they happened (by last
 * update time, oldest first; the service lists by priority) and the state to remember: the events
 * of this poll only, so the file stays as small as the list.
 */
export function diffEvents(state: WatchState, events: HealthEvent[]): { changes: EventChange[]; next: WatchState } {
  const next = emptyState();
  const changes: EventChange[] = [];
  for (const e of events) {
    const id = trackingId(e);
    // an event listed twice in one poll (pages that shifted while they were read) is news once
    if (!id || id in next.events) continue;
    const now = seenOf(e);
    next.events[id] = now;
    const before = state.events[id];
    if (!before) {
      changes.push({ change: 'new', event: e });
      continue;
    }
    if (before.status === now.status && before.eventLevel === now.eventLevel && before.lastUpdateTime === now.lastUpdateTime) continue;
    const change: ChangeKind = before.status !== now.status ? (now.status === 'Resolved' ? 'resolved' : 'reactivated') : 'updated';
    changes.push({ change, event: e, previous: before });
  }
  return { changes: inTimeOrder(changes), next };
}

/** Oldest update first; an event without a readable time last; the service's order among equals. */
function inTimeOrder(changes: EventChange[]): EventChange[] {
  const time = (ch: EventChange) => {
    const t = Date.parse(String(ch.event.properties?.lastUpdateTime ?? ''));
    return Number.isNaN(t) ? Infinity : t;
  };
  return changes
    .map((ch, i) => ({ ch, i, t: time(ch) }))
    .sort((a, b) => (a.t === b.t ? a.i - b.i : a.t < b.t ? -1 : 1))
    .map((x) => x.ch);
}

/** `--type ServiceIssue,PlannedMaintenance`: the spec's event types (case-insensitive), in their spelling. */
export function parseTypes(values: string[] | undefined, flag: string): string[] | undefined {
  if (!values?.length) return undefined;
  const out: string[] = [];
  for (const v of values.flatMap((x) => x.split(',')).map((x) => x.trim())) {
    if (!v) continue;
    const t = EVENT_TYPES.find((x) => x.toLowerCase() === v.toLowerCase());
    if (!t) throw new UsageError(`invalid ${flag} "${v}": the event types are ${EVENT_TYPES.join(', ')}; nothing was sent`);
    if (!out.includes(t)) out.push(t);
  }
  if (!out.length) throw new UsageError(`${flag} may not be empty; nothing was sent`);
  return out;
}

// ---------------------------------------------------------------- health check

export const DEFAULT_CRITICAL = ['ServiceIssue', 'SecurityAdvisory'];
export const DEFAULT_WARN = ['PlannedMaintenance', 'HealthAdvisory', 'EmergingIssues'];

/** The monitoring-plugin codes of `health check`. */
export const PLUGIN = { ok: 0, warning: 1, critical: 2, unknown: 3 } as const;

export interface HealthGrade {
  status: 'OK' | 'WARNING' | 'CRITICAL';
  code: number;
  critical: HealthEvent[];
  warning: HealthEvent[];
  active: number;
}

/** Grades the active events: a critical type makes it CRITICAL, else a warning type WARNING. */
export function gradeEvents(events: HealthEvent[], critical: string[], warn: string[]): HealthGrade {
  const active = events.filter((e) => e.properties?.status === 'Active');
  const typeOf = (e: HealthEvent) => e.properties?.eventType ?? '';
  const crit = active.filter((e) => critical.includes(typeOf(e)));
  const warning = active.filter((e) => !critical.includes(typeOf(e)) && warn.includes(typeOf(e)));
  const status = crit.length ? 'CRITICAL' : warning.length ? 'WARNING' : 'OK';
  return { status, code: PLUGIN[status.toLowerCase() as 'ok' | 'warning' | 'critical'], critical: crit, warning, active: active.length };
}

function listIds(events: HealthEvent[]): string {
  const byType = new Map<string, string[]>();
  for (const e of events) {
    const t = e.properties?.eventType ?? 'unknown';
    byType.set(t, [...(byType.get(t) ?? []), trackingId(e)]);
  }
  return [...byType].map(([t, ids]) => `${t}: ${ids.join(' ')}`).join('; ');
}

/** `HEALTH CRITICAL - 2 critical (ServiceIssue: A B), 1 warning (...) | critical=2 warning=1 active=5` */
export function summaryLine(g: HealthGrade): string {
  const parts: string[] = [];
  if (g.critical.length) parts.push(`${g.critical.length} critical (${listIds(g.critical)})`);
  if (g.warning.length) parts.push(`${g.warning.length} warning (${listIds(g.warning)})`);
  const text = parts.length ? parts.join(', ') : `no active events of the watched types (${g.active} active in all)`;
  return `HEALTH ${g.status} - ${text} | critical=${g.critical.length} warning=${g.warning.length} active=${g.active}`;
}
