/** What the checker knows about a spec's names once its declarations are read; shared by the statement checks. */
import type { Span } from '../diagnostics.ts'
import type { Affine, DType } from '../ir/nodes.ts'

export interface DeclaredTensor {
  readonly name: string
  readonly dtype: DType
  readonly shape: readonly Affine[]
  /** Declared with `let`: a temporary, not a parameter. */
  readonly local: boolean
  readonly span: Span
}

export interface SpecScope {
  /** The annotated function's name, for every diagnostic's `kernel`. */
  readonly kernel: string
  readonly tensors: ReadonlyMap<string, DeclaredTensor>
  /** Size symbols in order of first declaration (a Set keeps insertion order). */
  readonly sizes: ReadonlySet<string>
}
