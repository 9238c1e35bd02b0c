/**
 * How a convolution call is shared between threads (pk_conv_prepare, native/polykern_conv.h), decided on
 * descriptors written here the way the emitter writes an NHWC 1×1 convolution's, with the pool's thread count stubbed:
 * timing-free, so a team that leaves a thread idle fails here rather than only in the bench. The results of these
 * partitions are conv.test.ts's (every spec, im2col included, at 1 and 2 threads against the interpreter).
 */
import { describe, expect, it } from 'vitest'
import { cRunner } from '../support/compile-c.ts'

const run = cRunner()

interface Decision {
  readonly shape: readonly number[]
  readonly im2col: number
  readonly threads: number
  readonly rows: number
  readonly team: number
  readonly splitChannels: number
}

/** pk_conv_prepare on an N × H × W × C → K 1×1 convolution for each shape, forced through im2col or not, at 1 and 2 threads. */
async function decisions(shapes: readonly (readonly number[])[]): Promise<Decision[]> {
  const program = `
#define PK_RUNTIME_EXTERN
#include <stdio.h>
#include "polykern_conv.h"

static int threads = 1;
int pk_threads(void) { return threads; }
int pk_pool_warm(void) { return 1; }
void pk_pool_nudge(void) {}

static pk_conv_desc pointwise(int64_t N, int64_t H, int64_t W, int64_t C, int64_t K, int im2col) {
  const pk_conv_desc d = {
    .nb = 1, .nd = 2, .b_ext = {N}, .b_in = {H * W * C}, .b_out = {H * W * K}, .p_ext = {H, W}, .r_ext = {1, 1},
    .h_ext = {H, W}, .stride = {1, 1}, .dil = {1, 1}, .in_s = {W * C, C}, .out_s = {W * K, K}, .flt_s = {C * K, C * K},
    .C = C, .K = K, .flt_c = K, .flt_k = 1, .in_c = 1, .out_k = 1, .mc = 56, .nc = 96, .kc = 128, .l1 = 12288,
    .l2 = 262144, .im2col = im2col, .im2col_below = 12, .pack_filter_from = 1024, .gemm_kc = 256,
  };
  return d;
}

int main(void) {
  const int64_t shapes[][5] = {${shapes.map((s) => `{${s.join(', ')}}`).join(', ')}};
  const char *sep = "";
  printf("[");
  for (unsigned s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (int im2col = 0; im2col <= 1; im2col++)
      for (threads = 1; threads <= 2; threads++, sep = ",") {
        const int64_t *x = shapes[s];
        const pk_conv_desc d = pointwise(x[0], x[1], x[2], x[3], x[4], im2col);
        pk_conv_call c;
        memset(&c, 0, sizeof c);
        if (!pk_conv_prepare(&d, 6, 64, &c)) return 1;
        printf("%s{\\"shape\\":[%ld,%ld,%ld,%ld,%ld],\\"im2col\\":%d,\\"threads\\":%d,\\"rows\\":%ld,\\"team\\":%d,\\"splitChannels\\":%d}",
               sep, (long)x[0], (long)x[1], (long)x[2], (long)x[3], (long)x[4], im2col, threads, (long)c.rows, c.team,
               c.split_channels);
      }
  printf("]\\n");
  return 0;
}
`
  return JSON.parse(await run('conv_partition', program)) as Decision[]
}

describe('a convolution call shared between threads', () => {
  it('an im2col 1×1 call keeps rows enough for every thread; one thread and the direct path still run one long row', async () => {
    // 56×56 256→64: one panel of 64 output channels (6 × 64 tiles), so the team cannot split channels; collapsed
    // into one row of 3136 positions it ran on one thread of two. 64→256 split its 4 panels instead; 3 images of 7×7
    // collapse into 3 rows, still one each and one more for a team of 2.
    const got = await decisions([[1, 56, 56, 256, 64], [1, 56, 56, 64, 256], [3, 7, 7, 64, 64]])
    // In the program's order: per shape, direct then im2col, each at 1 then 2 threads.
    const at = (shape: number, im2col: number, threads: number) => got[4 * shape + 2 * im2col + threads - 1]
    for (const shape of [0, 1]) {
      expect(at(shape, 1, 2), `shape ${shape}, im2col, 2 threads`).toMatchObject({ rows: 56, team: 2 })
      expect(at(shape, 1, 1), `shape ${shape}, im2col, 1 thread`).toMatchObject({ rows: 1, team: 1 })
      // The direct path splits a row's positions between the threads itself: it keeps the one long row.
      expect(at(shape, 0, 2), `shape ${shape}, direct, 2 threads`).toMatchObject({ rows: 1, team: 2 })
    }
    expect(at(2, 1, 2)).toMatchObject({ rows: 3, team: 2 })
  })
})
