/**
 * The TCCG benchmark (issue 14): the tensor contractions of Springer & Bientinesi, "Design of a High-Performance
 * GEMM-like Tensor-Tensor Multiplication" (ACM TOMS 2018; the GETT paper), as its tool's repository lists them in
 * HPAC/tccg `benchmark/benchmark.py` (benchmark v0.1, `_fullbenchmark = 1`: ccsd 19, intensli 8, ao2mo 3, ccsd_t 18
 * = 48) and `benchmark/transC.py` (one contraction over a sweep of its contracted size k).
 *
 * Names are TCCG's: `C-A-B` index strings after its `normalize()` (the output's indices become a, b, c, ... in order,
 * then A's contracted ones), so `abcd-aebf-dfce` is C[a,b,c,d] = Σ_e,f A[a,e,b,f] · B[d,f,c,e].
 * TCCG is column-major (`_columnMajor = 1`): a tensor's FIRST index has stride 1. Our tensors are row-major, so every
 * spec here lists each tensor's indices reversed (`C[d,c,b,a] +=! A[f,b,e,a] * B[e,c,f,d]`): the same memory layout
 * and the same loads, only written the other way round.
 *
 * Sizes: TCCG's rule (benchmark.py `generate()`): every index of a contraction gets about the same extent, the one that
 * makes its highest-rank tensor `tensorBytes` big; an index that is some tensor's stride-1 index is rounded up to a
 * multiple of 24, the others to the nearest multiple of 4; intensli's `j` is fixed at 24. `tccgSizes` implements it;
 * with TCCG's own defaults (200 MiB of doubles) it gives the published sizes (checked in tccg-cases.test.ts against
 * PUBLISHED_SIZES, the sizes printed with the 48 normalized contractions). The bench scales it to f32 with the largest
 * tensor about 32 MiB (BENCH_RULE), rounding stride-1 indices to the NEAREST multiple of 8 instead of up to 24: at
 * these smaller extents TCCG's round-up would make 5-index tensors 4x too big (24.3 -> 48).
 */

/** benchmark.py's lists, verbatim (before normalize()). */
export const TCCG_LISTS = {
  /** Stock et al., "Using Machine Learning to Improve Automatic Vectorization". */
  ccsd: [
    'ij-ik-kj', 'ij-ikl-ljk', 'ij-kil-lkj', 'ijk-ikl-lj', 'ijk-il-jlk', 'ijk-ilk-jl', 'ijk-ilk-lj', 'ijk-ilmk-mjl',
    'ijkl-imjn-lnkm', 'ijkl-imjn-nlmk', 'ijkl-imkn-jnlm', 'ijkl-imkn-njml', 'ijkl-imln-jnkm', 'ijkl-imln-njmk',
    'ijkl-imnj-nlkm', 'ijkl-imnk-njml', 'ijkl-minj-nlmk', 'ijkl-mink-jnlm', 'ijkl-minl-njmk',
  ],
  /** Li et al., "An Input-Adaptive and In-Place Approach to Dense Tensor-Times-Matrix Multiply"; j is fixed at 24. */
  intensli: ['abj-bka-kj', 'ajb-kba-jk', 'abjc-cbka-kj', 'ajbc-ckba-jk', 'abjc-kbac-jk', 'abjcd-dkbac-jk', 'adbjc-cbdka-kj', 'ajbdc-ckbad-jk'],
  /** "Synthesis of High-Performance Parallel Programs for a Class of Ab Initio Quantum Chemistry Models". */
  ao2mo: ['aqrs-pa-pqrs', 'abrs-qb-aqrs', 'abcs-rc-abrs'],
  /** "Efficient Implementation of Many-body Quantum Chemical Methods on the Intel Xeon Phi Coprocessor". */
  ccsd_t: [
    'abcijk-ijma-mkbc', 'abcijk-ijmb-mkac', 'abcijk-ijmc-mkab', 'abcijk-ikma-mjbc', 'abcijk-ikmb-mjac', 'abcijk-ikmc-mjab',
    'abcijk-jkma-mibc', 'abcijk-jkmb-miac', 'abcijk-jkmc-miab', 'abcijk-eiab-jkec', 'abcijk-eiac-jkeb', 'abcijk-eibc-jkea',
    'abcijk-ejab-ikec', 'abcijk-ejac-ikeb', 'abcijk-ejbc-ikea', 'abcijk-ekab-ijec', 'abcijk-ekac-ijeb', 'abcijk-ekbc-ijea',
  ],
} as const

export type TccgList = keyof typeof TCCG_LISTS | 'transC'

/**
 * transC.py: `C[i1,j,i2] = A[i1,k,i2] · B[j,k]` (its case 0) with i1 = 24, j = 1152, i2 = 48 and k swept from 8 to
 * 1024: its sizes are given, not derived. The bench takes three points of the sweep.
 */
export const TRANSC = { name: 'abc-bk-akc', sizes: { a: 24, b: 1152, c: 48 }, k: [64, 256, 1024] } as const

/**
 * The per-index sizes published with TCCG's benchmark (its 200 MiB double-precision default), by normalized name,
 * extents of a, b, c, ... in order.
 */
export const PUBLISHED_SIZES: Readonly<Record<string, string>> = {
  'abc-bda-dc': '312 312 24 312', 'abc-dca-bd': '312 24 296 312', 'abcd-dbea-ec': '72 72 24 72 72',
  'abcd-deca-be': '72 24 72 72 72', 'abcd-ebad-ce': '72 72 24 72 72', 'abcde-efbad-cf': '48 32 24 32 48 32',
  'abcde-ecbfa-fd': '48 32 32 24 48 48', 'abcde-efcad-bf': '48 24 32 32 48 32', 'abcd-ea-ebcd': '72 72 72 72 72',
  'abcd-eb-aecd': '72 72 72 72 72', 'abcd-ec-abed': '72 72 72 72 72', 'ab-ac-cb': '5136 5120 5136',
  'ab-acd-dbc': '312 296 296 312', 'ab-cad-dcb': '312 296 312 312', 'abc-acd-db': '312 296 296 312',
  'abc-ad-bdc': '312 312 296 296', 'abc-adc-bd': '312 312 296 296', 'abc-adc-db': '312 296 296 312',
  'abc-adec-ebd': '72 72 72 72 72', 'abcd-aebf-dfce': '72 72 72 72 72 72', 'abcd-aebf-fdec': '72 72 72 72 72 72',
  'abcd-aecf-bfde': '72 72 72 72 72 72', 'abcd-aecf-fbed': '72 72 72 72 72 72', 'abcd-aedf-bfce': '72 72 72 72 72 72',
  'abcd-aedf-fbec': '72 72 72 72 72 72', 'abcd-aefb-fdce': '72 72 72 72 72 72', 'abcd-aefc-fbed': '72 72 72 72 72 72',
  'abcd-eafb-fdec': '72 72 72 72 72 72', 'abcd-eafc-bfde': '72 72 72 72 72 72', 'abcd-eafd-fbec': '72 72 72 72 72 72',
  'abcdef-dega-gfbc': '24 16 16 24 16 16 24', 'abcdef-degb-gfac': '24 16 16 24 16 16 24',
  'abcdef-degc-gfab': '24 16 16 24 16 16 24', 'abcdef-dfga-gebc': '24 16 16 24 16 16 24',
  'abcdef-dfgb-geac': '24 16 16 24 16 16 24', 'abcdef-dfgc-geab': '24 16 16 24 16 16 24',
  'abcdef-efga-gdbc': '24 16 16 16 24 16 24', 'abcdef-efgb-gdac': '24 16 16 16 24 16 24',
  'abcdef-efgc-gdab': '24 16 16 16 24 16 24', 'abcdef-gdab-efgc': '24 16 16 16 24 16 24',
  'abcdef-gdac-efgb': '24 16 16 16 24 16 24', 'abcdef-gdbc-efga': '24 16 16 16 24 16 24',
  'abcdef-geab-dfgc': '24 16 16 24 16 16 24', 'abcdef-geac-dfgb': '24 16 16 24 16 16 24',
  'abcdef-gebc-dfga': '24 16 16 24 16 16 24', 'abcdef-gfab-degc': '24 16 16 24 16 16 24',
  'abcdef-gfac-degb': '24 16 16 24 16 16 24', 'abcdef-gfbc-dega': '24 16 16 24 16 16 24',
}

/** benchmark.py's size rule, parametrized: TCCG_RULE reproduces its defaults, BENCH_RULE is what the bench runs. */
export interface SizeRule {
  readonly tensorBytes: number
  readonly elementBytes: number
  /** A stride-1 index's extent is a multiple of this... */
  readonly stride1Multiple: number
  /** ...rounded up (TCCG) or to the nearest multiple. */
  readonly stride1Rounding: 'up' | 'nearest'
  /** Any other index: the nearest multiple of this (at least one multiple). */
  readonly multiple: number
}

export const TCCG_RULE: SizeRule = { tensorBytes: 200 * 2 ** 20, elementBytes: 8, stride1Multiple: 24, stride1Rounding: 'up', multiple: 4 }
export const BENCH_RULE: SizeRule = { tensorBytes: 32 * 2 ** 20, elementBytes: 4, stride1Multiple: 8, stride1Rounding: 'nearest', multiple: 4 }

/** One contraction of the bench, in TCCG's (column-major) notation. */
export interface TccgCase {
  /** `tccg-<normalized name>`, or `tccg-transC-k<k>`. */
  readonly name: string
  readonly list: TccgList
  /** The list entry as benchmark.py writes it, before normalize(). */
  readonly source: string
  /** Normalized `C-A-B`, column-major. */
  readonly tccg: string
  readonly sizes: Readonly<Record<string, number>>
}

/** benchmark.py's normalize(), also returning where each original index went. */
export function normalize(tc: string): { readonly name: string; readonly renamed: ReadonlyMap<string, string> } {
  const [c, a, b] = tc.split('-')
  const renamed = new Map<string, string>()
  let next = 0
  for (const idx of [...c, ...a]) {
    if (!renamed.has(idx)) renamed.set(idx, String.fromCharCode(97 + next++))
  }
  const map = (s: string) => [...s].map((idx) => renamed.get(idx) ?? idx).join('')
  return { name: `${map(c)}-${map(a)}-${map(b)}`, renamed }
}

/** TCCG's sizes for the normalized contraction `tc` under `rule`, `fixed` extents kept as given. */
export function tccgSizes(tc: string, rule: SizeRule, fixed: Readonly<Record<string, number>> = {}): Record<string, number> {
  const tensors = tc.split('-')
  const maxDim = Math.max(...tensors.map((t) => t.length))
  const average = (rule.tensorBytes / rule.elementBytes) ** (1 / maxDim)
  const sizes: Record<string, number> = {}
  for (const idx of new Set(tensors.join(''))) {
    if (fixed[idx] !== undefined) sizes[idx] = fixed[idx]
    else if (tensors.some((t) => t[0] === idx)) {
      const m = rule.stride1Multiple
      sizes[idx] = Math.max(m, (rule.stride1Rounding === 'up' ? Math.ceil(average / m) : Math.round(average / m)) * m)
    } else {
      const m = rule.multiple
      const up = Math.ceil(average / m) * m
      const down = Math.max(m, Math.floor(average / m) * m)
      sizes[idx] = Math.abs(average - up) < Math.abs(average - down) ? up : down
    }
  }
  return sizes
}

/** Every list entry, normalized, with its sizes under `rule`; then transC's sweep. */
export function tccgCases(rule: SizeRule = BENCH_RULE): TccgCase[] {
  const cases: TccgCase[] = []
  for (const [list, entries] of Object.entries(TCCG_LISTS) as [keyof typeof TCCG_LISTS, readonly string[]][]) {
    for (const source of entries) {
      const { name, renamed } = normalize(source)
      const fixed = list === 'intensli' ? { [renamed.get('j')!]: 24 } : {}
      cases.push({ name: `tccg-${name}`, list, source, tccg: name, sizes: tccgSizes(name, rule, fixed) })
    }
  }
  for (const k of TRANSC.k) {
    cases.push({ name: `tccg-transC-k${k}`, list: 'transC', source: TRANSC.name, tccg: TRANSC.name, sizes: { ...TRANSC.sizes, k } })
  }
  return cases
}

export const TCCG_CASES: readonly TccgCase[] = tccgCases()

/** A contraction as the bench's systems see it: row-major index strings (TCCG's reversed) and the roles of indices. */
export interface Contraction {
  readonly c: string
  readonly a: string
  readonly b: string
  /** numpy's and onnxruntime's equation: `fbea,ecfd->dcba`. */
  readonly equation: string
  /** GEMM roles: free in A (M), free in B (N), contracted (K), in all three (batch: none in TCCG's lists). */
  readonly m: string
  readonly n: string
  readonly k: string
  readonly batch: string
}

export function contractionOf(tccg: string): Contraction {
  const [c, a, b] = tccg.split('-').map((s) => [...s].reverse().join(''))
  const inAll = (i: string) => c.includes(i) && a.includes(i) && b.includes(i)
  return {
    c, a, b,
    equation: `${a},${b}->${c}`,
    m: [...a].filter((i) => c.includes(i) && !b.includes(i)).join(''),
    n: [...b].filter((i) => c.includes(i) && !a.includes(i)).join(''),
    k: [...a].filter((i) => b.includes(i) && !c.includes(i)).join(''),
    batch: [...c].filter(inAll).join(''),
  }
}

export const extentOf = (indices: string, sizes: Readonly<Record<string, number>>): number =>
  [...indices].reduce((n, i) => n * sizes[i], 1)

/** The GEMM of the same work (M·N·K = the contraction's points), for `polykern-gemm`: batch indices go into M. */
export function gemmShapeOf(c: TccgCase): { M: number; N: number; K: number } {
  const t = contractionOf(c.tccg)
  return { M: extentOf(t.m + t.batch, c.sizes), N: extentOf(t.n, c.sizes), K: extentOf(t.k, c.sizes) }
}

/** 2 flops per point of the iteration space (every index once). */
export const tccgFlops = (c: TccgCase): number => 2 * extentOf([...new Set(c.tccg.replace(/-/g, ''))].join(''), c.sizes)

/** Sizes shrunk by one factor per index (at least 1 each) until the contraction costs at most `maxFlops`. */
export function reducedSizes(indices: string, sizes: Readonly<Record<string, number>>, maxFlops: number): Record<string, number> {
  const all = [...new Set(indices)]
  const flops = (s: Readonly<Record<string, number>>) => 2 * all.reduce((n, i) => n * s[i], 1)
  if (flops(sizes) <= maxFlops) return { ...sizes }
  const f = (maxFlops / flops(sizes)) ** (1 / all.length)
  const out = Object.fromEntries(all.map((i) => [i, Math.max(1, Math.floor(sizes[i] * f))]))
  return out
}

/** The kernel's export name: `tccg_abcd_aebf_dfce`; transC's sweep shares one kernel. */
export const kernelNameOf = (tccg: string): string => `tccg_${tccg.replace(/-/g, '_')}`
