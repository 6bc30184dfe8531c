// The spinner stays on one terminal line: a text wider than the terminal is cut (a wrapped line
// cannot be redrawn in place with \r, and every frame would add a line to the screen).
import { describe, expect, it } from 'vitest';
import { startSpinner } from '../../src/core/progress.js';
import { tty } from '../helpers/tty.js';

describe('startSpinner', () => {
  it('cuts a text wider than the terminal to the width, leaving the last column free', () => {
    const t = tty(40);
    const s = startSpinner(t as never, 'quota request 9647c0ee-6c66-479e-b919-aa18d2e5ef5d: InProgress', { intervalMs: 60_000 });
    s.update('quota request 9647c0ee-6c66-479e-b919-aa18d2e5ef5d: Succeeded');
    s.stop();
    const frames = t.text.split('\r').filter((f) => f && !f.startsWith('\u001b[K'));
    expect(frames).toHaveLength(2);
    for (const f of frames) {
      const line = f.replace('\u001b[K', '');
      expect([...line].length).toBeLessThanOrEqual(39);
      expect(line).toMatch(/^. quota request 9647c0ee-6c66-479e-b91…$/);
    }
  });

  it('leaves a text that fits as it is', () => {
    const t = tty(80);
    startSpinner(t as never, 'quota request r1: InProgress', { intervalMs: 60_000 }).stop();
    expect(t.text).toMatch(/^\r. quota request r1: InProgress\u001b\[K\r\u001b\[K$/);
  });
});
