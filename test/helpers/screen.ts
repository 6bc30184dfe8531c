// What a terminal shows once it has been sent some bytes: a small model of the VT100 subset that
// vx and @inquirer draw with (text, \r, \n, cursor moves, erasing lines and the screen below;
// colours and the cursor's visibility ignored), so that a test can read what stays on screen.

/** The lines on screen after `raw` was written to a terminal `cols` wide (trailing blanks trimmed). */
export function screenOf(raw: string, cols = 80): string[] {
  const rows: string[][] = [];
  let r = 0;
  let c = 0;
  const row = () => (rows[r] ??= []);
  const put = (ch: string) => {
    // a character past the last column goes to the next line (the terminal's deferred wrap)
    if (c >= cols) {
      r++;
      c = 0;
    }
    const l = row();
    while (l.length < c) l.push(' ');
    l[c++] = ch;
  };
  for (let i = 0; i < raw.length; ) {
    const ch = raw[i]!;
    if (ch === '\u001b') {
      const m = /^\u001b\[([?0-9;]*)([A-Za-z])/.exec(raw.slice(i, i + 16));
      i += m ? m[0].length : 1;
      if (m) csi(m[2]!, m[1]!);
      continue;
    }
    i++;
    if (ch === '\r') c = 0;
    else if (ch === '\n') r++;
    else if (ch >= ' ') put(ch);
  }
  function csi(op: string, arg: string) {
    const n = arg === '' ? 1 : Number(arg);
    if (op === 'A') r = Math.max(0, r - n);
    else if (op === 'B') r += n;
    else if (op === 'C') c += n;
    else if (op === 'D') c = Math.max(0, c - n);
    else if (op === 'G') c = n - 1;
    else if (op === 'E' || op === 'F') {
      r = op === 'E' ? r + n : Math.max(0, r - n);
      c = 0;
    } else if (op === 'K') {
      if (arg === '2') rows[r] = [];
      else if (arg === '' || arg === '0') row().length = Math.min(row().length, c);
    } else if (op === 'J' && (arg === '' || arg === '0')) {
      row().length = Math.min(row().length, c);
      rows.length = Math.min(rows.length, r + 1);
    }
  }
  const out = Array.from({ length: rows.length }, (_, k) => (rows[k] ?? []).join('').trimEnd());
  while (out.length && out.at(-1) === '') out.pop();
  return out;
}
