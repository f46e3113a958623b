/*
 * ref_ctrl.c -- the reference for the control-flow family (PTX ISA 9.7.12
 * bra, brx.idx, call, ret, exit): what each lane of conf_xctrl.c's
 * kernels computes when every branch goes where the ISA says for that
 * lane alone -- bra to its target when the guard holds, brx.idx to the
 * index-th label of the table, call runs the callee with the lane's
 * arguments until its ret and returns the value in the return parameter,
 * exit ends the lane.  Divergence changes none of this: each lane's
 * values are those of the thread run on its own.
 */
#include "refs.h"

/* The loop of the bra kernel: x halves when even and becomes 3x + 1 when
 * odd, until it is 1 or 40 steps have run; a uniform first branch adds
 * 1000 in warps of odd block index. */
void ref_ctrl_loop(uint32_t a, bool odd_block, uint32_t *x, uint32_t *n)
{
    uint32_t v = a % 1000 + 1, k = 0;
    if (odd_block)
        v += 1000;
    while (v != 1 && k < 40) {
        v = v & 1 ? 3 * v + 1 : v >> 1;
        k++;
    }
    *x = v;
    *n = k;
}

/* The four targets of the brx.idx table. */
uint32_t ref_ctrl_brx(uint32_t a, unsigned idx)
{
    switch (idx & 3) {
    case 0: return a + 11;
    case 1: return a * 3;
    case 2: return a ^ 0x55;
    default: return a - 7;
    }
}

/* The callees: fn returns 3a + 1 at once for odd a (an early ret), else
 * the sum of 0 .. a % 8 - 1 plus a; fn2 returns a * 5. */
uint32_t ref_ctrl_fn(uint32_t a)
{
    if (a & 1)
        return 3 * a + 1;
    uint32_t s = a;
    for (uint32_t i = 0; i < a % 8; i++)
        s += i;
    return s;
}

uint32_t ref_ctrl_fn2(uint32_t a) { return a * 5; }
