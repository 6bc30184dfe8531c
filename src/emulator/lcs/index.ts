// The database refresh family (lcs) of the emulator: start a refresh of a target environment
// from a source, read the status of its operation. Written from the spec (reference-create-
// refresh.md, reference-get-status.md, dbmovement-api-throttling.md); it answers errors with the
// business-data service's error body.
import { randomUUID } from 'node:crypto';
import { LCS_VERSION, REFRESH_LIMIT_PER_DAY } from '../../model/lcs.js';
import { familyOf } from '../../model/families.js';
import { decode, erpCodes, erpError } from '../erp/errors.js';
import type { EmuReply, EmuRequest, FamilyDef, Route } from '../server/index.js';
import { arrayOf, number, shape, text } from '../state-check.js';

interface Operation {
  id: string;
  project: string;
  source: string;
  target: string;
  time: number;
  polls: number;
  /** when it ended (ms since epoch) */
  completed?: number;
}

export interface LcsState {
  operations: Operation[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Environments whose id starts with this end their refresh in `Failed` (a sandbox convention to try failures). */
const FAILING_ENVIRONMENT_PREFIX = 'fail-';
/** ... and with this, in a rollback: `RollbackInProgress`, then `RollbackCompleted` */
const ROLLBACK_ENVIRONMENT_PREFIX = 'rollback-';
/** as every published answer has it: seven fractional digits, no zone (reference-create-refresh.md) */
const VERSION_EOL = '9999-12-31T23:59:59.9999999';
/** the service's own date-time text: seven fractional digits, no zone */
const lcsTime = (t: number) => new Date(t).toISOString().replace(/\.(\d{3})Z$/, '.$10000');

const result = (IsSuccess: boolean, OperationActivityId: string | null, ErrorMessage: string | null) => ({ IsSuccess, OperationActivityId, ErrorMessage, VersionEOL: VERSION_EOL });

function versionProblem(req: EmuRequest): string | undefined {
  const v = req.headers['x-vendor-version'];
  if (v === undefined) return 'The x-vendor-version header is missing; send x-vendor-version: 2017-09-15.';
  if (v !== LCS_VERSION) return `The API version '${String(v)}' given in x-vendor-version is not supported; use 2017-09-15.`;
  return undefined;
}

function startRefresh(req: EmuRequest): EmuReply {
  const s = req.emulator.state.lcs as LcsState;
  const { project, source, target } = Object.fromEntries(Object.entries(req.params).map(([k, v]) => [k, decode(v)]));
  const problem = versionProblem(req);
  if (problem) return { status: 200, body: result(false, null, problem) };
  // environment ids are GUIDs: the same one in another case is the same environment
  if (source.toLowerCase() === target.toLowerCase()) return { status: 200, body: result(false, null, 'The source and target environments must be different.') };
  // the environment page's rule, which the API shares (reference-create-refresh.md): one
  // operation at a time on an environment; the one running ends when a status read sees it end
  const running = s.operations.find((o) => o.project === project && o.target.toLowerCase() === target.toLowerCase() && o.completed === undefined);
  if (running) return { status: 200, body: result(false, null, `Another operation (${running.id}) is in progress on the target environment ${target}; a refresh can start when it has ended.`) };
  const now = req.emulator.now();
  const recent = s.operations.filter((o) => o.project === project && o.target === target && now - o.time < DAY_MS);
  if (recent.length >= REFRESH_LIMIT_PER_DAY) {
    // dbmovement-api-throttling.md: the id of the operation that opened the window, and when it started
    return { status: 200, body: result(false, recent[0].id, `Maximum allowed API operations are ${REFRESH_LIMIT_PER_DAY} from ${lcsTime(recent[0].time)}`) };
  }
  const op: Operation = { id: randomUUID(), project, source, target, time: now, polls: 0 };
  s.operations.push(op);
  return { status: 200, body: result(true, op.id, null) };
}

/** An operation's state at its n-th status read: NotStarted, InProgress, then how its target makes it end. */
function stateAt(op: Operation): { status: string; ended: boolean; rollback: boolean } {
  const failing = op.target.startsWith(FAILING_ENVIRONMENT_PREFIX);
  const rollback = op.target.startsWith(ROLLBACK_ENVIRONMENT_PREFIX);
  const ended = rollback ? op.polls >= 4 : op.polls >= 3;
  const status = op.polls <= 1 ? 'NotStarted' : op.polls === 2 ? 'InProgress' : rollback ? (ended ? 'RollbackCompleted' : 'RollbackInProgress') : failing ? 'Failed' : 'Completed';
  return { status, ended, rollback };
}

function fetchStatus(req: EmuRequest): EmuReply {
  const s = req.emulator.state.lcs as LcsState;
  const problem = versionProblem(req);
  if (problem) return { status: 200, body: { IsSuccess: false, OperationStatus: null, ErrorMessage: problem } };
  const project = decode(req.params.project);
  const env = decode(req.params.environment);
  const op = s.operations.find((o) => o.id === decode(req.params.activity) && o.project === project && o.target === env);
  if (!op) return { status: 200, body: { IsSuccess: false, OperationStatus: null, ErrorMessage: `No operation activity ${decode(req.params.activity)} for environment ${env} in project ${project}.` } };
  op.polls += 1;
  req.emulator.changed();
  const { status, ended, rollback } = stateAt(op);
  op.completed ??= ended ? req.emulator.now() : undefined;
  // the fields and their order of reference-get-status.md (ProjectId a number there)
  return {
    status: 200,
    body: {
      IsSuccess: true,
      OperationActivityId: op.id,
      ErrorMessage: status === 'Failed' ? 'The database copy failed: the target environment ran out of space.' : rollback && ended ? 'The database copy failed; the target environment was restored to its state before the refresh.' : null,
      VersionEOL: VERSION_EOL,
      ProjectId: /^\d+$/.test(op.project) ? Number(op.project) : op.project,
      EnvironmentId: op.target,
      ActivityId: op.id,
      CompletionDate: op.completed === undefined ? null : lcsTime(op.completed),
      OperationStatus: status,
    },
  };
}

function lcsRoutes(): Route[] {
  return [
    { method: 'POST', path: '/databasemovement/v1/refresh/project/{project}/source/{source}/target/{target}', handler: startRefresh },
    { method: 'GET', path: '/databasemovement/v1/fetchstatus/project/{project}/environment/{environment}/operationactivity/{activity}', handler: fetchStatus },
  ];
}

export function lcsFamily(): FamilyDef {
  return {
    name: 'lcs',
    prefix: familyOf('lcs').emulator.prefix,
    auth: 'bearer',
    requestIdHeader: 'x-request-id',
    codes: erpCodes,
    errorBody: erpError,
    routes: lcsRoutes(),
    seed: (): LcsState => ({ operations: [] }),
    checkState: shape({ operations: arrayOf(shape({ id: text, project: text, source: text, target: text, time: number, polls: number, completed: number }, ['completed'])) }),
  };
}
