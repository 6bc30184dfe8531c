// Work the process can neither take back nor wait for as it exits: a write that a native thread
// holds queued behind another process's lock (LMDB waits for its lock without a limit, and the
// process's exit waits for that thread). A run stopped by a signal then leaves by that signal
// (main.ts), at once, instead of through an exit that waits for the other process.
let held = false;

/** Marks the process as holding such work. */
export function holdExit(): void {
  held = true;
}

export function exitHeld(): boolean {
  return held;
}
