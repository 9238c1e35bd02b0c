/** Where make, as node-gyp configures it, leaves a source's outputs in an addon's build directory. */
import path from 'node:path'

const release = (work: string): string => path.join(work, 'build', 'Release')

/** The object file of source `name`. */
export const compiledObject = (work: string, name: string): string =>
  path.join(release(work), 'obj.target', 'polykern', name.replace(/\.c$/, '.o'))

/** make's dependency file for source `name`: gcc's list of the files its compile read. */
export const dependencyFile = (work: string, name: string): string =>
  `${path.join(release(work), '.deps', path.relative(path.join(work, 'build'), compiledObject(work, name)))}.d`
