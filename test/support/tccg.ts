/**
 * The TCCG benchmark's contractions (Springer & Bientinesi, "Design of a High-Performance GEMM-like Tensor-Tensor
 * Multiplication", Sec. 7.1; HPAC/tccg benchmark/benchmark.py, default lists): ccsd, intensli, ao2mo, ccsd_t and
 * transC. Each is `C-A-B`, one letter per index, column-major as TCCG writes them (the first letter is stride 1).
 */
export const TCCG: readonly string[] = [
  // ccsd (Stock et al.)
  'ij-ik-kj', 'ij-ikl-ljk', 'ij-kil-lkj', 'ijk-ikl-lj', 'ijk-ilk-jl', 'ijk-ilmk-mjl', 'ijkl-imjn-lnkm', 'ijkl-imjn-nlmk',
  'ijkl-minl-njmk',
  // intensli (tensor-times-matrix)
  'abj-bka-kj', 'ajb-kba-jk', 'abjc-cbka-kj', 'ajbc-ckba-jk', 'abjc-kbac-jk', 'abjcd-dkbac-jk', 'adbjc-cbdka-kj',
  'ajbdc-ckbad-jk',
  // ao2mo
  'aqrs-pa-pqrs', 'abrs-qb-aqrs', 'abcs-rc-abrs',
  // ccsd_t
  'abcijk-ijma-mkbc', 'abcijk-ijmb-mkac', 'abcijk-ijmc-mkab', 'abcijk-ikmb-mjac',
  // transC
  'abc-bk-akc',
]

/**
 * Contractions from issue 14 in the same notation: a GEMM after reshaping (`C[a,b,e,f] += A[a,b,c,d] * B[c,d,e,f]`),
 * and the pairwise steps of `ea,fb,gc,hd,abcd->efgh`, each one matrix applied along one dimension.
 */
export const RESHAPED: readonly string[] = ['feba-dcba-fedc', 'dcbe-ae-dcba', 'dcfe-bf-dcbe', 'dgfe-cg-dcfe', 'hgfe-hd-dgfe']

/** Tensor names that no index letter's size (its upper case) can clash with. */
export const TCCG_TENSORS = { c: 'out', a: 'lhs', b: 'rhs' } as const

/**
 * The spec of a TCCG case in polykern's row-major notation, with the memory layout TCCG means: each tensor's letters
 * reversed (its stride-1 index last); `permute` reverses them back instead, which moves every stride-1 dimension
 * elsewhere (the same contraction on transposed operands), and accumulates into the output's old content (`+=`
 * where the other overwrites it, `+=!`). Sizes are the letters in upper case.
 */
export function tccgSpec(tc: string, dtype: 'f32' | 'f64', permute = false): string {
  const [c, a, b] = tc.split('-').map((t) => (permute ? [...t] : [...t].reverse()))
  const decl = (name: string, ix: string[]) => `${name}: ${dtype}[${ix.map((v) => v.toUpperCase()).join(', ')}]`
  const use = (name: string, ix: string[]) => `${name}[${ix.join(', ')}]`
  const { c: tc_, a: ta, b: tb } = TCCG_TENSORS
  return [decl(ta, a), decl(tb, b), decl(tc_, c), `${use(tc_, c)} ${permute ? '+=' : '+=!'} ${use(ta, a)} * ${use(tb, b)}`].join('\n')
}
