/**
 * IR invariants, checked after every pass (tinygrad's spec, Halide's "passes repair what they break"):
 * tensors exist and are indexed with their rank, every affine variable is in scope, loop and block indices are
 * unique along a path, expression types agree, inputs are never written, and lowered IR holds no blocks.
 * A contraction's roles must describe a GEMM over plain indices (see ContractionRoles) and its schedules be usable.
 * A vector loop must keep the contract of its mode (vectorLoopProblem).
 */
import { internalAssert } from '../diagnostics.ts'
import { coeffOf, equal } from './affine.ts'
import type { Access, Affine, Bound, Contraction, Expr, Kernel, Loop, Stmt, Store, Tensor } from './nodes.ts'
import { choiceNames } from './names.ts'
import { boundVars, loadsOf, perfectNest, readsVar, slicedOf, walkExpr } from './walk.ts'
import { convolutionProblem } from './verify-convolution.ts'
import { printExpr } from './print.ts'

export function verifyKernel(k: Kernel, pass: string, opts: { lowered?: boolean } = {}): Kernel {
  const tensors = new Map(k.tensors.map((t) => [t.name, t]))
  const check: (cond: unknown, msg: string) => asserts cond = (cond, msg) => internalAssert(cond, pass, `${k.name}: ${msg}`)
  const sizes = new Set(k.sizes)
  for (const t of k.tensors) for (const d of t.shape) checkAffine(d, sizes, `shape of ${t.name}`)

  function checkAffine(a: Affine, scope: ReadonlySet<string>, where: string) {
    for (const t of a.terms) {
      check(scope.has(t.v), `'${t.v}' is not in scope in ${where}`)
      check(Number.isInteger(t.coeff) && t.coeff !== 0, `bad coefficient in ${where}`)
    }
    check(Number.isInteger(a.constant), `non-integer constant in ${where}`)
  }

  function checkAccess(a: Access, scope: ReadonlySet<string>): Tensor {
    const t = tensors.get(a.tensor)
    check(t, `unknown tensor ${a.tensor}`)
    check(a.index.length === t.shape.length, `${a.tensor} indexed with ${a.index.length} indices, rank ${t.shape.length}`)
    for (const ix of a.index) checkAffine(ix, scope, `an index of ${a.tensor}`)
    return t
  }

  function checkBound(b: Bound, scope: ReadonlySet<string>) {
    if (b.kind === 'affine') checkAffine(b.a, scope, 'a loop bound')
    else if (b.kind === 'max' || b.kind === 'min') b.args.forEach((x) => checkBound(x, scope))
    else if (b.kind === 'ceildiv' || b.kind === 'floordiv') {
      check(Number.isInteger(b.by) && b.by > 0, 'division bound by a non-positive number')
      checkBound(b.arg, scope)
    }
  }

  function checkExpr(e: Expr, scope: ReadonlySet<string>): void {
    switch (e.kind) {
      case 'const':
        check(e.type !== 'i32' || Number.isInteger(e.value), 'non-integer i32 constant')
        return
      case 'var':
        check(scope.has(e.name), `'${e.name}' read outside its scope`)
        return
      case 'load':
        check(checkAccess(e.access, scope).dtype === e.type, `load of ${e.access.tensor} has the wrong type`)
        return
      case 'unary':
        checkExpr(e.arg, scope)
        check(e.op === 'not' ? e.arg.type === 'bool' && e.type === 'bool' : e.arg.type === e.type, 'unary type mismatch')
        return
      case 'call':
        checkExpr(e.arg, scope)
        check(e.arg.type === e.type, `${e.fn} argument type mismatch`)
        return
      case 'select':
        checkExpr(e.cond, scope)
        checkExpr(e.a, scope)
        checkExpr(e.b, scope)
        check(e.cond.type === 'bool' && e.a.type === e.type && e.b.type === e.type, 'select type mismatch')
        return
      case 'binary': {
        checkExpr(e.a, scope)
        checkExpr(e.b, scope)
        check(e.a.type === e.b.type, `operands of ${e.op} have different types`)
        const logical = e.op === 'and' || e.op === 'or'
        const compare = ['lt', 'le', 'gt', 'ge', 'eq', 'ne'].includes(e.op)
        if (logical) check(e.a.type === 'bool' && e.type === 'bool', `${e.op} needs booleans`)
        else if (compare) check(e.type === 'bool' && e.a.type !== 'bool', `${e.op} compares numbers`)
        else check(e.type === e.a.type && e.type !== 'bool', `${e.op} type mismatch`)
      }
    }
  }

  // A fill, contraction or convolution is a node of its own: the emitters decide per node whether a fill is needed
  // (a GEMM that overwrites makes it redundant), so one node at two places would carry one place's decision to the
  // other. (Pieces of a split nest may share their inner loops and stores: each piece writes its own elements.)
  const placed = new Set<Stmt>()
  function checkStmts(stmts: readonly Stmt[], scope: ReadonlySet<string>): void {
    for (const s of stmts) {
      if (s.kind === 'fill' || s.kind === 'contraction' || s.kind === 'convolution') {
        check(!placed.has(s), `a ${s.kind} statement appears at two places`)
        placed.add(s)
      }
      switch (s.kind) {
        case 'fill': {
          const t = tensors.get(s.tensor)
          check(t && t.role !== 'in', `fill of ${s.tensor}, which is not writable`)
          checkExpr(s.value, scope)
          check(s.value.type === t.dtype, `fill of ${s.tensor} with the wrong type`)
          break
        }
        case 'store': {
          const t = checkAccess(s.access, scope)
          check(t.role !== 'in', `store to the input ${t.name}`)
          checkExpr(s.value, scope)
          check(s.value.type === t.dtype, `store to ${t.name} of a ${s.value.type} value`)
          break
        }
        case 'if':
          s.conds.forEach((c) => checkAffine(c.expr, scope, 'an if condition'))
          checkStmts(s.body, scope)
          break
        case 'loop':
          check(!scope.has(s.v), `loop variable ${s.v} shadows another name`)
          if (s.mode === 'vector') check(vectorLoopProblem(s) === undefined, `vector loop ${s.v}: ${vectorLoopProblem(s)}`)
          checkBound(s.lo, scope)
          checkBound(s.hi, scope)
          checkStmts(s.body, new Set([...scope, s.v]))
          break
        case 'block': {
          check(!opts.lowered, `block ${s.id} left in lowered IR`)
          const inner = new Set(scope)
          for (const ix of s.indices) {
            check(!inner.has(ix.name), `index ${ix.name} of ${s.id} shadows another name`)
            checkAffine(ix.extent, scope, `the extent of ${ix.name}`)
            inner.add(ix.name)
          }
          s.constraints.forEach((c) => checkAffine(c.expr, inner, `a constraint of ${s.id}`))
          checkStmts(s.body, inner)
          break
        }
        case 'contraction': {
          const e = s.epilogue ?? 0
          check(Number.isInteger(e) && e >= 0 && e < s.body.length, `contraction ${s.id}: an epilogue of ${e} statements in a body of ${s.body.length}`)
          checkContraction(s, scope)
          if (s.sliced !== undefined) {
            const form = s.sliced.roles
            check(form.layout === 'flattened', `contraction ${s.id}: its sliced form is ${form.layout}`)
            check([form.c, form.a, form.b].map((x) => x.tensor).join() === [s.roles.c, s.roles.a, s.roles.b].map((x) => x.tensor).join(),
              `contraction ${s.id}: its sliced form multiplies other tensors`)
            checkContraction(slicedOf(s), scope)
          }
          checkStmts(s.body, scope)
          break
        }
        case 'convolution':
          check(convolutionProblem(s) === undefined, `convolution ${s.id}: ${convolutionProblem(s)}`)
          checkStmts(s.body, scope)
      }
    }
  }

  function checkContraction(s: Contraction, scope: ReadonlySet<string>): void {
    const r = s.roles
    const what = `contraction ${s.id}`
    check(r.m.length > 0 && r.n.length > 0 && r.k.length > 0, `${what} has a role without an index`)
    const [m, n, k] = [r.m, r.n, r.k].map((ixs) => ixs.map((ix) => ix.name))
    const roles = [...r.m, ...r.n, ...r.k, ...r.batch]
    const names = new Set(roles.map((ix) => ix.name))
    check(names.size === roles.length, `${what} gives one index two roles`)
    roles.forEach((ix) => checkAffine(ix.extent, scope, `the extent of ${ix.name}`))
    const batch = r.batch.map((ix) => ix.name)
    const plainIndex = (ix: Affine) =>
      ix.constant === 0 && ix.terms.length === 1 && ix.terms[0].coeff === 1 ? ix.terms[0].v : ''
    const expect = (a: Access, want: readonly string[]) => {
      check(checkAccess(a, names).dtype === r.dtype, `${what}: ${a.tensor} is not ${r.dtype}`)
      const plain = a.index.map(plainIndex)
      const same = plain.length === want.length && want.every((v) => plain.includes(v))
      check(same, `${what}: ${a.tensor} is not indexed by exactly [${want.join(', ')}]`)
    }
    // A does not move along a batch index it lacks (a sliced form's); B and C hold every one.
    const inA = batch.filter((v) => r.a.index.some((ix) => plainIndex(ix) === v))
    expect(r.c, [...m, ...n, ...batch])
    expect(r.a, [...m, ...k, ...inA])
    expect(r.b, [...k, ...n, ...batch])
    // Flattened, each role is one run of adjacent dimensions in its order (one stride per tensor, see ContractionRoles).
    const adjacent = (a: Access, role: readonly string[]) => {
      const at = a.index.map(plainIndex).indexOf(role[0])
      return role.every((v, i) => plainIndex(a.index[at + i]) === v)
    }
    for (const [name, role, holders] of [['m', m, [r.c, r.a]], ['n', n, [r.c, r.b]], ['k', k, [r.a, r.b]]] as const) {
      for (const a of holders) {
        check(r.layout === 'gathered' || adjacent(a, role), `${what}: ${name} is not adjacent in ${a.tensor}, in order`)
      }
    }
    check(plainIndex(r.c.index[r.c.index.length - 1]) === n[n.length - 1], `${what}: n is not the output's last dimension`)
    if (r.alpha !== undefined) {
      // Evaluated once per call, outside the block: no tensor element, no index of the block.
      checkExpr(r.alpha, scope)
      check(r.alpha.type === r.dtype && loadsOf(r.alpha).length === 0, `${what}: its factor ${printExpr(r.alpha)} is not a ${r.dtype} of sizes`)
      check(r.alpha.kind !== 'const' || Number.isFinite(r.alpha.value), `${what}: constant factor ${printExpr(r.alpha)}`)
    }
    for (const [factor, side] of [[r.scaleA, [...m, ...k]], [r.scaleB, [...k, ...n]]] as const) {
      if (factor === undefined) continue
      const scale = factor.by
      check(r.layout === 'gathered', `${what}: a tensor factor needs the gathered layout`)
      check(checkAccess(scale, names).dtype === r.dtype, `${what}: ${scale.tensor} is not ${r.dtype}`)
      const plain = scale.index.map(plainIndex)
      check(plain.every((v) => side.includes(v)), `${what}: ${scale.tensor} is not indexed by its operand's indices`)
    }
    for (const c of r.domain ?? []) {
      const off = c.expr.terms.find((t) => names.has(t.v) && t.v !== m[0] && t.v !== n[0])
      check(off === undefined && m.length === 1 && n.length === 1, `${what}: its domain is not a triangle of C`)
      checkAffine(c.expr, new Set([...scope, m[0], n[0]]), 'a domain constraint')
    }
    for (const x of s.schedules) {
      const sizes = [x.mc, x.nc, x.kc]
      check(sizes.every((n) => Number.isInteger(n) && n > 0), `${what}: ${x.isa} block sizes ${sizes}`)
      check([...x.order].sort().join('') === 'kmn', `${what}: ${x.isa} order ${x.order.join('')}`)
    }
    check(new Set(s.schedules.map((x) => x.isa)).size === s.schedules.length, `${what}: two schedules for one ISA`)
  }

  // A choice and its flags read like sizes; its candidates' temporaries must be temporaries.
  const defined = choiceNames(k)
  check(new Set(defined).size === defined.length, `a size choice's name is defined twice`)
  for (const name of defined) check(!sizes.has(name) && !tensors.has(name), `size choice ${name} shadows another name`)
  for (const c of k.choices ?? []) {
    check(c.costs.length === c.temps.length && c.costs.length > 1, `choice ${c.name} has ${c.costs.length} costs`)
    for (const t of c.temps.flat()) check(tensors.get(t)?.role === 'temp', `choice ${c.name}: ${t} is not a temporary`)
    for (const f of c.shared ?? []) {
      const valid = f.candidates.length > 1 && f.candidates.every((n) => Number.isInteger(n) && n >= 0 && n < c.costs.length)
      check(valid, `choice ${c.name}: flag ${f.name} names candidates ${f.candidates.join(', ')}`)
    }
  }
  checkStmts(k.body, new Set([...sizes, ...defined]))
  return k
}

/** Why `loop` cannot run as SIMD lanes (the `vector` mode's contract in nodes.ts), or undefined when it can. */
export function vectorLoopProblem(loop: Loop): string | undefined {
  const nest = perfectNest(loop)
  const stores = nest?.stores ?? loop.body.filter((s): s is Store => s.kind === 'store')
  if (nest === undefined && stores.length !== loop.body.length) return 'its body holds more than stores'
  const exprs = stores.map((s) => s.value)
  if (exprs.some((e) => readsVar(e, loop.v))) return `it reads ${loop.v} as a value`
  const loads = exprs.flatMap(loadsOf)
  const stride = (a: Access): 'free' | 'unit' | 'other' => {
    const dims = a.index.map((ix) => coeffOf(ix, loop.v))
    if (dims.every((c) => c === 0)) return 'free'
    return dims.slice(0, -1).every((c) => c === 0) && dims[dims.length - 1] === 1 ? 'unit' : 'other'
  }
  for (const l of loads) {
    const kind = stride(l.access)
    if (kind === 'other') return `${l.access.tensor} is read at a stride other than 1`
    if (kind === 'unit' && l.zeroOutside) return `${l.access.tensor} is read past its edge`
  }
  if (nest !== undefined) return nestProblem(loop, nest.loops, stores, loads.map((l) => l.access.tensor), stride)
  for (const s of stores) {
    const kind = stride(s.access)
    const tensor = s.access.tensor
    const writes = stores.filter((t) => t.access.tensor === tensor)
    const reads = loads.filter((l) => l.access.tensor === tensor)
    if (kind === 'other') return `${tensor} is written at a stride other than 1`
    if (kind === 'free' && s.op === '=') return `every iteration assigns the same element of ${tensor}`
    if (kind === 'free' && reads.length > 0) return `${tensor} is read while it is reduced`
    if (kind === 'free' && writes.some((t) => t.op !== s.op)) return `${tensor} is reduced with two operations`
    if (!writes.every((t) => sameAccess(t.access, s.access))) return `${tensor} is written at two different places`
    if (!reads.every((l) => sameAccess(l.access, s.access))) return `${tensor} is read at another element than it is written`
  }
  return undefined
}

/**
 * A vector loop around a nest of loops: every store reduces into an element that moves with the vector loop at unit
 * stride and with none of the nest's loops (its lanes' sums stay in registers across the nest), read nowhere else;
 * the nest's bounds do not depend on the vector loop.
 */
function nestProblem(
  loop: Loop, loops: readonly Loop[], stores: readonly Store[], read: readonly string[], stride: (a: Access) => 'free' | 'unit' | 'other',
): string | undefined {
  if (loops.some((l) => l.mode !== 'serial')) return 'a loop inside it is not serial'
  if (loops.some((l) => [...boundVars(l.lo), ...boundVars(l.hi)].includes(loop.v))) return `a loop inside it depends on ${loop.v}`
  for (const s of stores) {
    const tensor = s.access.tensor
    if (s.op === '=') return `${tensor} is assigned inside a loop nest`
    if (stride(s.access) !== 'unit') return `${tensor} is not written at unit stride`
    if (loops.some((l) => s.access.index.some((ix) => coeffOf(ix, l.v) !== 0))) return `${tensor}'s element moves inside the nest`
    if (read.includes(tensor)) return `${tensor} is read while it is reduced`
    if (!stores.every((t) => t.access.tensor !== tensor || (sameAccess(t.access, s.access) && t.op === s.op))) {
      return `${tensor} is written at two places or with two operations`
    }
  }
  return undefined
}

const sameAccess = (a: Access, b: Access): boolean => a.index.every((ix, d) => equal(ix, b.index[d]))
