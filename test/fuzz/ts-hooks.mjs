// Module hooks that let `node` run the repository's TypeScript directly (Node 20 has no type stripping): each .ts
// file is transpiled by esbuild where it lies, so `import.meta.url` and relative imports stay what they are in the
// sources. Registered by ts-register.mjs: `node --import ./test/fuzz/ts-register.mjs file.ts`.
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { transform } from 'esbuild'

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context)
  const file = fileURLToPath(url)
  const { code } = await transform(await readFile(file, 'utf8'), { loader: 'ts', format: 'esm', target: 'node20', sourcefile: file, sourcemap: 'inline' })
  return { format: 'module', source: code, shortCircuit: true }
}
