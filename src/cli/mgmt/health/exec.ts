// `health watch --exec`: the command run for each news.
import { spawn } from 'node:child_process';
import { trackingId, type EventChange } from '../../../api/mgmt/watch.js';
import { passSignal } from '../../../core/child.js';
import type { Ctx } from '../../../core/context.js';

/** Runs the --exec command for one change: the event as JSON on stdin, its id and type in the environment. */
export function runExec(ctx: Ctx, command: string, ch: EventChange): Promise<number | null> {
  return new Promise((resolve) => {
    const p = ch.event.properties ?? {};
    const child = spawn('/bin/sh', ['-c', command], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: {
        ...ctx.env,
        VX_EVENT_ID: trackingId(ch.event),
        VX_EVENT_TYPE: String(p.eventType ?? ''),
        VX_EVENT_CHANGE: ch.change,
        VX_EVENT_STATUS: String(p.status ?? ''),
        VX_EVENT_LEVEL: String(p.eventLevel ?? ''),
      },
    });
    // its output goes to stderr: stdout carries vx's own lines
    child.stdout.pipe(ctx.io.stderr, { end: false });
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${JSON.stringify(ch.event)}\n`);
    child.on('error', (e) => {
      ctx.warn(`--exec could not start: ${e.message}`);
      resolve(null);
    });
    // a stop of vx (Ctrl-C, a CI runner's SIGTERM) is passed on: the command ends (or cleans up)
    // as it chooses and the watch saves its state, instead of leaving it running on its own
    const stop = () => passSignal(child, ctx.host.interruptedBy ?? 'SIGTERM');
    ctx.signal.addEventListener('abort', stop, { once: true });
    child.on('close', (code) => {
      ctx.signal.removeEventListener('abort', stop);
      resolve(code);
    });
  });
}
