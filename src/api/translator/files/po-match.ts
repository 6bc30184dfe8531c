// The entry of an existing PO target that a changed msgid replaced, found as msgmerge finds it:
// among the target's translated entries the template no longer has (same msgctxt, same plural
// shape), the one whose msgid is most similar, if the similarity (gettext's fstrcmp: the share of
// characters the two strings have in common, by their shortest edit script) is at least 0.6.
// The edit distance is Myers' O(ND) algorithm cut off where the similarity would fall below the
// threshold, and the search as a whole has a budget: a catalogue of many changed entries costs
// bounded time (past the budget, the remaining entries are translated anew).

/** msgmerge's FUZZY_THRESHOLD */
const THRESHOLD = 0.6;
const BUDGET = 50_000_000;

/** Insertions plus deletions turning `a` into `b`, or undefined when more than `max`. */
function editDistance(a: string, b: string, max: number, spent: { n: number }): number | undefined {
  const n = a.length;
  const m = b.length;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a.charCodeAt(x) === b.charCodeAt(y)) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return d;
    }
    spent.n += 2 * d + 1;
    if (spent.n > BUDGET) return undefined;
  }
  return undefined;
}

/** fstrcmp's similarity of two strings (1: equal), or 0 when below `min`. */
export function similarity(a: string, b: string, min = THRESHOLD, spent = { n: 0 }): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  // the shorter string bounds what they can share
  if ((2 * Math.min(a.length, b.length)) / total < min) return 0;
  const max = Math.floor(total * (1 - min));
  const d = editDistance(a, b, max, spent);
  return d === undefined ? 0 : (total - d) / total;
}

export interface Candidate {
  key: string;
  msgctxt?: string;
  msgid: string;
  plural: boolean;
}

/**
 * For each wanted entry, the candidate msgmerge would take as its fuzzy match (most similar, at
 * least 0.6), by key. A candidate may serve several entries, as in msgmerge.
 */
export function fuzzyMatches(wanted: readonly Candidate[], candidates: readonly Candidate[]): Map<string, string> {
  const out = new Map<string, string>();
  const spent = { n: 0 };
  for (const w of wanted) {
    let best: Candidate | undefined;
    let score = 0;
    for (const c of candidates) {
      if (c.msgctxt !== w.msgctxt || c.plural !== w.plural) continue;
      const s = similarity(w.msgid, c.msgid, Math.max(THRESHOLD, score), spent);
      if (s > score) [best, score] = [c, s];
      if (spent.n > BUDGET) return out;
    }
    if (best) out.set(w.key, best.key);
  }
  return out;
}
