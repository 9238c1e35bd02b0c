/** Compiles a source module with the real pipeline and imports its rewritten code, as a bundle would run it. */
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { resolveOptions, type Options } from '../../plugin/options.ts'
import { compileModule, type CompiledModule } from '../../plugin/pipeline.ts'

const RUNTIME = path.resolve(import.meta.dirname, '../../runtime/index.ts')

/** `code` written as `dir/<name>`, compiled, and its rewritten form imported (the runtime from this checkout). */
export async function importCompiled(
  dir: string,
  name: string,
  code: string,
  options: Options,
): Promise<{ compiled: CompiledModule; module: Record<string, unknown> }> {
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, name)
  fs.writeFileSync(file, code)
  const compiled = await compileModule(file, code, resolveOptions({ root: dir, ...options }), undefined, undefined, 'sources')
  if (!compiled) throw new Error(`${name} has no kernels`)
  const out = path.join(dir, name.replace(/\.ts$/, '.rewritten.ts'))
  const runtime = path.relative(dir, RUNTIME).split(path.sep).join('/')
  fs.writeFileSync(out, compiled.code.replace("'polykern/runtime'", JSON.stringify(runtime.startsWith('.') ? runtime : `./${runtime}`)))
  return { compiled, module: (await import(pathToFileURL(out).href)) as Record<string, unknown> }
}
