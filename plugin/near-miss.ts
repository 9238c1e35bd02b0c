/**
 * The name a misspelt one most likely meant, for "did you mean …?" notes: the same letters in another case (`k` for
 * `K`), or a candidate within a small edit distance: one edit for names of two to four characters, two beyond (a
 * one-letter name is one edit from every other one-letter name, so only its case counts). Ties go to the first
 * candidate, so callers list the likeliest kinds of name first.
 */
export function nearMiss(name: string, candidates: Iterable<string>): string | undefined {
  const others = [...candidates].filter((c) => c !== name)
  const sameLetters = others.find((c) => c.toLowerCase() === name.toLowerCase())
  if (sameLetters !== undefined) return sameLetters
  const allowed = name.length <= 1 ? 0 : name.length <= 4 ? 1 : 2
  let best: string | undefined
  let bestDistance = allowed + 1
  for (const c of others) {
    const d = editDistance(name, c, bestDistance)
    if (d < bestDistance) [best, bestDistance] = [c, d]
  }
  return best
}

/** Levenshtein distance (insert, delete, substitute, transpose adjacent), or `limit` once it is known to reach it. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit
  let before: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitute = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, substitute)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1)
      current.push(d)
    }
    if (Math.min(...current) >= limit) return limit
    ;[before, previous] = [previous, current]
  }
  return Math.min(previous[b.length], limit)
}

/** A note suggesting `guess`, or none. */
export const didYouMean = (guess: string | undefined): { text: string }[] =>
  guess === undefined ? [] : [{ text: `did you mean '${guess}'?` }]
