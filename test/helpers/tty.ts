// A fake terminal output stream for in-process tests: isTTY, a width, and the text written.
import { Writable } from 'node:stream';

export type FakeTty = Writable & { isTTY: boolean; columns: number; text: string };

export function tty(): FakeTty {
  const chunks: string[] = [];
  const w = new Writable({
    write(c, _e, cb) {
      chunks.push(String(c));
      cb();
    },
  }) as FakeTty;
  w.isTTY = true;
  w.columns = 200;
  Object.defineProperty(w, 'text', { get: () => chunks.join('') });
  return w;
}
