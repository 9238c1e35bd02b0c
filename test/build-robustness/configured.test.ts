/**
 * node-gyp's configuration kept between builds (addon/configured.ts): a build of other sources with the same project
 * files reuses it, and its addon carries its own identity (the placeholders were filled in); a damaged entry is
 * dropped and gyp runs; an entry make refuses is dropped and the build configures again; a reused one is up to date
 * for make. The addons are small C files, so each build costs node-gyp and a link.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeEach, expect, it, vi } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import { configureBuild } from '../../plugin/addon/configured.ts'
import { gypToolchain, nodeGypScript, nodePrefix, pythonArgument, run } from '../../plugin/addon/toolchain.ts'

const root = mkdtempSync(path.join(os.tmpdir(), 'polykern-configured-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** A Node-API module exporting `name`'s number; its text differs with `name`, so each is another addon. */
const source = (name: string, value: number) => [{
  name: 'polykern.c',
  text: [
    '#include <node_api.h>',
    `static napi_value ${name}(napi_env env, napi_value exports) {`,
    '  napi_value v, meta, id;',
    `  napi_create_int32(env, ${value}, &v);`,
    `  napi_set_named_property(env, exports, "${name}", v);`,
    '  napi_create_object(env, &meta);',
    '  napi_create_string_utf8(env, POLYKERN_IDENTITY, NAPI_AUTO_LENGTH, &id);',
    '  napi_set_named_property(env, meta, "identity", id);',
    '  napi_set_named_property(env, exports, "__polykern", meta);',
    '  return exports;',
    '}',
    `NAPI_MODULE(NODE_GYP_MODULE_NAME, ${name})`,
    '',
  ].join('\n'),
}]

let cacheDir: string
beforeEach(({ task }) => {
  // The suite points every build at one objects folder (vitest.config.ts), where configurations are kept too; each
  // test here watches its own.
  vi.stubEnv('POLYKERN_OBJECT_CACHE', '')
  cacheDir = path.join(root, task.id)
  mkdirSync(cacheDir, { recursive: true })
})

async function build(name: string, value: number) {
  const log: string[] = []
  const built = await buildAddon({ sources: source(name, value), cacheDir, log: (line) => log.push(line) })
  if (!built.ok) throw new Error(built.error)
  const addon = createRequire(import.meta.url)(built.path) as Record<string, number> & { __polykern: { identity: string } }
  expect(addon[name]).toBe(value)
  expect(addon.__polykern.identity).toBe(built.hash)
  return { log: log.join('\n'), hash: built.hash }
}

const entries = () => readdirSync(path.join(cacheDir, 'objects')).filter((f) => f.endsWith('.configured.json'))
const reused = /node-gyp configuration reused/

it('a second addon reuses the first build\'s configuration and carries its own identity', async () => {
  const first = await build('first', 1)
  expect(first.log).not.toMatch(reused)
  expect(entries()).toHaveLength(1)
  const entry = readFileSync(path.join(cacheDir, 'objects', entries()[0]), 'utf8')
  // Neither the build directory nor the identity of the build that wrote it is in the entry.
  expect(entry).not.toContain(first.hash)
  expect(entry).not.toContain(cacheDir)
  const second = await build('second', 2)
  expect(second.log).toMatch(reused)
  expect(second.hash).not.toBe(first.hash)
  expect(entries()).toHaveLength(1)
}, 120_000)

it('a damaged entry is dropped and gyp configures; the entry written then is whole', async () => {
  await build('first', 1)
  const [name] = entries()
  const file = path.join(cacheDir, 'objects', name)
  writeFileSync(file, readFileSync(file, 'utf8').replace('polykern', 'polykerm'))
  const second = await build('second', 2)
  expect(second.log).not.toMatch(reused)
  expect((await build('third', 3)).log).toMatch(reused)
}, 120_000)

it('an entry whose checksum holds but whose Makefile make refuses is dropped, and the build configures again', async () => {
  await build('first', 1)
  const [name] = entries()
  const file = path.join(cacheDir, 'objects', name)
  const entry = JSON.parse(readFileSync(file, 'utf8')) as { files: Record<string, string>; sha256: string }
  entry.files['polykern.target.mk'] = 'this is not a makefile\n'
  entry.sha256 = createHash('sha256').update(JSON.stringify(entry.files)).digest('hex')
  writeFileSync(file, JSON.stringify(entry))
  const second = await build('second', 2)
  expect(second.log).toMatch(reused)
  expect(second.log).toContain('discarding the node-gyp configuration make refused')
  expect((await build('third', 3)).log).toMatch(reused)
}, 120_000)

it('another list of sources is configured anew, and a compile error with a reused configuration is not retried', async () => {
  await build('first', 1)
  const log: string[] = []
  const extra = { name: 'polykern_extra.c', text: 'int pk_extra(void) { return 1; }\n' }
  const other = await buildAddon({ sources: [...source('other', 4), extra], cacheDir, log: (line) => log.push(line) })
  expect(other.ok, other.ok ? '' : other.error).toBe(true)
  expect(log.join('\n')).not.toMatch(reused)
  expect(entries()).toHaveLength(2)

  log.length = 0
  const broken = await buildAddon({ sources: [{ name: 'polykern.c', text: 'int broken(void) { return undeclared; }\n' }], cacheDir, log: (line) => log.push(line) })
  expect(broken.ok).toBe(false)
  expect(broken.ok ? '' : broken.error).toContain('undeclared')
  expect(log.join('\n')).toMatch(reused)
  expect(log.join('\n')).not.toContain('discarding')
  expect(entries()).toHaveLength(2)
}, 120_000)

it('a reused configuration is up to date for make (gyp does not run again) and names its own directory and identity', async () => {
  const gypi = (identity: string) => `{ 'sources': ['polykern.c'], 'cflags_c': [], 'defines': ['POLYKERN_IDENTITY="${identity}"'], }\n`
  const setUp = async (name: string, identity: string) => {
    const work = path.join(cacheDir, name)
    mkdirSync(work, { recursive: true })
    writeFileSync(path.join(work, 'binding.gyp'), readFileSync(path.join(import.meta.dirname, '../../binding.gyp')))
    writeFileSync(path.join(work, 'kernels.gypi'), gypi(identity))
    const python = await pythonArgument()
    const inputs = { bindingGyp: readFileSync(path.join(work, 'binding.gyp'), 'utf8'), gypi: gypi(identity), identity, work, toolchain: await gypToolchain(python) }
    const configure = () => run(process.execPath, [nodeGypScript(), 'configure', `--nodedir=${nodePrefix()}`, ...python, '--directory', work, '--loglevel=error'], { cwd: work })
    return { work, configured: await configureBuild(inputs, path.join(cacheDir, 'objects'), configure) }
  }
  const first = await setUp('first', 'a'.repeat(64))
  expect(first.configured).toMatchObject({ reused: false, result: { code: 0 } })
  const second = await setUp('second', 'b'.repeat(64))
  expect(second.configured).toMatchObject({ reused: true, result: { code: 0 } })
  expect(spawnSync('make', ['-q', '-C', 'build', 'Makefile'], { cwd: second.work }).status, 'make would run gyp again').toBe(0)
  const written = readdirSync(path.join(second.work, 'build')).map((f) => readFileSync(path.join(second.work, 'build', f), 'utf8')).join('\n')
  expect(written).toContain(second.work)
  expect(written).toContain('b'.repeat(64))
  expect(written).not.toContain(first.work)
  expect(written).not.toContain('a'.repeat(64))
}, 120_000)
