// A bundle entry exposing a kernel and the runtime's info and thread controls: bundled twice, each copy inlines its
// own runtime.
export { matmul } from '../workers/kernels.ts'
export { polykernInfo, setThreads } from 'polykern/runtime'
