// The texts (or bytes) of the elements of one array member of a JSON object, cut from the JSON text itself:
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
 * Where each element of the array that is the member `key` of the JSON object `text` starts and
 * ends, as [start0, end0, start1, end1, ...] (UTF-16 indices, ends exclusive); undefined when the
 * text is not such an object, has no such member, or has it twice (JSON.parse keeps the last one).
 */
export function memberArraySpans(text: string, key: string): number[] | undefined {
  const name = JSON.stringify(key);
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== 123) return undefined;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === 125) return undefined;
  let found: number[] | undefined;
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
          found.push(start, i);
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

/** The text of each element of that array, as written (spaces inside an element kept); see memberArraySpans. */
export function memberArrayTexts(text: string, key: string): string[] | undefined {
  const spans = memberArraySpans(text, key);
  if (!spans) return undefined;
  const out: string[] = [];
  for (let i = 0; i < spans.length; i += 2) out.push(text.slice(spans[i], spans[i + 1]));
  return out;
}

/**
 * NDJSON of the elements at `spans` of a page whose bytes are `bytes` and whose text has one
 * character per byte (ASCII: byte offsets are the text's indices) and no line break: each element
 * on a line of its own, as bytes, without making strings. When the elements are separated by
 * single commas (compact JSON) that is the page's own bytes, in place: the commas between the
 * elements and the byte after the last one become line feeds (`bytes` is changed; the caller
 * has no further use for it). Otherwise the elements are copied out.
 */
export function ndjsonOfSpans(bytes: Uint8Array, spans: readonly number[]): Uint8Array {
  const n = spans.length;
  const first = spans[0];
  const last = spans[n - 1];
  let compact = true;
  for (let i = 2; i < n; i += 2) {
    if (spans[i] !== spans[i - 1] + 1) {
      compact = false;
      break;
    }
  }
  if (compact && last < bytes.length) {
    for (let i = 1; i < n; i += 2) bytes[spans[i]] = 10;
    return bytes.subarray(first, last + 1);
  }
  const src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let size = 0;
  for (let i = 0; i < n; i += 2) size += spans[i + 1] - spans[i] + 1;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < n; i += 2) {
    at += src.copy(out, at, spans[i], spans[i + 1]);
    out[at++] = 10;
  }
  return out;
}
