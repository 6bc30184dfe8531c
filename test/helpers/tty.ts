// A fake terminal stream for in-process tests: isTTY, a width, and everything written as text.
import { Writable } from 'node:stream';

export type FakeTty = Writable & { isTTY: boolean; columns: number; text: string; bytes: Buffer };

export function tty(columns = 200): FakeTty {
  const chunks: Buffer[] = [];
  const w = new Writable({
    write(c, _e, cb) {
      chunks.push(Buffer.from(c));
      cb();
    },
  }) as FakeTty;
  w.isTTY = true;
  w.columns = columns;
  Object.defineProperty(w, 'text', { get: () => Buffer.concat(chunks).toString('utf8') });
  Object.defineProperty(w, 'bytes', { get: () => Buffer.concat(chunks) });
  return w;
}
