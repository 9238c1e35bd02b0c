// The `polykern-im2col` system's bundle entry (run.mjs bundles it with `convolution: 'im2col'`): the same kernels as
// conv-kernels.ts, with this bundle's own runtime (registry and thread control) so the bench reaches their native
// functions and runs them on the threads it asks for.
export * from './conv-kernels.ts'
export { kernels, setThreads } from 'polykern/runtime'
