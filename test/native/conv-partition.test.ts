/**
 * How a convolution call is shared between threads (pk_conv_prepare, native/polykern_conv.h), decided on
 * descriptors written here the way the emitter writes an NHWC 1×1 and an NCHW 3×3 convolution's, with the pool's
 * thread count stubbed: timing-free, so a team that leaves a thread idle fails here rather than only in the bench. The
 * results of these partitions are conv.test.ts's (every spec, im2col and channels first included, at 1 and 2 threads
 * against the interpreter).
 */
import { describe, expect, it } from 'vitest'
import { cRunner } from '../support/compile-c.ts'

const run = cRunner()

interface Decision {
  readonly rows: number
  readonly team: number
  readonly splitChannels: number
}

/** One call: `layout` N × H × W, C → K channels, through im2col (NHWC only) or not. */
interface Call {
  readonly layout: 'nhwc1x1' | 'nchw3x3'
  readonly shape: readonly [n: number, h: number, w: number, c: number, k: number]
  readonly im2col?: boolean
}

/** pk_conv_prepare's decision on each call, at 1 and 2 threads (in that order). */
async function decisions(calls: readonly Call[]): Promise<Decision[][]> {
  const program = `
#define PK_RUNTIME_EXTERN
#include <stdio.h>
#include "polykern_conv.h"

static int threads = 1;
int pk_threads(void) { return threads; }
int pk_pool_warm(void) { return 1; }
void pk_pool_nudge(void) {}

static inline pk_conv_desc nhwc1x1(int64_t N, int64_t H, int64_t W, int64_t C, int64_t K, int im2col) {
  const pk_conv_desc d = {
    .nb = 1, .nd = 2, .b_ext = {N}, .b_in = {H * W * C}, .b_out = {H * W * K}, .p_ext = {H, W}, .r_ext = {1, 1},
    .h_ext = {H, W}, .stride = {1, 1}, .dil = {1, 1}, .in_s = {W * C, C}, .out_s = {W * K, K}, .flt_s = {C * K, C * K},
    .C = C, .K = K, .flt_c = K, .flt_k = 1, .in_c = 1, .out_k = 1, .mc = 56, .nc = 96, .kc = 128, .l1 = 12288,
    .l2 = 262144, .im2col = im2col, .im2col_below = 12, .pack_filter_from = 1024, .gemm_kc = 256,
  };
  return d;
}

static inline pk_conv_desc nchw3x3(int64_t N, int64_t H, int64_t W, int64_t C, int64_t K, int im2col) {
  const pk_conv_desc d = {
    .nb = 1, .nd = 2, .b_ext = {N}, .b_in = {C * H * W}, .b_out = {K * H * W}, .p_ext = {H, W}, .r_ext = {3, 3},
    .h_ext = {H, W}, .stride = {1, 1}, .dil = {1, 1}, .off = {-1, -1}, .in_s = {W, 1}, .out_s = {W, 1}, .flt_s = {3, 1},
    .C = C, .K = K, .flt_c = 9, .flt_k = 9 * C, .in_c = H * W, .out_k = H * W, .mc = 32, .nc = 48, .kc = 128,
    .l1 = 9216, .l2 = 131072, .im2col = im2col, .channels_first = 1, .pack_filter_from = 49, .gemm_kc = 128,
  };
  return d;
}

int main(void) {
  const pk_conv_desc calls[] = {${calls.map((c) => `${c.layout}(${c.shape.join(', ')}, ${c.im2col ? 1 : 0})`).join(', ')}};
  const char *sep = "";
  printf("[");
  for (unsigned n = 0; n < sizeof calls / sizeof calls[0]; n++)
    for (threads = 1; threads <= 2; threads++, sep = ",") {
      pk_conv_call c;
      memset(&c, 0, sizeof c);
      if (!pk_conv_prepare(&calls[n], 8, 48, &c)) return 1;
      printf("%s{\\"rows\\":%ld,\\"team\\":%d,\\"splitChannels\\":%d}", sep, (long)c.rows, c.team, c.split_channels);
    }
  printf("]\\n");
  return 0;
}
`
  const flat = JSON.parse(await run('conv_partition', program)) as Decision[]
  return calls.map((_, n) => flat.slice(2 * n, 2 * n + 2))
}

describe('a convolution call shared between threads', () => {
  it('an im2col 1×1 call keeps rows enough for every thread; one thread and the direct path still run one long row', async () => {
    // 56×56 256→64: one panel of 64 output channels at most for each of two threads (48-column panels), so the team
    // cannot split channels; collapsed into one row of 3136 positions it ran on one thread of two. 3 images of 7×7
    // collapse into 3 rows, one each and one more for a team of 2.
    const [im2col, direct, images] = await decisions([
      { layout: 'nhwc1x1', shape: [1, 56, 56, 256, 64], im2col: true },
      { layout: 'nhwc1x1', shape: [1, 56, 56, 256, 64] },
      { layout: 'nhwc1x1', shape: [3, 7, 7, 64, 64], im2col: true },
    ])
    expect(im2col, 'im2col, 1 then 2 threads').toMatchObject([{ rows: 1, team: 1 }, { rows: 56, team: 2 }])
    // The direct path splits a row's positions between the threads itself: it keeps the one long row.
    expect(direct, 'direct').toMatchObject([{ rows: 1, team: 1 }, { rows: 1, team: 2 }])
    expect(images[1], '3 images').toMatchObject({ rows: 3, team: 2 })
  })

  it('a channels-first call whose rows split unevenly shares its output channels instead', async () => {
    // 7 rows of a 7×7 map, one block of positions each, split 4 + 3: both threads now run every row on half of the
    // 512 output channels (and read half of the 9.4 MB filter each). 14 rows split evenly, and 2 × 8 channels are
    // too few to share.
    const [small, even, narrow] = await decisions([
      { layout: 'nchw3x3', shape: [1, 7, 7, 512, 512] },
      { layout: 'nchw3x3', shape: [1, 14, 14, 256, 256] },
      { layout: 'nchw3x3', shape: [1, 7, 7, 64, 16] },
    ])
    expect(small, '7×7 512→512').toMatchObject([{ team: 1, splitChannels: 0 }, { team: 2, splitChannels: 1 }])
    expect(even[1], '14×14 256→256').toMatchObject({ rows: 14, team: 2, splitChannels: 0 })
    expect(narrow[1], '7×7 64→16').toMatchObject({ team: 2, splitChannels: 0 })
  })
})
