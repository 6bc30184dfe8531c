// A one-line spinner on stderr, drawn only when stderr is a terminal; elsewhere it does nothing
// (callers print plain lines with --verbose instead). No dependencies.
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Spinner {
  /** changes the text next to the spinner */
  update(text: string): void;
  /** clears the spinner line; prints `final` in its place when given */
  stop(final?: string): void;
}

export function startSpinner(stream: NodeJS.WriteStream, text: string, opts: { intervalMs?: number } = {}): Spinner {
  if (!stream.isTTY) return { update: () => undefined, stop: (final) => void (final !== undefined && stream.write(`${final}\n`)) };
  let i = 0;
  let current = text;
  let stopped = false;
  const draw = () => stream.write(`\r${FRAMES[i++ % FRAMES.length]} ${current}\u001b[K`);
  draw();
  const timer = setInterval(draw, opts.intervalMs ?? 100);
  timer.unref();
  return {
    update(t) {
      current = t;
      if (!stopped) draw();
    },
    stop(final) {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      stream.write(`\r\u001b[K${final !== undefined ? `${final}\n` : ''}`);
    },
  };
}
