// A fake terminal stream for in-process tests: isTTY, a width, and everything written as text.
import { Writable } from 'node:stream';

export type FakeTty = Writable & { isTTY: boolean; columns: number; text: string };

export function tty(columns = 200): FakeTty {
  const chunks: string[] = [];
  const w = new Writable({
    write(c, _e, cb) {
      chunks.push(String(c));
      cb();
    },
  }) as FakeTty;
  w.isTTY = true;
  w.columns = columns;
  Object.defineProperty(w, 'text', { get: () => chunks.join('') });
  return w;
}
