/**
 * Every user-facing diagnostic polykern reports: one function per code, so wording lives in one place and each code
 * has exactly one constructor (svelte's messages catalog). Codes carry their phase as a prefix; docs/spec-language.md
 * lists the spec_* ones, and test/spec/errors.test.ts holds one failing sample per code.
 */
import { KernelDiagnostic } from './diagnostics.ts'
import type { Note, Span } from './diagnostics.ts'
import { didYouMean } from './near-miss.ts'

// ---------------------------------------------------------------------------------------------------------------
// spec_*: the `@kernel` spec language (plugin/spec/)

export const SPEC_CODES = [
  'spec_syntax',
  'spec_reserved_word',
  'spec_bad_literal',
  'spec_empty',
  'spec_duplicate_decl',
  'spec_name_conflict',
  'spec_param_missing',
  'spec_param_unknown',
  'spec_param_type',
  'spec_unknown_tensor',
  'spec_unknown_name',
  'spec_unknown_function',
  'spec_arity',
  'spec_rank_mismatch',
  'spec_non_affine',
  'spec_target_is_size',
  'spec_target_index',
  'spec_target_index_unused',
  'spec_reduction_needs_op',
  'spec_init_needs_reduction',
  'spec_unbounded_index',
  'spec_shape_conflict',
  'spec_dtype_mismatch',
  'spec_type_error',
  'spec_self_read',
  'spec_unused_tensor',
] as const
export type SpecCode = (typeof SPEC_CODES)[number]

const spec = (code: SpecCode, message: string, span: Span, notes: readonly Note[], kernel?: string) =>
  new KernelDiagnostic(code, message, span, notes, kernel)

/** The assignment operators, as syntax errors that expected one list them. */
export const ASSIGN_OPS = '`=`, `+=`, `*=`, `max=`, `min=` (append `!` to reset the output first: `+=!`)'

/** A token the grammar does not allow here; `message` says what was expected and what was found. */
export const specSyntax = (span: Span, message: string, notes: readonly Note[] = [], kernel?: string) =>
  spec('spec_syntax', message, span, notes, kernel)

export const specReservedWord = (span: Span, word: string, usedAs: string, kernel?: string) =>
  spec('spec_reserved_word', `'${word}' is a reserved word and cannot be used as ${usedAs}`, span,
    [{ text: 'reserved: let, where, f32, f64, i32 and the built-ins exp log sqrt abs tanh sigmoid max min pow' }],
    kernel)

export const specBadLiteral = (span: Span, text: string, reason: string, kernel?: string) =>
  spec('spec_bad_literal', `Bad number '${text}': ${reason}`, span, [], kernel)

export const specEmpty = (span: Span, kernel?: string) =>
  spec('spec_empty', 'The kernel spec has no statement: nothing would be computed', span,
    [{ text: 'add a statement after the declarations, e.g. `C[i, j] +=! A[i, k] * B[k, j]`' }], kernel)

export const specDuplicateDecl = (span: Span, name: string, first: Span, kernel?: string) =>
  spec('spec_duplicate_decl', `Tensor '${name}' is declared twice`, span,
    [{ text: `first declared here`, span: first }], kernel)

export const specNameConflict = (span: Span, name: string, tensorDecl: Span, kernel?: string) =>
  spec('spec_name_conflict', `'${name}' is used both as a tensor and as a size symbol`, span,
    [{ text: `'${name}' is declared as a tensor here; rename one of them`, span: tensorDecl }], kernel)

export const specParamMissing = (span: Span, name: string, kind: 'tensor' | 'size', tsType: string, kernel?: string) =>
  spec('spec_param_missing',
    kind === 'tensor'
      ? `Tensor '${name}' is not a parameter of the function`
      : `Size symbol '${name}' is not a parameter of the function`,
    span,
    [{
      text: kind === 'tensor'
        ? `add a parameter \`${name}: ${tsType}\`, or declare it as a temporary with \`let ${name}: ...\``
        : `add a parameter \`${name}: number\` (sizes are passed at call time)`,
    }],
    kernel)

/** `scalar`: the dtype and array type of a statement whose value reads the parameter as a bare name. */
export const specParamUnknown = (
  span: Span, name: string, isTemp: boolean, kernel?: string, guess?: string,
  scalar?: { readonly dtype: string; readonly array: string },
) =>
  spec('spec_param_unknown', `Parameter '${name}' is neither a tensor nor a size symbol of the spec`, span,
    [...didYouMean(guess), {
      text: isTemp
        ? `'${name}' is declared with \`let\`, a temporary local to the kernel; drop \`let\` to pass it in`
        : scalar
          ? `a value read alone is a rank-0 tensor: declare \`${name}: ${scalar.dtype}[]\` and pass a ${scalar.array} of one element (a \`number\` parameter is a size, an integer)`
          : `declare it, e.g. \`${name}: f32[N]\`, or use it as a dimension, e.g. \`A: f32[${name}]\``,
    }],
    kernel)

export const specParamType = (span: Span, name: string, expected: string, actual: string, kernel?: string) =>
  spec('spec_param_type', `Parameter '${name}' has type '${actual}' but the spec needs '${expected}'`, span,
    [{ text: `change the annotation to \`${name}: ${expected}\` or the spec's element type` }], kernel)

export const specUnknownTensor = (span: Span, name: string, isSize: boolean, kernel?: string, guess?: string) =>
  spec('spec_unknown_tensor', `Unknown tensor '${name}'`, span,
    [...(isSize ? [] : didYouMean(guess)), {
      text: isSize
        ? `'${name}' is a size symbol, not a tensor; use it without brackets`
        : `declare it, e.g. \`${name}: f32[N]\` (a parameter) or \`let ${name}: f32[N]\` (a temporary)`,
    }],
    kernel)

export const specUnknownName = (span: Span, name: string, kernel?: string, guess?: string) =>
  spec('spec_unknown_name', `Unknown name '${name}': not a tensor, a size symbol or an index of this statement`, span,
    [...didYouMean(guess), { text: 'an index must appear inside `[...]` of a tensor access or in a `where` clause of the same statement' }],
    kernel)

export const specUnknownFunction = (span: Span, name: string, kernel?: string, guess?: string) =>
  spec('spec_unknown_function', `Unknown function '${name}'`, span,
    [...didYouMean(guess), { text: 'built-in functions: exp log sqrt abs tanh sigmoid (one argument), max min pow (two)' }], kernel)

export const specArity = (span: Span, fn: string, expected: number, got: number, kernel?: string) =>
  spec('spec_arity',
    `'${fn}' takes ${expected} argument${expected === 1 ? '' : 's'} but is called with ${got}`, span, [], kernel)

export const specRankMismatch = (span: Span, tensor: string, rank: number, got: number, kernel?: string) =>
  spec('spec_rank_mismatch',
    `Tensor '${tensor}' has rank ${rank} but is accessed with ${got} ind${got === 1 ? 'ex' : 'ices'}`, span,
    [{ text: rank === 0 ? `write '${tensor}' or '${tensor}[]' for a rank-0 tensor` : `write one index per dimension` }],
    kernel)

/** `gather`: the index reads a tensor (`X[ids[i]]`), which belongs in JS around the kernel. */
export const specNonAffine = (span: Span, reason: string, kernel?: string, gather = false) =>
  spec('spec_non_affine', `Not an affine index expression: ${reason}`, span,
    [
      { text: 'indices and `where` sides must be sums of indices and size symbols times integers, e.g. `2*p + r - 1`' },
      ...(gather
        ? [{ text: 'an index read from a tensor is a gather, which a kernel cannot express: gather in JS around the kernel ' +
            '(e.g. copy `X[ids[i], j]` into a `Float32Array` `G` of `G[i, j]` in a loop) and pass the gathered array' }]
        : []),
    ],
    kernel)

export const specTargetIsSize = (span: Span, name: string, kernel?: string) =>
  spec('spec_target_is_size', `Cannot write to '${name}': it is a size symbol, not a tensor`, span,
    [{ text: 'size symbols are read-only values passed at call time' }], kernel)

export const specTargetIndex = (span: Span, tensor: string, reason: string, kernel?: string) =>
  spec('spec_target_index', `Bad index in the output '${tensor}[...]': ${reason}`, span,
    [{ text: `output indices must be distinct plain index names, one per dimension, e.g. '${tensor}[i, j]'` }], kernel)

export const specTargetIndexUnused = (span: Span, index: string, tensor: string, kernel?: string) =>
  spec('spec_target_index_unused',
    `Output index '${index}' of '${tensor}' is not used on the right-hand side or in a where clause`, span,
    [{ text: `if the value really is the same for every '${index}', say so with \`where ${index} >= 0\`` }], kernel)

export const specReductionNeedsOp = (span: Span, indices: readonly string[], kernel?: string) => {
  const list = indices.map((i) => `'${i}'`).join(', ')
  const subject = indices.length === 1 ? `Index ${list} appears` : `Indices ${list} appear`
  return spec('spec_reduction_needs_op',
    `${subject} only on the right-hand side, so the statement reduces over ${indices.length === 1 ? 'it' : 'them'}, ` +
      'but `=` is not a reduction', span,
    [{ text: 'use `+=!` to sum (or `max=!`, `min=!`, `*=!`), or add the index to the output' }], kernel)
}

export const specInitNeedsReduction = (span: Span, kernel?: string) =>
  spec('spec_init_needs_reduction', '`=!` has no identity to reset the output to', span,
    [{ text: '`!` belongs on a reduction (`+=!`, `*=!`, `max=!`, `min=!`); drop it for a plain write' }], kernel)

export const specUnboundedIndex = (span: Span, index: string, kernel?: string) =>
  spec('spec_unbounded_index', `Cannot infer the range of index '${index}'`, span,
    [{
      text: `use '${index}' alone as the index of a tensor dimension, or bound it: ` +
        `\`where ${index} < ${boundHint(index)}\``,
    }],
    kernel)

const boundHint = (index: string) => (index.toUpperCase() === index ? `${index}_MAX` : index.toUpperCase())

/** One place an index gets its range from: dimension `dim` (0-based) of `tensor`, of extent `extent`. */
export interface RangeSource {
  readonly tensor: string
  readonly dim: number
  readonly extent: string
  readonly span: Span
}

export const specShapeConflict = (index: string, first: RangeSource, second: RangeSource, kernel?: string) =>
  spec('spec_shape_conflict',
    `Index '${index}' ranges over ${second.extent} in '${second.tensor}' (dimension ${second.dim + 1}) ` +
      `but over ${first.extent} in '${first.tensor}' (dimension ${first.dim + 1})`,
    second.span,
    [{ text: `'${first.tensor}' dimension ${first.dim + 1} is ${first.extent}`, span: first.span }], kernel)

export const specDtypeMismatch = (
  span: Span,
  tensor: string,
  dtype: string,
  target: string,
  targetDtype: string,
  kernel?: string,
) =>
  spec('spec_dtype_mismatch',
    `Tensor '${tensor}' holds ${dtype} but the statement writes '${target}', which holds ${targetDtype}`, span,
    [{ text: 'a statement computes in its output\'s element type; there are no implicit conversions' }], kernel)

export const specTypeError = (span: Span, message: string, kernel?: string) =>
  spec('spec_type_error', message, span, [], kernel)

export const specSelfRead = (span: Span, tensor: string, kernel?: string) =>
  spec('spec_self_read',
    `The statement writing '${tensor}' also reads it at other indices or while reducing into it: ` +
      'the result would depend on the order of the iterations',
    span,
    [{ text: `read '${tensor}' only at the output's own indices with \`=\`, or write into a \`let\` temporary first` }],
    kernel)

export const specUnusedTensor = (span: Span, name: string, kernel?: string) =>
  spec('spec_unused_tensor', `Tensor '${name}' is declared but never read or written`, span,
    [{ text: 'remove the declaration and the parameter, or use it in a statement' }], kernel)

// ---------------------------------------------------------------------------------------------------------------
// find_*: locating `@kernel` functions in a module (plugin/find/)

export const FIND_CODES = ['find_unattached', 'find_expression_body', 'find_param_form', 'find_function_form'] as const
export type FindCode = (typeof FIND_CODES)[number]

export const findUnattached = (
  span: Span,
  hint = 'put the comment right before a top-level `function f(...) { ... }` or `const f = (...) => { ... }`',
) =>
  new KernelDiagnostic('find_unattached', 'This @kernel comment is not attached to a function polykern can compile', span,
    [{ text: hint }])

export const findExpressionBody = (span: Span, kernel: string) =>
  new KernelDiagnostic('find_expression_body', 'Give the kernel function a block body: polykern replaces what is between its braces',
    span, [{ text: 'write `(...) => { ... }` instead of `(...) => expression`' }], kernel)

export const findParamForm = (span: Span, param: string, kernel: string) =>
  new KernelDiagnostic('find_param_form', `Kernel parameter '${param}' must be a plain name, optionally typed`, span,
    [{ text: 'destructured, rest (`...x`), optional (`x?`), default (`x = 1`) and `this` parameters cannot be bound to a spec' }],
    kernel)

export const findFunctionForm = (span: Span, kernel: string) =>
  new KernelDiagnostic('find_function_form', 'A kernel function cannot be async or a generator: its call runs to completion',
    span, [{ text: 'remove `async` / `*`; the kernel returns its output array synchronously' }], kernel)

// ---------------------------------------------------------------------------------------------------------------
// native_*: building the addon (plugin/addon/); warnings unless `strict: true`

/** A compile error in one of the C files polykern generated or its headers (addon/build.ts names them so): its fault. */
const GENERATED_C_ERROR = /^polykern\w*\.[ch]:\d+:\d+: error:/m

export const nativeBuildFailed = (span: Span, moduleId: string, compilerOutput: string) =>
  new KernelDiagnostic('native_build_failed', `Could not build the native addon for ${moduleId}; its kernels will run as JS loops`,
    span, [{ text: compilerOutput }, {
      text: GENERATED_C_ERROR.test(compilerOutput)
        ? 'the C polykern generated for these kernels does not compile: a bug in polykern; please report it with the kernel spec'
        : 'install a C compiler, make and python3 (node-gyp needs them), or set `native: false` to silence this',
    }])

// ---------------------------------------------------------------------------------------------------------------
// perf_*: statements polykern runs slower than it could (plugin/passes/slow-statements.ts); always warnings


/** The annotation line that silences `perf_plain_loops` for one kernel (find/annotations.ts reads it). */
export const ALLOW_LOOPS = '@allow-loops'
/** The annotation line that silences `lint_split_sum` for one kernel. */
export const ALLOW_SPLIT_SUM = '@allow-split-sum'
/** The annotation line that silences `lint_quadratic_scan` for one kernel. */
export const ALLOW_QUADRATIC_SCAN = '@allow-quadratic-scan'
/** Every annotation directive: a line of its own in the @kernel comment, which the spec lexer skips. */
export const DIRECTIVES = [ALLOW_LOOPS, ALLOW_SPLIT_SUM, ALLOW_QUADRATIC_SCAN] as const

/**
 * The rewrite that would let a microkernel run the statement, per matcher reason (match-contraction.ts and
 * match-convolution.ts wording): the first row whose pattern the reason matches; others get LOOP_HINT_GENERAL.
 */
export const LOOP_HINTS: readonly { readonly reason: RegExp; readonly hint: string }[] = [
  { reason: /multiplies \d+ factors/,
    hint: 'multiply the extra factors into one operand first, through a `let` temporary (e.g. `T[i, k] = A[i, k] * w[k]`), so the sum multiplies two tensor elements' },
  { reason: /is not a product|is not a tensor element|not a product of two tensor elements/,
    hint: 'make the sum a plain product of two tensor elements (constants, sizes and one factor or divisor over one operand\'s ' +
      'indices may ride along): compute other arithmetic in separate statements before or after it (e.g. `E[s, t] = exp(S[s, t])`, ' +
      'then `O[s, e] +=! E[s, t] * V[t, e]`; expand `(x - c)²` into `x² - 2·x·c + c²`)' },
  { reason: /\(a diagonal\)|appears twice in/,
    hint: 'copy the diagonal into a `let` temporary first (e.g. `D[i, k] = A[i, i, k]`), then multiply the temporary' },
  { reason: /the domain has (constraints|a constraint that is not padding)/,
    hint: 'restrict only C (a triangle or band over its two indices, e.g. `where j <= i`, runs as a masked GEMM), or drop the `where` ' +
      'clause: zero the excluded elements in a `let` copy of an operand first, then the full product runs as a blocked GEMM, ' +
      'which usually beats the restricted loops despite the extra work' },
  { reason: /read with zero padding|with offset|with coefficient|is the constant/,
    hint: 'copy the shifted, strided, padded or sliced operand into a `let` temporary first, then multiply the temporary over plain indices' },
  { reason: /indices play [mnk];/,
    hint: 'reshape the indices that play one role into one (row-major arrays: `A[a, b, k]` with a, b adjacent is `A[ab, k]` of extent A·B)' },
  { reason: /appears only in/,
    hint: 'sum an index that only one tensor carries out of it first, in its own statement, so every index plays m, n, k or batch' },
  { reason: /the output's last dimension is/,
    hint: 'order the output so its last dimension is indexed by an index of one factor only (an m or n), batch indices before it' },
  { reason: /op is (max|min|\*)=/,
    hint: 'only sums (`+=`) run on the GEMM microkernels; a max- or min-plus product has none yet' },
  { reason: /element type (is )?i32/,
    hint: 'compute in f32 or f64: the microkernels are floating point' },
  { reason: /depthwise/,
    hint: 'depthwise convolutions have no microkernel yet; if the filter is small, give its extent as a literal (e.g. `F: f32[3, 3, C]`)' },
  { reason: /neither channels last|channels first with stride/,
    hint: 'store input, filter and output channels last (NHWC: channels the last dimension of each)' },
]

export const LOOP_HINT_GENERAL =
  'write it as `C[m, n] +=! A[m, k] * B[k, n]` over plain indices (any names and dimension order, batch indices in all three allowed), ' +
  'with other arithmetic in separate statements through `let` temporaries'

// ---------------------------------------------------------------------------------------------------------------
// lint_*: specs that compile but most likely do not say what was meant (plugin/analysis/); always warnings

/**
 * A sum over two reduced indices each held by one factor only (passes/split-sums.ts): `statement` as written,
 * `meant` the index the second most likely meant.
 */
export const lintSplitSum = (
  span: Span | undefined, kernel: string, statement: string, first: { index: string; tensor: string },
  second: { index: string; tensor: string }, meant?: string,
) =>
  new KernelDiagnostic('lint_split_sum',
    `\`${statement}\` sums '${first.index}' over ${first.tensor} alone and '${second.index}' over ${second.tensor} alone: ` +
      `it computes (Σ${first.index} ${first.tensor}) · (Σ${second.index} ${second.tensor}), a product of two separate sums`,
    span,
    [
      ...(meant === undefined ? [] : [{ text: `did you mean '${meant}' for '${second.index}'?` }]),
      { text: `if the separate sums are meant, write each in a statement of its own, or silence this with a line \`${ALLOW_SPLIT_SUM} <why>\`` },
    ],
    kernel)

/** A reduction summing a prefix per output element (analysis/prefix-scans.ts): `statement` as written. */
export const lintQuadraticScan = (span: Span | undefined, kernel: string, statement: string, output: string, reduced: string) =>
  new KernelDiagnostic('lint_quadratic_scan',
    `\`${statement}\` reduces over ${reduced} again for every ${output}, over a range ${output} bounds: the work grows ` +
      `with the square of ${output}'s extent where a running reduction (a scan) is linear`,
    span,
    [
      { text: `a kernel has no scan: keep it in JS, a loop carrying the sum from one ${output} to the next over ${reduced}` },
      { text: `silence this with a line \`${ALLOW_QUADRATIC_SCAN} <why>\` if the quadratic form is meant` },
    ],
    kernel)

export const loopHint = (reason: string): string =>
  LOOP_HINTS.find((h) => h.reason.test(reason))?.hint ?? LOOP_HINT_GENERAL

/** `statement` is its text as written; `large` its large indices (passes/slow-statements.ts). */
export const perfPlainLoops = (
  span: Span | undefined, kernel: string, block: string, statement: string, large: readonly string[], reason: string,
) =>
  new KernelDiagnostic('perf_plain_loops',
    `Statement ${block} \`${statement}\` does cubic work (over ${large.join(', ')}) but runs as plain loops: ${reason}`,
    span,
    [
      { text: `to make it fast: ${loopHint(reason)}` },
      { text: `silence it with a line \`${ALLOW_LOOPS} <why>\` in the kernel's @kernel comment` },
    ],
    kernel)
