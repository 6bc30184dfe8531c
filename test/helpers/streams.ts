// A writable that records what is written and says whether it is a terminal, for in-process tests.
import { Writable } from 'node:stream';

export type CapturedStream = Writable & { isTTY: boolean; columns: number; text: string };

export function captureStream(isTTY = true, columns = 200): CapturedStream {
  const chunks: string[] = [];
  const w = new Writable({
    write(c, _e, cb) {
      chunks.push(String(c));
      cb();
    },
  }) as CapturedStream;
  w.isTTY = isTTY;
  w.columns = columns;
  Object.defineProperty(w, 'text', { get: () => chunks.join('') });
  return w;
}
