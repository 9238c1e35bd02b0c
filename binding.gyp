# polykern's addon template: copied beside each generated translation unit and built by node-gyp at bundle time.
# The sources and any target-specific flags come from the generated kernels.gypi (never edited by hand).
# package.json sets "gypfile": false, so installing polykern never tries to build this file.
{
  'targets': [
    {
      'target_name': 'polykern',
      'includes': ['kernels.gypi'],
      # _GNU_SOURCE: sched_getaffinity, for the CPUs the process may use (polykern_pool.h).
      'defines': ['NAPI_VERSION=8', '_GNU_SOURCE'],
      'include_dirs': ['.'],
      # -fwrapv: i32 arithmetic wraps (the IR's semantics); C11 for restrict and compound literals; -pipe: the
      # assembler reads the compiler's output from a pipe, not a temp file (0.4 s less per large per-ISA file here);
      # -ffp-contract=off: every float operation rounds once, as in the JS fallback (no a*b+c fused into an FMA,
      # which GNU C modes and clang do by default); the GEMM microkernels' FMAs are intrinsics, unaffected.
      'cflags': ['-O3', '-fwrapv', '-std=c11', '-ffp-contract=off', '-pipe'],
      # Never unmapped: Node dlcloses an addon when the worker thread that loaded it ends, but the addon's pool
      # threads and the thread-exit destructors of its per-thread buffers outlive that environment.
      'ldflags': ['-Wl,-z,nodelete'],
    },
  ],
}
