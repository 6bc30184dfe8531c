// The texts of the elements of one array member of a JSON object, cut from the JSON text itself:
// `vx erp <set> export -o ndjson` writes each record of a page as the service wrote it, instead of
// parsing every record into an object and serializing it again (the two were ~2/3 of an export's
// CPU). The text must be known to be valid JSON (the caller has parsed it): this only finds the
// boundaries, and answers undefined for anything it does not expect, so that the caller takes the
// ordinary way.

/** the index just past the string whose opening quote is at `i`, or -1 */
function endOfString(text: string, i: number): number {
  for (let j = i + 1; ; ) {
    const q = text.indexOf('"', j);
    if (q < 0) return -1;
    // a quote preceded by an odd number of backslashes is escaped
    let k = q - 1;
    while (text.charCodeAt(k) === 92) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) i++;
    else return i;
  }
}

/** the index just past the value that starts at `i` (no space before it), or -1 */
function endOfValue(text: string, i: number): number {
  const n = text.length;
  const first = text.charCodeAt(i);
  if (first === 34) return endOfString(text, i);
  if (first === 123 || first === 91) {
    let depth = 0;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i = endOfString(text, i);
        if (i < 0) return -1;
        continue;
      }
      i++;
      if (c === 123 || c === 91) depth++;
      else if ((c === 125 || c === 93) && --depth === 0) return i;
    }
    return -1;
  }
  // a number, true, false or null: up to the next delimiter
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 44 || c === 125 || c === 93 || c === 32 || c === 10 || c === 13 || c === 9) break;
    i++;
  }
  return i;
}

/**
 * The text of each element of the array that is the member `key` of the JSON object `text`, as
 * written (spaces inside an element kept); undefined when the text is not such an object, has no
 * such member, or has it twice (JSON.parse keeps the last one).
 */
export function memberArrayTexts(text: string, key: string): string[] | undefined {
  const name = JSON.stringify(key);
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== 123) return undefined;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === 125) return undefined;
  let found: string[] | undefined;
  for (;;) {
    if (text.charCodeAt(i) !== 34) return undefined;
    const keyEnd = endOfString(text, i);
    if (keyEnd < 0) return undefined;
    const k = text.slice(i, keyEnd);
    // (a name may be spelled with escapes: "\u0076alue" is "value" too)
    const isKey = k.includes('\\') ? JSON.parse(k) === key : k === name;
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== 58) return undefined;
    i = skipSpace(text, i + 1);
    if (isKey) {
      if (found || text.charCodeAt(i) !== 91) return undefined;
      found = [];
      i = skipSpace(text, i + 1);
      if (text.charCodeAt(i) === 93) i++;
      else {
        for (;;) {
          const start = i;
          i = endOfValue(text, i);
          if (i < 0) return undefined;
          found.push(text.slice(start, i));
          i = skipSpace(text, i);
          const c = text.charCodeAt(i++);
          if (c === 93) break;
          if (c !== 44) return undefined;
          i = skipSpace(text, i);
        }
      }
    } else {
      i = endOfValue(text, i);
      if (i < 0) return undefined;
    }
    i = skipSpace(text, i);
    const c = text.charCodeAt(i++);
    if (c === 125) break;
    if (c !== 44) return undefined;
    i = skipSpace(text, i);
  }
  return found;
}
