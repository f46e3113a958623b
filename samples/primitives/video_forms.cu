/*
 * video_forms.cu -- the scalar video instructions (PTX ISA 9.7.18.1: vadd
 * vsub vabsdiff vmin vmax vshl vshr vmad vset) and the SIMD ones' element
 * selectors and destination masks (9.7.18.2: vadd4 ... r1.b20, r2.b7531,
 * r3.b0000), which no compiler emits: programs reach them through inline
 * asm.
 *
 * Each of 548 forms -- every scalar operation with each type combination,
 * .sat, the secondary operations .add .min .max, merges into each byte and
 * half-word of c, byte and half-word source selectors; the shifts' .clamp
 * and .wrap; vmad's negations, .po and scales; the SIMD instructions with
 * source selectors that pick from b:a and partial masks, merged and
 * accumulated -- runs as inline asm on inputs that walk the edges of
 * bytes, half-words and words (0x7f, 0x80, 0xff, 0x8000, 0x80000000...)
 * and small shift counts.  The host computes every result from the form's
 * own text by the ISA's pseudocode (partSelectSignExtend, optSaturate,
 * optSecOp, optMerge; vmad's 128-bit form; extractAndSignExt_4 and the
 * mask), read as an H200 executes it where the two differ (see
 * ref_scalar and ref_vmad), after checking that reference against cases
 * worked by hand.  Every form here is one ptxas accepts.
 */
#include "sample.h"

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <vector>

// d, a, b, c are %0, %1, %2, %3; a form without c leaves %3 unread.
#define FORMS(X) \
    X("vadd.u32.u32.u32 %0, %1, %2;") \
    X("vadd.u32.u32.s32 %0, %1, %2;") \
    X("vadd.u32.s32.u32 %0, %1, %2;") \
    X("vadd.u32.s32.s32 %0, %1, %2;") \
    X("vadd.s32.u32.u32 %0, %1, %2;") \
    X("vadd.s32.u32.s32 %0, %1, %2;") \
    X("vadd.s32.s32.u32 %0, %1, %2;") \
    X("vadd.s32.s32.s32 %0, %1, %2;") \
    X("vadd.u32.u32.u32.sat %0, %1, %2;") \
    X("vadd.s32.s32.s32.sat %0, %1, %2;") \
    X("vadd.u32.s32.s32.sat %0, %1, %2;") \
    X("vadd.s32.u32.u32.sat %0, %1, %2;") \
    X("vadd.s32.s32.u32.sat %0, %1.b0, %2.h1;") \
    X("vadd.s32.s32.u32 %0, %1.h1, %2.b0;") \
    X("vadd.u32.u32.s32.sat %0, %1.h1, %2.b3;") \
    X("vadd.u32.u32.s32 %0, %1.b3, %2.h1;") \
    X("vadd.s32.u32.s32.sat %0, %1.b2, %2.b1;") \
    X("vadd.s32.u32.s32 %0, %1.b1, %2.b2;") \
    X("vadd.u32.u32.u32.add %0, %1, %2, %3;") \
    X("vadd.u32.u32.u32.sat.add %0, %1, %2, %3;") \
    X("vadd.s32.s32.u32.add %0, %1, %2, %3;") \
    X("vadd.s32.s32.u32.sat.add %0, %1, %2, %3;") \
    X("vadd.u32.u32.u32.min %0, %1, %2, %3;") \
    X("vadd.u32.u32.u32.sat.min %0, %1, %2, %3;") \
    X("vadd.s32.s32.u32.min %0, %1, %2, %3;") \
    X("vadd.s32.s32.u32.sat.min %0, %1, %2, %3;") \
    X("vadd.u32.u32.u32.max %0, %1, %2, %3;") \
    X("vadd.u32.u32.u32.sat.max %0, %1, %2, %3;") \
    X("vadd.s32.s32.u32.max %0, %1, %2, %3;") \
    X("vadd.s32.s32.u32.sat.max %0, %1, %2, %3;") \
    X("vsub.u32.u32.u32 %0, %1, %2;") \
    X("vsub.u32.u32.s32 %0, %1, %2;") \
    X("vsub.u32.s32.u32 %0, %1, %2;") \
    X("vsub.u32.s32.s32 %0, %1, %2;") \
    X("vsub.s32.u32.u32 %0, %1, %2;") \
    X("vsub.s32.u32.s32 %0, %1, %2;") \
    X("vsub.s32.s32.u32 %0, %1, %2;") \
    X("vsub.s32.s32.s32 %0, %1, %2;") \
    X("vsub.u32.u32.u32.sat %0, %1, %2;") \
    X("vsub.s32.s32.s32.sat %0, %1, %2;") \
    X("vsub.u32.s32.s32.sat %0, %1, %2;") \
    X("vsub.s32.u32.u32.sat %0, %1, %2;") \
    X("vsub.s32.s32.u32.sat %0, %1.b0, %2.h1;") \
    X("vsub.s32.s32.u32 %0, %1.h1, %2.b0;") \
    X("vsub.u32.u32.s32.sat %0, %1.h1, %2.b3;") \
    X("vsub.u32.u32.s32 %0, %1.b3, %2.h1;") \
    X("vsub.s32.u32.s32.sat %0, %1.b2, %2.b1;") \
    X("vsub.s32.u32.s32 %0, %1.b1, %2.b2;") \
    X("vsub.u32.u32.u32.add %0, %1, %2, %3;") \
    X("vsub.u32.u32.u32.sat.add %0, %1, %2, %3;") \
    X("vsub.s32.s32.u32.add %0, %1, %2, %3;") \
    X("vsub.s32.s32.u32.sat.add %0, %1, %2, %3;") \
    X("vsub.u32.u32.u32.min %0, %1, %2, %3;") \
    X("vsub.u32.u32.u32.sat.min %0, %1, %2, %3;") \
    X("vsub.s32.s32.u32.min %0, %1, %2, %3;") \
    X("vsub.s32.s32.u32.sat.min %0, %1, %2, %3;") \
    X("vsub.u32.u32.u32.max %0, %1, %2, %3;") \
    X("vsub.u32.u32.u32.sat.max %0, %1, %2, %3;") \
    X("vsub.s32.s32.u32.max %0, %1, %2, %3;") \
    X("vsub.s32.s32.u32.sat.max %0, %1, %2, %3;") \
    X("vabsdiff.u32.u32.u32 %0, %1, %2;") \
    X("vabsdiff.u32.u32.s32 %0, %1, %2;") \
    X("vabsdiff.u32.s32.u32 %0, %1, %2;") \
    X("vabsdiff.u32.s32.s32 %0, %1, %2;") \
    X("vabsdiff.s32.u32.u32 %0, %1, %2;") \
    X("vabsdiff.s32.u32.s32 %0, %1, %2;") \
    X("vabsdiff.s32.s32.u32 %0, %1, %2;") \
    X("vabsdiff.s32.s32.s32 %0, %1, %2;") \
    X("vabsdiff.u32.u32.u32.sat %0, %1, %2;") \
    X("vabsdiff.s32.s32.s32.sat %0, %1, %2;") \
    X("vabsdiff.u32.s32.s32.sat %0, %1, %2;") \
    X("vabsdiff.s32.u32.u32.sat %0, %1, %2;") \
    X("vabsdiff.s32.s32.u32.sat %0, %1.b0, %2.h1;") \
    X("vabsdiff.s32.s32.u32 %0, %1.h1, %2.b0;") \
    X("vabsdiff.u32.u32.s32.sat %0, %1.h1, %2.b3;") \
    X("vabsdiff.u32.u32.s32 %0, %1.b3, %2.h1;") \
    X("vabsdiff.s32.u32.s32.sat %0, %1.b2, %2.b1;") \
    X("vabsdiff.s32.u32.s32 %0, %1.b1, %2.b2;") \
    X("vabsdiff.u32.u32.u32.add %0, %1, %2, %3;") \
    X("vabsdiff.u32.u32.u32.sat.add %0, %1, %2, %3;") \
    X("vabsdiff.s32.s32.u32.add %0, %1, %2, %3;") \
    X("vabsdiff.s32.s32.u32.sat.add %0, %1, %2, %3;") \
    X("vabsdiff.u32.u32.u32.min %0, %1, %2, %3;") \
    X("vabsdiff.u32.u32.u32.sat.min %0, %1, %2, %3;") \
    X("vabsdiff.s32.s32.u32.min %0, %1, %2, %3;") \
    X("vabsdiff.s32.s32.u32.sat.min %0, %1, %2, %3;") \
    X("vabsdiff.u32.u32.u32.max %0, %1, %2, %3;") \
    X("vabsdiff.u32.u32.u32.sat.max %0, %1, %2, %3;") \
    X("vabsdiff.s32.s32.u32.max %0, %1, %2, %3;") \
    X("vabsdiff.s32.s32.u32.sat.max %0, %1, %2, %3;") \
    X("vmin.u32.u32.u32 %0, %1, %2;") \
    X("vmin.u32.u32.s32 %0, %1, %2;") \
    X("vmin.u32.s32.u32 %0, %1, %2;") \
    X("vmin.u32.s32.s32 %0, %1, %2;") \
    X("vmin.s32.u32.u32 %0, %1, %2;") \
    X("vmin.s32.u32.s32 %0, %1, %2;") \
    X("vmin.s32.s32.u32 %0, %1, %2;") \
    X("vmin.s32.s32.s32 %0, %1, %2;") \
    X("vmin.u32.u32.u32.sat %0, %1, %2;") \
    X("vmin.s32.s32.s32.sat %0, %1, %2;") \
    X("vmin.u32.s32.s32.sat %0, %1, %2;") \
    X("vmin.s32.u32.u32.sat %0, %1, %2;") \
    X("vmin.s32.s32.u32.sat %0, %1.b0, %2.h1;") \
    X("vmin.s32.s32.u32 %0, %1.h1, %2.b0;") \
    X("vmin.u32.u32.s32.sat %0, %1.h1, %2.b3;") \
    X("vmin.u32.u32.s32 %0, %1.b3, %2.h1;") \
    X("vmin.s32.u32.s32.sat %0, %1.b2, %2.b1;") \
    X("vmin.s32.u32.s32 %0, %1.b1, %2.b2;") \
    X("vmin.u32.u32.u32.add %0, %1, %2, %3;") \
    X("vmin.u32.u32.u32.sat.add %0, %1, %2, %3;") \
    X("vmin.s32.s32.u32.add %0, %1, %2, %3;") \
    X("vmin.s32.s32.u32.sat.add %0, %1, %2, %3;") \
    X("vmin.u32.u32.u32.min %0, %1, %2, %3;") \
    X("vmin.u32.u32.u32.sat.min %0, %1, %2, %3;") \
    X("vmin.s32.s32.u32.min %0, %1, %2, %3;") \
    X("vmin.s32.s32.u32.sat.min %0, %1, %2, %3;") \
    X("vmin.u32.u32.u32.max %0, %1, %2, %3;") \
    X("vmin.u32.u32.u32.sat.max %0, %1, %2, %3;") \
    X("vmin.s32.s32.u32.max %0, %1, %2, %3;") \
    X("vmin.s32.s32.u32.sat.max %0, %1, %2, %3;") \
    X("vmax.u32.u32.u32 %0, %1, %2;") \
    X("vmax.u32.u32.s32 %0, %1, %2;") \
    X("vmax.u32.s32.u32 %0, %1, %2;") \
    X("vmax.u32.s32.s32 %0, %1, %2;") \
    X("vmax.s32.u32.u32 %0, %1, %2;") \
    X("vmax.s32.u32.s32 %0, %1, %2;") \
    X("vmax.s32.s32.u32 %0, %1, %2;") \
    X("vmax.s32.s32.s32 %0, %1, %2;") \
    X("vmax.u32.u32.u32.sat %0, %1, %2;") \
    X("vmax.s32.s32.s32.sat %0, %1, %2;") \
    X("vmax.u32.s32.s32.sat %0, %1, %2;") \
    X("vmax.s32.u32.u32.sat %0, %1, %2;") \
    X("vmax.s32.s32.u32.sat %0, %1.b0, %2.h1;") \
    X("vmax.s32.s32.u32 %0, %1.h1, %2.b0;") \
    X("vmax.u32.u32.s32.sat %0, %1.h1, %2.b3;") \
    X("vmax.u32.u32.s32 %0, %1.b3, %2.h1;") \
    X("vmax.s32.u32.s32.sat %0, %1.b2, %2.b1;") \
    X("vmax.s32.u32.s32 %0, %1.b1, %2.b2;") \
    X("vmax.u32.u32.u32.add %0, %1, %2, %3;") \
    X("vmax.u32.u32.u32.sat.add %0, %1, %2, %3;") \
    X("vmax.s32.s32.u32.add %0, %1, %2, %3;") \
    X("vmax.s32.s32.u32.sat.add %0, %1, %2, %3;") \
    X("vmax.u32.u32.u32.min %0, %1, %2, %3;") \
    X("vmax.u32.u32.u32.sat.min %0, %1, %2, %3;") \
    X("vmax.s32.s32.u32.min %0, %1, %2, %3;") \
    X("vmax.s32.s32.u32.sat.min %0, %1, %2, %3;") \
    X("vmax.u32.u32.u32.max %0, %1, %2, %3;") \
    X("vmax.u32.u32.u32.sat.max %0, %1, %2, %3;") \
    X("vmax.s32.s32.u32.max %0, %1, %2, %3;") \
    X("vmax.s32.s32.u32.sat.max %0, %1, %2, %3;") \
    X("vadd.u32.u32.u32 %0.b0, %1, %2, %3;") \
    X("vadd.u32.u32.u32.sat %0.b0, %1.b1, %2, %3;") \
    X("vadd.s32.s32.s32 %0.b0, %1, %2, %3;") \
    X("vadd.s32.s32.s32.sat %0.b0, %1.b1, %2, %3;") \
    X("vadd.u32.u32.u32 %0.b1, %1, %2, %3;") \
    X("vadd.u32.u32.u32.sat %0.b1, %1.b1, %2, %3;") \
    X("vadd.s32.s32.s32 %0.b1, %1, %2, %3;") \
    X("vadd.s32.s32.s32.sat %0.b1, %1.b1, %2, %3;") \
    X("vadd.u32.u32.u32 %0.b2, %1, %2, %3;") \
    X("vadd.u32.u32.u32.sat %0.b2, %1.b1, %2, %3;") \
    X("vadd.s32.s32.s32 %0.b2, %1, %2, %3;") \
    X("vadd.s32.s32.s32.sat %0.b2, %1.b1, %2, %3;") \
    X("vadd.u32.u32.u32 %0.b3, %1, %2, %3;") \
    X("vadd.u32.u32.u32.sat %0.b3, %1.b1, %2, %3;") \
    X("vadd.s32.s32.s32 %0.b3, %1, %2, %3;") \
    X("vadd.s32.s32.s32.sat %0.b3, %1.b1, %2, %3;") \
    X("vadd.u32.u32.u32 %0.h0, %1, %2, %3;") \
    X("vadd.u32.u32.u32.sat %0.h0, %1.b1, %2, %3;") \
    X("vadd.s32.s32.s32 %0.h0, %1, %2, %3;") \
    X("vadd.s32.s32.s32.sat %0.h0, %1.b1, %2, %3;") \
    X("vadd.u32.u32.u32 %0.h1, %1, %2, %3;") \
    X("vadd.u32.u32.u32.sat %0.h1, %1.b1, %2, %3;") \
    X("vadd.s32.s32.s32 %0.h1, %1, %2, %3;") \
    X("vadd.s32.s32.s32.sat %0.h1, %1.b1, %2, %3;") \
    X("vsub.u32.u32.u32 %0.b0, %1, %2, %3;") \
    X("vsub.u32.u32.u32.sat %0.b0, %1.b1, %2, %3;") \
    X("vsub.s32.s32.s32 %0.b0, %1, %2, %3;") \
    X("vsub.s32.s32.s32.sat %0.b0, %1.b1, %2, %3;") \
    X("vsub.u32.u32.u32 %0.b1, %1, %2, %3;") \
    X("vsub.u32.u32.u32.sat %0.b1, %1.b1, %2, %3;") \
    X("vsub.s32.s32.s32 %0.b1, %1, %2, %3;") \
    X("vsub.s32.s32.s32.sat %0.b1, %1.b1, %2, %3;") \
    X("vsub.u32.u32.u32 %0.b2, %1, %2, %3;") \
    X("vsub.u32.u32.u32.sat %0.b2, %1.b1, %2, %3;") \
    X("vsub.s32.s32.s32 %0.b2, %1, %2, %3;") \
    X("vsub.s32.s32.s32.sat %0.b2, %1.b1, %2, %3;") \
    X("vsub.u32.u32.u32 %0.b3, %1, %2, %3;") \
    X("vsub.u32.u32.u32.sat %0.b3, %1.b1, %2, %3;") \
    X("vsub.s32.s32.s32 %0.b3, %1, %2, %3;") \
    X("vsub.s32.s32.s32.sat %0.b3, %1.b1, %2, %3;") \
    X("vsub.u32.u32.u32 %0.h0, %1, %2, %3;") \
    X("vsub.u32.u32.u32.sat %0.h0, %1.b1, %2, %3;") \
    X("vsub.s32.s32.s32 %0.h0, %1, %2, %3;") \
    X("vsub.s32.s32.s32.sat %0.h0, %1.b1, %2, %3;") \
    X("vsub.u32.u32.u32 %0.h1, %1, %2, %3;") \
    X("vsub.u32.u32.u32.sat %0.h1, %1.b1, %2, %3;") \
    X("vsub.s32.s32.s32 %0.h1, %1, %2, %3;") \
    X("vsub.s32.s32.s32.sat %0.h1, %1.b1, %2, %3;") \
    X("vabsdiff.u32.u32.u32 %0.b0, %1, %2, %3;") \
    X("vabsdiff.u32.u32.u32.sat %0.b0, %1.b1, %2, %3;") \
    X("vabsdiff.s32.s32.s32 %0.b0, %1, %2, %3;") \
    X("vabsdiff.s32.s32.s32.sat %0.b0, %1.b1, %2, %3;") \
    X("vabsdiff.u32.u32.u32 %0.b1, %1, %2, %3;") \
    X("vabsdiff.u32.u32.u32.sat %0.b1, %1.b1, %2, %3;") \
    X("vabsdiff.s32.s32.s32 %0.b1, %1, %2, %3;") \
    X("vabsdiff.s32.s32.s32.sat %0.b1, %1.b1, %2, %3;") \
    X("vabsdiff.u32.u32.u32 %0.b2, %1, %2, %3;") \
    X("vabsdiff.u32.u32.u32.sat %0.b2, %1.b1, %2, %3;") \
    X("vabsdiff.s32.s32.s32 %0.b2, %1, %2, %3;") \
    X("vabsdiff.s32.s32.s32.sat %0.b2, %1.b1, %2, %3;") \
    X("vabsdiff.u32.u32.u32 %0.b3, %1, %2, %3;") \
    X("vabsdiff.u32.u32.u32.sat %0.b3, %1.b1, %2, %3;") \
    X("vabsdiff.s32.s32.s32 %0.b3, %1, %2, %3;") \
    X("vabsdiff.s32.s32.s32.sat %0.b3, %1.b1, %2, %3;") \
    X("vabsdiff.u32.u32.u32 %0.h0, %1, %2, %3;") \
    X("vabsdiff.u32.u32.u32.sat %0.h0, %1.b1, %2, %3;") \
    X("vabsdiff.s32.s32.s32 %0.h0, %1, %2, %3;") \
    X("vabsdiff.s32.s32.s32.sat %0.h0, %1.b1, %2, %3;") \
    X("vabsdiff.u32.u32.u32 %0.h1, %1, %2, %3;") \
    X("vabsdiff.u32.u32.u32.sat %0.h1, %1.b1, %2, %3;") \
    X("vabsdiff.s32.s32.s32 %0.h1, %1, %2, %3;") \
    X("vabsdiff.s32.s32.s32.sat %0.h1, %1.b1, %2, %3;") \
    X("vadd.u32.u32.u32 %0, %1, %2, %3;") \
    X("vmin.s32.s32.s32.sat %0, %1, %2, %3;") \
    X("vshl.u32.u32.u32.clamp %0, %1, %2;") \
    X("vshl.u32.u32.u32.sat.clamp %0, %1, %2;") \
    X("vshl.s32.s32.u32.clamp %0, %1, %2;") \
    X("vshl.s32.s32.u32.sat.clamp %0, %1, %2;") \
    X("vshl.s32.u32.u32.clamp %0, %1, %2;") \
    X("vshl.s32.u32.u32.sat.clamp %0, %1, %2;") \
    X("vshl.u32.s32.u32.clamp %0, %1, %2;") \
    X("vshl.u32.s32.u32.sat.clamp %0, %1, %2;") \
    X("vshl.s32.s32.u32.clamp.add %0, %1, %2, %3;") \
    X("vshl.s32.s32.u32.clamp.min %0, %1, %2, %3;") \
    X("vshl.s32.s32.u32.clamp.max %0, %1, %2, %3;") \
    X("vshl.u32.u32.u32.sat.clamp %0.h1, %1, %2, %3;") \
    X("vshl.s32.s32.u32.sat.clamp %0.b2, %1.h0, %2.b0, %3;") \
    X("vshl.u32.s32.u32.clamp %0, %1.b3, %2.h1;") \
    X("vshl.u32.u32.u32.wrap %0, %1, %2;") \
    X("vshl.u32.u32.u32.sat.wrap %0, %1, %2;") \
    X("vshl.s32.s32.u32.wrap %0, %1, %2;") \
    X("vshl.s32.s32.u32.sat.wrap %0, %1, %2;") \
    X("vshl.s32.u32.u32.wrap %0, %1, %2;") \
    X("vshl.s32.u32.u32.sat.wrap %0, %1, %2;") \
    X("vshl.u32.s32.u32.wrap %0, %1, %2;") \
    X("vshl.u32.s32.u32.sat.wrap %0, %1, %2;") \
    X("vshl.s32.s32.u32.wrap.add %0, %1, %2, %3;") \
    X("vshl.s32.s32.u32.wrap.min %0, %1, %2, %3;") \
    X("vshl.s32.s32.u32.wrap.max %0, %1, %2, %3;") \
    X("vshl.u32.u32.u32.sat.wrap %0.h1, %1, %2, %3;") \
    X("vshl.s32.s32.u32.sat.wrap %0.b2, %1.h0, %2.b0, %3;") \
    X("vshl.u32.s32.u32.wrap %0, %1.b3, %2.h1;") \
    X("vshr.u32.u32.u32.clamp %0, %1, %2;") \
    X("vshr.u32.u32.u32.sat.clamp %0, %1, %2;") \
    X("vshr.s32.s32.u32.clamp %0, %1, %2;") \
    X("vshr.s32.s32.u32.sat.clamp %0, %1, %2;") \
    X("vshr.s32.u32.u32.clamp %0, %1, %2;") \
    X("vshr.s32.u32.u32.sat.clamp %0, %1, %2;") \
    X("vshr.u32.s32.u32.clamp %0, %1, %2;") \
    X("vshr.u32.s32.u32.sat.clamp %0, %1, %2;") \
    X("vshr.s32.s32.u32.clamp.add %0, %1, %2, %3;") \
    X("vshr.s32.s32.u32.clamp.min %0, %1, %2, %3;") \
    X("vshr.s32.s32.u32.clamp.max %0, %1, %2, %3;") \
    X("vshr.u32.u32.u32.sat.clamp %0.h1, %1, %2, %3;") \
    X("vshr.s32.s32.u32.sat.clamp %0.b2, %1.h0, %2.b0, %3;") \
    X("vshr.u32.s32.u32.clamp %0, %1.b3, %2.h1;") \
    X("vshr.u32.u32.u32.wrap %0, %1, %2;") \
    X("vshr.u32.u32.u32.sat.wrap %0, %1, %2;") \
    X("vshr.s32.s32.u32.wrap %0, %1, %2;") \
    X("vshr.s32.s32.u32.sat.wrap %0, %1, %2;") \
    X("vshr.s32.u32.u32.wrap %0, %1, %2;") \
    X("vshr.s32.u32.u32.sat.wrap %0, %1, %2;") \
    X("vshr.u32.s32.u32.wrap %0, %1, %2;") \
    X("vshr.u32.s32.u32.sat.wrap %0, %1, %2;") \
    X("vshr.s32.s32.u32.wrap.add %0, %1, %2, %3;") \
    X("vshr.s32.s32.u32.wrap.min %0, %1, %2, %3;") \
    X("vshr.s32.s32.u32.wrap.max %0, %1, %2, %3;") \
    X("vshr.u32.u32.u32.sat.wrap %0.h1, %1, %2, %3;") \
    X("vshr.s32.s32.u32.sat.wrap %0.b2, %1.h0, %2.b0, %3;") \
    X("vshr.u32.s32.u32.wrap %0, %1.b3, %2.h1;") \
    X("vset.u32.u32.eq %0, %1, %2;") \
    X("vset.s32.s32.eq %0, %1, %2;") \
    X("vset.u32.s32.eq %0, %1, %2;") \
    X("vset.s32.u32.eq %0, %1, %2;") \
    X("vset.u32.u32.ne %0, %1, %2;") \
    X("vset.s32.s32.ne %0, %1, %2;") \
    X("vset.u32.s32.ne %0, %1, %2;") \
    X("vset.s32.u32.ne %0, %1, %2;") \
    X("vset.u32.u32.lt %0, %1, %2;") \
    X("vset.s32.s32.lt %0, %1, %2;") \
    X("vset.u32.s32.lt %0, %1, %2;") \
    X("vset.s32.u32.lt %0, %1, %2;") \
    X("vset.u32.u32.le %0, %1, %2;") \
    X("vset.s32.s32.le %0, %1, %2;") \
    X("vset.u32.s32.le %0, %1, %2;") \
    X("vset.s32.u32.le %0, %1, %2;") \
    X("vset.u32.u32.gt %0, %1, %2;") \
    X("vset.s32.s32.gt %0, %1, %2;") \
    X("vset.u32.s32.gt %0, %1, %2;") \
    X("vset.s32.u32.gt %0, %1, %2;") \
    X("vset.u32.u32.ge %0, %1, %2;") \
    X("vset.s32.s32.ge %0, %1, %2;") \
    X("vset.u32.s32.ge %0, %1, %2;") \
    X("vset.s32.u32.ge %0, %1, %2;") \
    X("vset.s32.u32.lt.add %0, %1, %2, %3;") \
    X("vset.u32.s32.ge.add %0, %1.h1, %2.b2, %3;") \
    X("vset.s32.u32.lt.min %0, %1, %2, %3;") \
    X("vset.u32.s32.ge.min %0, %1.h1, %2.b2, %3;") \
    X("vset.s32.u32.lt.max %0, %1, %2, %3;") \
    X("vset.u32.s32.ge.max %0, %1.h1, %2.b2, %3;") \
    X("vset.s32.s32.ne %0.b0, %1.b0, %2.b3, %3;") \
    X("vset.s32.s32.ne %0.b1, %1.b0, %2.b3, %3;") \
    X("vset.s32.s32.ne %0.b2, %1.b0, %2.b3, %3;") \
    X("vset.s32.s32.ne %0.b3, %1.b0, %2.b3, %3;") \
    X("vset.s32.s32.ne %0.h0, %1.b0, %2.b3, %3;") \
    X("vset.s32.s32.ne %0.h1, %1.b0, %2.b3, %3;") \
    X("vmad.u32.u32.u32 %0, %1, %2, %3;") \
    X("vmad.u32.u32.u32.sat %0, %1, %2, %3;") \
    X("vmad.u32.u32.s32 %0, %1, %2, %3;") \
    X("vmad.u32.u32.s32.sat %0, %1, %2, %3;") \
    X("vmad.u32.s32.u32 %0, %1, %2, %3;") \
    X("vmad.u32.s32.u32.sat %0, %1, %2, %3;") \
    X("vmad.u32.s32.s32 %0, %1, %2, %3;") \
    X("vmad.u32.s32.s32.sat %0, %1, %2, %3;") \
    X("vmad.s32.u32.u32 %0, %1, %2, %3;") \
    X("vmad.s32.u32.u32.sat %0, %1, %2, %3;") \
    X("vmad.s32.u32.s32 %0, %1, %2, %3;") \
    X("vmad.s32.u32.s32.sat %0, %1, %2, %3;") \
    X("vmad.s32.s32.u32 %0, %1, %2, %3;") \
    X("vmad.s32.s32.u32.sat %0, %1, %2, %3;") \
    X("vmad.s32.s32.s32 %0, %1, %2, %3;") \
    X("vmad.s32.s32.s32.sat %0, %1, %2, %3;") \
    X("vmad.s32.s32.s32 %0, -%1, %2, %3;") \
    X("vmad.s32.s32.s32.sat %0, -%1, %2, %3;") \
    X("vmad.s32.s32.s32 %0, %1, -%2, %3;") \
    X("vmad.s32.s32.s32.sat %0, %1, -%2, %3;") \
    X("vmad.s32.s32.s32 %0, %1, %2, -%3;") \
    X("vmad.s32.s32.s32.sat %0, %1, %2, -%3;") \
    X("vmad.s32.s32.s32 %0, -%1, -%2, %3;") \
    X("vmad.s32.s32.s32.sat %0, -%1, -%2, %3;") \
    X("vmad.s32.s32.s32 %0, -%1, -%2, -%3;") \
    X("vmad.s32.s32.s32.sat %0, -%1, -%2, -%3;") \
    X("vmad.u32.u32.u32 %0, -%1, %2, %3;") \
    X("vmad.u32.u32.u32.sat %0, -%1, %2, %3;") \
    X("vmad.u32.u32.u32 %0, %1, -%2, %3;") \
    X("vmad.u32.u32.u32.sat %0, %1, -%2, %3;") \
    X("vmad.u32.u32.u32 %0, %1, %2, -%3;") \
    X("vmad.u32.u32.u32.sat %0, %1, %2, -%3;") \
    X("vmad.u32.u32.u32 %0, -%1, -%2, %3;") \
    X("vmad.u32.u32.u32.sat %0, -%1, -%2, %3;") \
    X("vmad.u32.u32.u32 %0, -%1, -%2, -%3;") \
    X("vmad.u32.u32.u32.sat %0, -%1, -%2, -%3;") \
    X("vmad.s32.s32.u32.shr15.po %0, %1, %2, %3;") \
    X("vmad.s32.s32.s32.po %0, %1, %2, %3;") \
    X("vmad.s32.s32.s32.po.sat %0, %1, %2, %3;") \
    X("vmad.s32.s32.s32.po.shr7 %0, %1, %2, %3;") \
    X("vmad.s32.s32.s32.po.sat.shr7 %0, %1, %2, %3;") \
    X("vmad.s32.s32.s32.po.shr15 %0, %1, %2, %3;") \
    X("vmad.s32.s32.s32.po.sat.shr15 %0, %1, %2, %3;") \
    X("vmad.u32.u32.u32.po %0, %1, %2, %3;") \
    X("vmad.u32.u32.u32.po.sat %0, %1, %2, %3;") \
    X("vmad.u32.u32.u32.po.shr7 %0, %1, %2, %3;") \
    X("vmad.u32.u32.u32.po.sat.shr7 %0, %1, %2, %3;") \
    X("vmad.u32.u32.u32.po.shr15 %0, %1, %2, %3;") \
    X("vmad.u32.u32.u32.po.sat.shr15 %0, %1, %2, %3;") \
    X("vmad.s32.s32.s32.shr7 %0, %1, %2, %3;") \
    X("vmad.s32.s32.s32.sat.shr7 %0, %1, %2, -%3;") \
    X("vmad.s32.s32.s32.shr15 %0, %1, %2, %3;") \
    X("vmad.s32.s32.s32.sat.shr15 %0, %1, %2, -%3;") \
    X("vmad.u32.u32.u32.shr7 %0, %1, %2, %3;") \
    X("vmad.u32.u32.u32.sat.shr7 %0, %1, %2, -%3;") \
    X("vmad.u32.u32.u32.shr15 %0, %1, %2, %3;") \
    X("vmad.u32.u32.u32.sat.shr15 %0, %1, %2, -%3;") \
    X("vmad.s32.u32.s32.shr7 %0, %1, %2, %3;") \
    X("vmad.s32.u32.s32.sat.shr7 %0, %1, %2, -%3;") \
    X("vmad.s32.u32.s32.shr15 %0, %1, %2, %3;") \
    X("vmad.s32.u32.s32.sat.shr15 %0, %1, %2, -%3;") \
    X("vmad.u32.s32.u32.shr7 %0, %1, %2, %3;") \
    X("vmad.u32.s32.u32.sat.shr7 %0, %1, %2, -%3;") \
    X("vmad.u32.s32.u32.shr15 %0, %1, %2, %3;") \
    X("vmad.u32.s32.u32.sat.shr15 %0, %1, %2, -%3;") \
    X("vmad.u32.u32.u32.shr15 %0, %1.h0, %2.h0, %3;") \
    X("vmad.s32.s32.u32 %0, %1.b3, -%2.h1, %3;") \
    X("vmad.s32.u32.s32.sat %0, -%1.h1, %2.b2, %3;") \
    X("vmad.u32.s32.s32.po %0, %1.b1, %2.b0, %3;") \
    X("vmad.s32.s32.s32.sat.shr7 %0, %1.h0, %2.h1, -%3;") \
    X("vmad.u32.u32.u32.sat %0, -%1, -%2, -%3;") \
    X("vmad.s32.s32.u32.shr15.po %0, %1, %2, %3;") \
    X("vadd4.u32.u32.u32 %0.b0, %1, %2.b7654, %3;") \
    X("vadd4.u32.u32.u32.sat %0.b3210, %1.b7654, %2, %3;") \
    X("vadd4.u32.u32.u32.add %0.b0, %1, %2.b7654, %3;") \
    X("vadd4.u32.u32.u32 %0.b3210, %1.b4567, %2.b0123, %3;") \
    X("vadd4.u32.u32.u32.sat %0.b321, %1.b0123, %2.b4567, %3;") \
    X("vadd4.u32.u32.u32.add %0.b3210, %1.b4567, %2.b0123, %3;") \
    X("vadd4.u32.u32.u32 %0.b20, %1.b7531, %2.b6420, %3;") \
    X("vadd4.u32.u32.u32.sat %0.b0, %1.b6420, %2.b7531, %3;") \
    X("vadd4.u32.u32.u32.add %0.b20, %1.b7531, %2.b6420, %3;") \
    X("vadd4.u32.u32.u32 %0.b31, %1.b0000, %2.b2222, %3;") \
    X("vadd4.u32.u32.u32.sat %0.b3210, %1.b2222, %2.b0000, %3;") \
    X("vadd4.u32.u32.u32.add %0.b31, %1.b0000, %2.b2222, %3;") \
    X("vsub4.u32.s32.s32 %0.b0, %1, %2.b7654, %3;") \
    X("vsub4.u32.s32.s32.sat %0.b3210, %1.b7654, %2, %3;") \
    X("vsub4.u32.s32.s32.add %0.b0, %1, %2.b7654, %3;") \
    X("vsub4.u32.s32.s32 %0.b3210, %1.b4567, %2.b0123, %3;") \
    X("vsub4.u32.s32.s32.sat %0.b321, %1.b0123, %2.b4567, %3;") \
    X("vsub4.u32.s32.s32.add %0.b3210, %1.b4567, %2.b0123, %3;") \
    X("vsub4.u32.s32.s32 %0.b20, %1.b7531, %2.b6420, %3;") \
    X("vsub4.u32.s32.s32.sat %0.b0, %1.b6420, %2.b7531, %3;") \
    X("vsub4.u32.s32.s32.add %0.b20, %1.b7531, %2.b6420, %3;") \
    X("vsub4.u32.s32.s32 %0.b31, %1.b0000, %2.b2222, %3;") \
    X("vsub4.u32.s32.s32.sat %0.b3210, %1.b2222, %2.b0000, %3;") \
    X("vsub4.u32.s32.s32.add %0.b31, %1.b0000, %2.b2222, %3;") \
    X("vavrg4.s32.s32.u32 %0.b0, %1, %2.b7654, %3;") \
    X("vavrg4.s32.s32.u32.sat %0.b3210, %1.b7654, %2, %3;") \
    X("vavrg4.s32.s32.u32.add %0.b0, %1, %2.b7654, %3;") \
    X("vavrg4.s32.s32.u32 %0.b3210, %1.b4567, %2.b0123, %3;") \
    X("vavrg4.s32.s32.u32.sat %0.b321, %1.b0123, %2.b4567, %3;") \
    X("vavrg4.s32.s32.u32.add %0.b3210, %1.b4567, %2.b0123, %3;") \
    X("vavrg4.s32.s32.u32 %0.b20, %1.b7531, %2.b6420, %3;") \
    X("vavrg4.s32.s32.u32.sat %0.b0, %1.b6420, %2.b7531, %3;") \
    X("vavrg4.s32.s32.u32.add %0.b20, %1.b7531, %2.b6420, %3;") \
    X("vavrg4.s32.s32.u32 %0.b31, %1.b0000, %2.b2222, %3;") \
    X("vavrg4.s32.s32.u32.sat %0.b3210, %1.b2222, %2.b0000, %3;") \
    X("vavrg4.s32.s32.u32.add %0.b31, %1.b0000, %2.b2222, %3;") \
    X("vabsdiff4.u32.u32.s32 %0.b0, %1, %2.b7654, %3;") \
    X("vabsdiff4.u32.u32.s32.sat %0.b3210, %1.b7654, %2, %3;") \
    X("vabsdiff4.u32.u32.s32.add %0.b0, %1, %2.b7654, %3;") \
    X("vabsdiff4.u32.u32.s32 %0.b3210, %1.b4567, %2.b0123, %3;") \
    X("vabsdiff4.u32.u32.s32.sat %0.b321, %1.b0123, %2.b4567, %3;") \
    X("vabsdiff4.u32.u32.s32.add %0.b3210, %1.b4567, %2.b0123, %3;") \
    X("vabsdiff4.u32.u32.s32 %0.b20, %1.b7531, %2.b6420, %3;") \
    X("vabsdiff4.u32.u32.s32.sat %0.b0, %1.b6420, %2.b7531, %3;") \
    X("vabsdiff4.u32.u32.s32.add %0.b20, %1.b7531, %2.b6420, %3;") \
    X("vabsdiff4.u32.u32.s32 %0.b31, %1.b0000, %2.b2222, %3;") \
    X("vabsdiff4.u32.u32.s32.sat %0.b3210, %1.b2222, %2.b0000, %3;") \
    X("vabsdiff4.u32.u32.s32.add %0.b31, %1.b0000, %2.b2222, %3;") \
    X("vmin4.s32.u32.u32 %0.b0, %1, %2.b7654, %3;") \
    X("vmin4.s32.u32.u32.sat %0.b3210, %1.b7654, %2, %3;") \
    X("vmin4.s32.u32.u32.add %0.b0, %1, %2.b7654, %3;") \
    X("vmin4.s32.u32.u32 %0.b3210, %1.b4567, %2.b0123, %3;") \
    X("vmin4.s32.u32.u32.sat %0.b321, %1.b0123, %2.b4567, %3;") \
    X("vmin4.s32.u32.u32.add %0.b3210, %1.b4567, %2.b0123, %3;") \
    X("vmin4.s32.u32.u32 %0.b20, %1.b7531, %2.b6420, %3;") \
    X("vmin4.s32.u32.u32.sat %0.b0, %1.b6420, %2.b7531, %3;") \
    X("vmin4.s32.u32.u32.add %0.b20, %1.b7531, %2.b6420, %3;") \
    X("vmin4.s32.u32.u32 %0.b31, %1.b0000, %2.b2222, %3;") \
    X("vmin4.s32.u32.u32.sat %0.b3210, %1.b2222, %2.b0000, %3;") \
    X("vmin4.s32.u32.u32.add %0.b31, %1.b0000, %2.b2222, %3;") \
    X("vmax4.s32.s32.s32 %0.b0, %1, %2.b7654, %3;") \
    X("vmax4.s32.s32.s32.sat %0.b3210, %1.b7654, %2, %3;") \
    X("vmax4.s32.s32.s32.add %0.b0, %1, %2.b7654, %3;") \
    X("vmax4.s32.s32.s32 %0.b3210, %1.b4567, %2.b0123, %3;") \
    X("vmax4.s32.s32.s32.sat %0.b321, %1.b0123, %2.b4567, %3;") \
    X("vmax4.s32.s32.s32.add %0.b3210, %1.b4567, %2.b0123, %3;") \
    X("vmax4.s32.s32.s32 %0.b20, %1.b7531, %2.b6420, %3;") \
    X("vmax4.s32.s32.s32.sat %0.b0, %1.b6420, %2.b7531, %3;") \
    X("vmax4.s32.s32.s32.add %0.b20, %1.b7531, %2.b6420, %3;") \
    X("vmax4.s32.s32.s32 %0.b31, %1.b0000, %2.b2222, %3;") \
    X("vmax4.s32.s32.s32.sat %0.b3210, %1.b2222, %2.b0000, %3;") \
    X("vmax4.s32.s32.s32.add %0.b31, %1.b0000, %2.b2222, %3;") \
    X("vadd2.u32.u32.u32 %0, %1.h10, %2.h32, %3;") \
    X("vadd2.u32.u32.u32.sat %0.h1, %1.h32, %2.h10, %3;") \
    X("vadd2.u32.u32.u32.add %0, %1.h10, %2.h32, %3;") \
    X("vadd2.u32.u32.u32 %0.h1, %1.h23, %2.h01, %3;") \
    X("vadd2.u32.u32.u32.sat %0.h10, %1.h01, %2.h23, %3;") \
    X("vadd2.u32.u32.u32.add %0.h1, %1.h23, %2.h01, %3;") \
    X("vadd2.u32.u32.u32 %0.h10, %1.h33, %2.h00, %3;") \
    X("vadd2.u32.u32.u32.sat %0.h0, %1.h00, %2.h33, %3;") \
    X("vadd2.u32.u32.u32.add %0.h10, %1.h33, %2.h00, %3;") \
    X("vadd2.u32.u32.u32 %0.h0, %1.h21, %2.h30, %3;") \
    X("vadd2.u32.u32.u32.sat %0, %1.h30, %2.h21, %3;") \
    X("vadd2.u32.u32.u32.add %0.h0, %1.h21, %2.h30, %3;") \
    X("vsub2.u32.s32.s32 %0, %1.h10, %2.h32, %3;") \
    X("vsub2.u32.s32.s32.sat %0.h1, %1.h32, %2.h10, %3;") \
    X("vsub2.u32.s32.s32.add %0, %1.h10, %2.h32, %3;") \
    X("vsub2.u32.s32.s32 %0.h1, %1.h23, %2.h01, %3;") \
    X("vsub2.u32.s32.s32.sat %0.h10, %1.h01, %2.h23, %3;") \
    X("vsub2.u32.s32.s32.add %0.h1, %1.h23, %2.h01, %3;") \
    X("vsub2.u32.s32.s32 %0.h10, %1.h33, %2.h00, %3;") \
    X("vsub2.u32.s32.s32.sat %0.h0, %1.h00, %2.h33, %3;") \
    X("vsub2.u32.s32.s32.add %0.h10, %1.h33, %2.h00, %3;") \
    X("vsub2.u32.s32.s32 %0.h0, %1.h21, %2.h30, %3;") \
    X("vsub2.u32.s32.s32.sat %0, %1.h30, %2.h21, %3;") \
    X("vsub2.u32.s32.s32.add %0.h0, %1.h21, %2.h30, %3;") \
    X("vavrg2.s32.s32.u32 %0, %1.h10, %2.h32, %3;") \
    X("vavrg2.s32.s32.u32.sat %0.h1, %1.h32, %2.h10, %3;") \
    X("vavrg2.s32.s32.u32.add %0, %1.h10, %2.h32, %3;") \
    X("vavrg2.s32.s32.u32 %0.h1, %1.h23, %2.h01, %3;") \
    X("vavrg2.s32.s32.u32.sat %0.h10, %1.h01, %2.h23, %3;") \
    X("vavrg2.s32.s32.u32.add %0.h1, %1.h23, %2.h01, %3;") \
    X("vavrg2.s32.s32.u32 %0.h10, %1.h33, %2.h00, %3;") \
    X("vavrg2.s32.s32.u32.sat %0.h0, %1.h00, %2.h33, %3;") \
    X("vavrg2.s32.s32.u32.add %0.h10, %1.h33, %2.h00, %3;") \
    X("vavrg2.s32.s32.u32 %0.h0, %1.h21, %2.h30, %3;") \
    X("vavrg2.s32.s32.u32.sat %0, %1.h30, %2.h21, %3;") \
    X("vavrg2.s32.s32.u32.add %0.h0, %1.h21, %2.h30, %3;") \
    X("vabsdiff2.u32.u32.s32 %0, %1.h10, %2.h32, %3;") \
    X("vabsdiff2.u32.u32.s32.sat %0.h1, %1.h32, %2.h10, %3;") \
    X("vabsdiff2.u32.u32.s32.add %0, %1.h10, %2.h32, %3;") \
    X("vabsdiff2.u32.u32.s32 %0.h1, %1.h23, %2.h01, %3;") \
    X("vabsdiff2.u32.u32.s32.sat %0.h10, %1.h01, %2.h23, %3;") \
    X("vabsdiff2.u32.u32.s32.add %0.h1, %1.h23, %2.h01, %3;") \
    X("vabsdiff2.u32.u32.s32 %0.h10, %1.h33, %2.h00, %3;") \
    X("vabsdiff2.u32.u32.s32.sat %0.h0, %1.h00, %2.h33, %3;") \
    X("vabsdiff2.u32.u32.s32.add %0.h10, %1.h33, %2.h00, %3;") \
    X("vabsdiff2.u32.u32.s32 %0.h0, %1.h21, %2.h30, %3;") \
    X("vabsdiff2.u32.u32.s32.sat %0, %1.h30, %2.h21, %3;") \
    X("vabsdiff2.u32.u32.s32.add %0.h0, %1.h21, %2.h30, %3;") \
    X("vmin2.s32.u32.u32 %0, %1.h10, %2.h32, %3;") \
    X("vmin2.s32.u32.u32.sat %0.h1, %1.h32, %2.h10, %3;") \
    X("vmin2.s32.u32.u32.add %0, %1.h10, %2.h32, %3;") \
    X("vmin2.s32.u32.u32 %0.h1, %1.h23, %2.h01, %3;") \
    X("vmin2.s32.u32.u32.sat %0.h10, %1.h01, %2.h23, %3;") \
    X("vmin2.s32.u32.u32.add %0.h1, %1.h23, %2.h01, %3;") \
    X("vmin2.s32.u32.u32 %0.h10, %1.h33, %2.h00, %3;") \
    X("vmin2.s32.u32.u32.sat %0.h0, %1.h00, %2.h33, %3;") \
    X("vmin2.s32.u32.u32.add %0.h10, %1.h33, %2.h00, %3;") \
    X("vmin2.s32.u32.u32 %0.h0, %1.h21, %2.h30, %3;") \
    X("vmin2.s32.u32.u32.sat %0, %1.h30, %2.h21, %3;") \
    X("vmin2.s32.u32.u32.add %0.h0, %1.h21, %2.h30, %3;") \
    X("vmax2.s32.s32.s32 %0, %1.h10, %2.h32, %3;") \
    X("vmax2.s32.s32.s32.sat %0.h1, %1.h32, %2.h10, %3;") \
    X("vmax2.s32.s32.s32.add %0, %1.h10, %2.h32, %3;") \
    X("vmax2.s32.s32.s32 %0.h1, %1.h23, %2.h01, %3;") \
    X("vmax2.s32.s32.s32.sat %0.h10, %1.h01, %2.h23, %3;") \
    X("vmax2.s32.s32.s32.add %0.h1, %1.h23, %2.h01, %3;") \
    X("vmax2.s32.s32.s32 %0.h10, %1.h33, %2.h00, %3;") \
    X("vmax2.s32.s32.s32.sat %0.h0, %1.h00, %2.h33, %3;") \
    X("vmax2.s32.s32.s32.add %0.h10, %1.h33, %2.h00, %3;") \
    X("vmax2.s32.s32.s32 %0.h0, %1.h21, %2.h30, %3;") \
    X("vmax2.s32.s32.s32.sat %0, %1.h30, %2.h21, %3;") \
    X("vmax2.s32.s32.s32.add %0.h0, %1.h21, %2.h30, %3;") \
    X("vset4.u32.u32.eq %0.b0, %1, %2.b7654, %3;") \
    X("vset4.u32.u32.le.add %0.b3210, %1.b7654, %2, %3;") \
    X("vset4.s32.s32.ne %0.b3210, %1.b4567, %2.b0123, %3;") \
    X("vset4.s32.s32.gt.add %0.b321, %1.b0123, %2.b4567, %3;") \
    X("vset4.u32.s32.lt %0.b20, %1.b7531, %2.b6420, %3;") \
    X("vset4.u32.s32.ge.add %0.b0, %1.b6420, %2.b7531, %3;") \
    X("vset4.s32.u32.le %0.b31, %1.b0000, %2.b2222, %3;") \
    X("vset4.s32.u32.eq.add %0.b3210, %1.b2222, %2.b0000, %3;") \
    X("vset2.u32.u32.eq %0, %1.h10, %2.h32, %3;") \
    X("vset2.u32.u32.le.add %0.h1, %1.h32, %2.h10, %3;") \
    X("vset2.s32.s32.ne %0.h1, %1.h23, %2.h01, %3;") \
    X("vset2.s32.s32.gt.add %0.h10, %1.h01, %2.h23, %3;") \
    X("vset2.u32.s32.lt %0.h10, %1.h33, %2.h00, %3;") \
    X("vset2.u32.s32.ge.add %0.h0, %1.h00, %2.h33, %3;") \
    X("vset2.s32.u32.le %0.h0, %1.h21, %2.h30, %3;") \
    X("vset2.s32.u32.eq.add %0, %1.h30, %2.h21, %3;") \

#define X(text) text,
static const char *const forms[] = { FORMS(X) };
#undef X
static const int NUM_FORMS = (int)(sizeof forms / sizeof forms[0]);

__global__ void video_kernel(const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t a = A[i], b = B[i], c = C[i], d = 0xa5a5a5a5u;
    // One case a form, numbered in the list's order.
    enum { first = __COUNTER__ + 1 };
    switch (blockIdx.y) {
#define X(text)                                                                 \
    case __COUNTER__ - first:                                                   \
        asm volatile(text : "=r"(d) : "r"(a), "r"(b), "r"(c));                  \
        break;
        FORMS(X)
#undef X
    }
    D[(size_t)blockIdx.y * n + i] = d;
}

// ---------------------------------------------------------------------------
// The reference: the form's text read back, then the ISA's pseudocode.
// ---------------------------------------------------------------------------

struct operand {
    bool neg;
    char sel[8];        // "" or "b2", "h1", "b3210", "h32", ...
};

struct form_desc {
    char op[16];        // "vadd", "vset4", ...
    bool sgn[3];        // the types in spelling order: signed?
    int ntypes;
    char cmp[4];        // vset's comparison
    char secop[4];      // "add", "min", "max" or ""
    bool sat, clamp, wrap, po;
    int scale;          // vmad: 0, 7 or 15
    operand opd[4];
    int nopd;
};

static form_desc describe(const char *text)
{
    form_desc f;
    memset(&f, 0, sizeof f);
    char buf[128];
    snprintf(buf, sizeof buf, "%s", text);
    char *space = strchr(buf, ' ');
    *space = 0;
    // The mnemonic's words.
    char *save = NULL;
    for (char *w = strtok_r(buf, ".", &save); w; w = strtok_r(NULL, ".", &save)) {
        if (!f.op[0])
            snprintf(f.op, sizeof f.op, "%s", w);
        else if (!strcmp(w, "u32") || !strcmp(w, "s32"))
            f.sgn[f.ntypes++] = w[0] == 's';
        else if (!strcmp(w, "sat"))
            f.sat = true;
        else if (!strcmp(w, "clamp"))
            f.clamp = true;
        else if (!strcmp(w, "wrap"))
            f.wrap = true;
        else if (!strcmp(w, "po"))
            f.po = true;
        else if (!strcmp(w, "shr7"))
            f.scale = 7;
        else if (!strcmp(w, "shr15"))
            f.scale = 15;
        else if (!strcmp(w, "add") || !strcmp(w, "min") || !strcmp(w, "max"))
            snprintf(f.secop, sizeof f.secop, "%s", w);
        else
            snprintf(f.cmp, sizeof f.cmp, "%s", w);
    }
    // The operands: {-}%N{.sel}.
    for (char *o = strtok_r(space + 1, ",;", &save); o; o = strtok_r(NULL, ",;", &save)) {
        while (*o == ' ')
            o++;
        if (!*o)
            continue;
        operand &p = f.opd[f.nopd++];
        p.neg = *o == '-';
        char *dot = strchr(o, '.');
        if (dot)
            snprintf(p.sel, sizeof p.sel, "%s", dot + 1);
    }
    return f;
}

typedef __int128 i128;

static int64_t extend(uint64_t v, int bits, bool sgn)
{
    v &= bits == 64 ? ~0ull : (1ull << bits) - 1;
    if (sgn && bits < 64 && (v >> (bits - 1)) & 1)
        return (int64_t)(v | ~((1ull << bits) - 1));
    return (int64_t)v;
}

// partSelectSignExtend: the byte or half-word the selector names, or the word.
static int64_t part_select(uint32_t x, const char *sel, bool sgn)
{
    if (!sel[0])
        return extend(x, 32, sgn);
    int width = sel[0] == 'h' ? 16 : 8, index = sel[1] - '0';
    return extend(x >> (index * width), width, sgn);
}

static i128 clamp128(i128 v, i128 lo, i128 hi) { return v < lo ? lo : v > hi ? hi : v; }

// optSaturate: to dsel's byte or half-word, or the word; signed by dtype.
static i128 opt_saturate(i128 tmp, bool sat, bool sgn, const char *dsel)
{
    if (!sat)
        return tmp;
    int bits = !dsel[0] ? 32 : dsel[0] == 'h' ? 16 : 8;
    i128 one = 1;
    return sgn ? clamp128(tmp, -(one << (bits - 1)), (one << (bits - 1)) - 1) : clamp128(tmp, 0, (one << bits) - 1);
}

static bool compare(i128 x, i128 y, const char *cmp)
{
    if (!strcmp(cmp, "eq")) return x == y;
    if (!strcmp(cmp, "ne")) return x != y;
    if (!strcmp(cmp, "lt")) return x < y;
    if (!strcmp(cmp, "le")) return x <= y;
    if (!strcmp(cmp, "gt")) return x > y;
    return x >= y;
}

// Where an H200 reads the ISA's text otherwise than its plain words:
//  - vadd and vsub without .sat keep the result's low 32 bits, sign-extended
//    (the carry or borrow out of bit 31 is lost), whatever the types;
//  - vadd and vsub with a u32 dtype and .sat into a word clamp only at 0:
//    a result of 2^32 or more wraps, to its low word as above;
//  - .sat into a byte or half-word of d clamps the result, read as unsigned,
//    to the top of that range: a negative result gives 0x7f, 0xff, 0x7fff
//    or 0xffff, never the bottom, whatever the operation;
//  - vshl and vshr .sat clamp the .s34 result (its low 34 bits, signed) to
//    dtype's word, whatever d.dsel names;
//  - the result is not cut to .s33; .min and .max compare it with c, which
//    is extended by dtype (vset's by atype), signed for a signed dtype,
//    else unsigned on 64 bits (a negative result is above any c);
//  - d.h1 takes the result's upper half-word (d.b1-.b3 move the low byte).
static uint32_t ref_scalar(const form_desc &f, uint32_t a, uint32_t b, uint32_t c)
{
    bool vset = !strcmp(f.op, "vset");
    bool shift = !strcmp(f.op, "vshl") || !strcmp(f.op, "vshr");
    bool addsub = !strcmp(f.op, "vadd") || !strcmp(f.op, "vsub");
    // vset.atype.btype: the comparison's result is 1 or 0; its c is
    // extended and compared by atype, as if that were vset's dtype.
    bool dsgn = f.sgn[0];
    bool asgn = vset ? f.sgn[0] : f.sgn[1];
    bool bsgn = vset ? f.sgn[1] : shift ? false : f.sgn[2];
    i128 ta = part_select(a, f.opd[1].sel, asgn), tb = part_select(b, f.opd[2].sel, bsgn), tmp;
    if (!strcmp(f.op, "vadd"))
        tmp = ta + tb;
    else if (!strcmp(f.op, "vsub"))
        tmp = ta - tb;
    else if (!strcmp(f.op, "vabsdiff"))
        tmp = ta > tb ? ta - tb : tb - ta;
    else if (!strcmp(f.op, "vmin"))
        tmp = ta < tb ? ta : tb;
    else if (!strcmp(f.op, "vmax"))
        tmp = ta > tb ? ta : tb;
    else if (vset)
        tmp = compare(ta, tb, f.cmp) ? 1 : 0;
    else {
        if (f.clamp && tb > 32)
            tb = 32;
        if (f.wrap)
            tb &= 0x1f;
        tmp = !strcmp(f.op, "vshl") ? ta * ((i128)1 << (int)tb) : ta >> (int)tb;
    }
    const char *dsel = f.opd[0].sel;
    int width = !dsel[0] ? 32 : dsel[0] == 'h' ? 16 : 8;
    if (addsub && !f.sat)
        tmp = (int32_t)(uint32_t)tmp;   // the low word, sign-extended
    else if (addsub && !dsel[0] && !dsgn)   // .u32 .sat: 0, or as above
        tmp = tmp < 0 ? 0 : (int32_t)(uint32_t)tmp;
    else if (f.sat && shift)
        tmp = opt_saturate(extend((uint64_t)tmp, 34, true), true, dsgn, "");
    else if (f.sat && dsel[0]) {
        i128 top = ((i128)1 << (dsgn ? width - 1 : width)) - 1;
        tmp = tmp < 0 || tmp > top ? top : tmp;
    } else
        tmp = opt_saturate(tmp, f.sat, dsgn, "");
    // optSecOp: c extended by dtype; unsigned dtype compares unsigned.
    int64_t cx = extend(c, 32, dsgn);
    bool lt = dsgn ? tmp < cx : (uint64_t)tmp < (uint64_t)cx;
    uint32_t d = (uint32_t)tmp;
    if (!strcmp(f.secop, "add"))
        d = (uint32_t)tmp + c;
    else if (!strcmp(f.secop, "min"))
        d = lt ? (uint32_t)tmp : c;
    else if (!strcmp(f.secop, "max"))
        d = lt ? c : (uint32_t)tmp;
    else if (dsel[0]) {     // optMerge; .h1 takes the upper half as it stands
        int at = (dsel[1] - '0') * width, move = width == 16 && at == 16 ? 0 : at;
        uint32_t field = (uint32_t)(((1ull << width) - 1) << at);
        d = (((uint32_t)tmp << move) & field) | (c & ~field);
    }
    return d;
}

// vmad, as the ISA writes it: 128 bits, ~x with a carried-in one for -x;
// as an H200 reads it, a whole-word a or b is a signed 32-bit value
// whatever its type (a byte or half-word extends by its type), c is
// sign-extended always, and the scale shifts the 64-bit sum arithmetically
// when signedFinal, else logically.
static uint32_t ref_vmad(const form_desc &f, uint32_t a, uint32_t b, uint32_t c)
{
    bool aneg = f.opd[1].neg, bneg = f.opd[2].neg, cneg = f.opd[3].neg;
    i128 ta = f.opd[1].sel[0] ? part_select(a, f.opd[1].sel, f.sgn[1]) : (int32_t)a;
    i128 tb = f.opd[2].sel[0] ? part_select(b, f.opd[2].sel, f.sgn[2]) : (int32_t)b;
    bool signed_final = f.sgn[1] || f.sgn[2] || (aneg ^ bneg) || cneg;
    i128 tmp = ta * tb;
    int lsb = 0;
    uint32_t cc = c;
    if (f.po)
        lsb = 1;
    else if (aneg ^ bneg) {
        tmp = ~tmp;
        lsb = 1;
    } else if (cneg) {
        cc = ~cc;
        lsb = 1;
    }
    i128 c128 = (int32_t)cc;
    tmp = tmp + c128 + lsb;
    i128 result = !f.scale ? tmp : signed_final ? tmp >> f.scale : (i128)((uint64_t)tmp >> f.scale);
    if (f.sat)
        result = signed_final ? clamp128(result, INT32_MIN, INT32_MAX) : clamp128(result, 0, UINT32_MAX);
    return (uint32_t)result;
}

// The SIMD forms: elements picked from b:a, each extended by its type.
static uint32_t ref_simd(const form_desc &f, uint32_t a, uint32_t b, uint32_t c)
{
    int n = f.op[strlen(f.op) - 1] - '0', width = 32 / n;
    bool vset = !strncmp(f.op, "vset", 4);
    bool dsgn = vset ? false : f.sgn[0], asgn = vset ? f.sgn[0] : f.sgn[1], bsgn = vset ? f.sgn[1] : f.sgn[2];
    uint64_t ba = (uint64_t)b << 32 | a;
    const char *asel = f.opd[1].sel, *bsel = f.opd[2].sel, *mask = f.opd[0].sel;
    uint32_t d = 0, field = (1u << width) - 1;
    int64_t t[4];
    bool on[4];
    for (int i = 0; i < n; i++) {
        // Selector digits are written with element n-1 first; the defaults
        // take a's elements for a and b's for b.
        int ia = asel[0] ? asel[n - i] - '0' : i, ib = bsel[0] ? bsel[n - i] - '0' : n + i;
        int64_t va = extend(ba >> (ia * width), width, asgn), vb = extend(ba >> (ib * width), width, bsgn);
        const char *op = f.op;
        if (!strncmp(op, "vadd", 4))
            t[i] = va + vb;
        else if (!strncmp(op, "vsub", 4))
            t[i] = va - vb;
        else if (!strncmp(op, "vavrg", 5))
            t[i] = va + vb >= 0 ? (va + vb + 1) >> 1 : (va + vb) >> 1;
        else if (!strncmp(op, "vabsdiff", 8))
            t[i] = va > vb ? va - vb : vb - va;
        else if (!strncmp(op, "vmin", 4))
            t[i] = va < vb ? va : vb;
        else if (!strncmp(op, "vmax", 4))
            t[i] = va > vb ? va : vb;
        else
            t[i] = compare(va, vb, f.cmp) ? 1 : 0;
        if (f.sat)
            t[i] = (int64_t)opt_saturate(t[i], true, dsgn, n == 2 ? "h0" : "b0");
        on[i] = !mask[0];
    }
    for (const char *m = mask + (mask[0] ? 1 : 0); *m; m++)
        on[*m - '0'] = true;
    if (!strcmp(f.secop, "add")) {
        d = c;
        for (int i = 0; i < n; i++)
            d += on[i] ? (uint32_t)t[i] : 0;
    } else {
        for (int i = 0; i < n; i++)
            d |= ((on[i] ? (uint32_t)t[i] : c >> (i * width)) & field) << (i * width);
    }
    return d;
}

static uint32_t reference(const char *text, uint32_t a, uint32_t b, uint32_t c)
{
    form_desc f = describe(text);
    char last = f.op[strlen(f.op) - 1];
    if (last == '2' || last == '4')
        return ref_simd(f, a, b, c);
    if (!strcmp(f.op, "vmad"))
        return ref_vmad(f, a, b, c);
    return ref_scalar(f, a, b, c);
}

// Cases worked by hand from the ISA's text, as an H200 reads it, for the
// reference itself.
static long self_test_reference()
{
    struct { const char *text; uint32_t a, b, c, want; } cases[] = {
        // 0xff + 0xffffffff as u32 is 0x1000000fe: vadd.u32.u32.u32.sat
        // does not clamp it, the GPU keeps the low word.
        { "vadd.u32.u32.u32.sat %0, %1, %2;", 0xff, 0xffffffffu, 0, 0xfeu },
        // a.b0 of 0x80 as s32 is -128; b.h1 of 0x00050000 is 5: -123.
        { "vadd.s32.s32.u32 %0, %1.b0, %2.h1;", 0x80, 0x50000, 0, 0xffffff85u },
        // The low word 0xfffffffe, sign-extended, compared unsigned (u32
        // dtype): above c = 5.
        { "vadd.u32.u32.u32.min %0, %1, %2, %3;", 0xffffffffu, 0xffffffffu, 5, 5 },
        // -2^31 - 1 keeps its low word, 0x7fffffff, above c = 1.
        { "vsub.s32.s32.u32.min %0, %1, %2, %3;", 0x80000000u, 1, 1, 1 },
        // |-2^31 - 0xffffffff| = 0x17fffffff, not cut to 33 bits: above c.
        { "vabsdiff.s32.s32.u32.max %0, %1, %2, %3;", 0x80000000u, 0xffffffffu, 1, 0x7fffffffu },
        // 0xe2 - 0x2cc5bc45 < 0 into a byte: .sat gives the top, 0xff.
        { "vsub.u32.u32.u32.sat %0.b0, %1.b1, %2, %3;", 0x6484e28fu, 0x2cc5bc45u, 1, 0xffu },
        // a.b1 = -128 (s32), into a byte of an s32 d: .sat gives 0x7f.
        { "vadd.s32.s32.s32.sat %0.b0, %1.b1, %2, %3;", 0x8000, 0, 0x6a167e5bu, 0x6a167e7fu },
        // d.h1 takes the upper half of 0x5c615c8f.
        { "vadd.u32.u32.u32 %0.h1, %1, %2, %3;", 0x5c615c89u, 6, 0x556c4f60u, 0x5c614f60u },
        // 0x5c615c89 << 6 = 0x1718572240, as .s34 0x318572240 < 0: S32_MIN.
        { "vshl.s32.s32.u32.sat.clamp %0, %1, %2;", 0x5c615c89u, 6, 0, 0x80000000u },
        // 300 saturated to a byte is 255, merged into byte 1 of c.
        { "vadd.u32.u32.u32.sat %0.b1, %1, %2, %3;", 200, 100, 0x11223344u, 0x1122ff44u },
        // -3 >> 1 (signed) is -2; 1 << 40 clamped to a shift of 32 is 2^32,
        // saturated to U32_MAX.
        { "vshr.s32.s32.u32.wrap %0, %1, %2;", 0xfffffffdu, 33, 0, 0xfffffffeu },
        { "vshl.u32.u32.u32.sat.clamp %0, %1, %2;", 1, 40, 0, 0xffffffffu },
        // vset's c is extended by atype, s32: min(1, -1) = -1.
        { "vset.s32.u32.lt.min %0, %1, %2, %3;", 0xffffffffu, 1, 0xffffffffu, 0xffffffffu },
        // -(3 * 4) + 20 = 8; .po and .shr7: (128 * 3 + 127 + 1) >> 7 = 4.
        { "vmad.s32.s32.s32 %0, -%1, %2, %3;", 3, 4, 20, 8 },
        { "vmad.u32.u32.u32.po.shr7 %0, %1, %2, %3;", 128, 3, 127, 4 },
        // u32 * u32 - u32 is signed: 2 * 3 - 10 = -4.
        { "vmad.u32.u32.u32 %0, %1, %2, -%3;", 2, 3, 10, 0xfffffffcu },
        // A whole-word u32 a = 0x80000000 is -2^31: (-2^31 + 1) >> 7,
        // logically on 64 bits (not signedFinal), keeps 0xff000000.
        { "vmad.u32.u32.u32.shr7 %0, %1, %2, %3;", 0x80000000u, 1, 1, 0xff000000u },
        // c = 0x80000000 is sign-extended: 0 + -2^31 saturates to 0, but
        // shifted (.po.shr7) it is a large unsigned number: U32_MAX.
        { "vmad.u32.u32.u32.sat %0, %1, %2, %3;", 0x7fff7fffu, 0, 0x80000000u, 0 },
        { "vmad.u32.u32.u32.po.sat.shr7 %0, %1, %2, %3;", 0x7fff7fffu, 0, 0x80000000u, 0xffffffffu },
        // Observed on an H200 (notes/vprobe-gpu.txt):
        // vadd/vsub with a u32 dtype, .sat: 0xffffffff + 0x7fffffff wraps
        // to its low word; 0xffffffff - (-1) = 2^32 wraps to 0.
        { "vadd.u32.u32.s32.sat %0, %1, %2;", 0xffffffffu, 0x7fffffffu, 0, 0x7ffffffeu },
        { "vsub.u32.u32.s32.sat %0, %1, %2;", 0xffffffffu, 0xffffffffu, 0, 0 },
        // 0xffffffff << 32 = 0xffffffff00000000, compared on 64 bits
        // unsigned: above c = 1, its low word is d.
        { "vshl.u32.u32.u32.clamp.max %0, %1, %2, %3;", 0xffffffffu, 0x7fffffffu, 1, 0 },
        // |-2^31 - 0x7fffffff| = 0xffffffff, unsigned: above c.
        { "vabsdiff.u32.s32.s32.min %0, %1, %2, %3;", 0x80000000u, 0x7fffffffu, 0x11223344u, 0x11223344u },
        // A shift into d.h1, no .sat: 0x5c615c89 >> 6 = 0x01718572, upper half.
        { "vshr.s32.s32.u32.wrap %0.h1, %1, %2, %3;", 0x5c615c89u, 6, 0x12345678u, 0x01715678u },
        // vmin's -1 into a byte of an s32 d: .sat gives the top, 0x7f.
        { "vmin.s32.s32.s32.sat %0.b0, %1, %2, %3;", 0xffffffffu, 0x7fffffffu, 1, 0x7fu },
        // vmax's 0xffffffff into d.h1, .sat: 0xffff, whose upper half is 0.
        { "vmax.u32.u32.u32.sat %0.h1, %1, %2, %3;", 0xffffffffu, 0x7fffffffu, 1, 1 },
        // SIMD: a's byte 0 and b's byte 4 (b's byte 0) into lane 0 only.
        { "vadd4.u32.u32.u32 %0.b0, %1, %2, %3;", 0x01010101u, 0x02020202u, 0xaabbccddu, 0xaabbcc03u },
        // .b0000 repeats a's byte 0; .b2222 takes byte 2 of a for b: add
        // lanes 3 and 1 (mask .b31) of 0x10 + 0x30 to c.
        { "vadd4.u32.u32.u32.add %0.b31, %1.b0000, %2.b2222, %3;", 0x00300010u, 0, 100, 100 + 2 * 0x40 },
        // vavrg2 rounds -3/2 away from zero: (-1 + -2) >> 1 = -2.
        { "vavrg2.s32.s32.s32 %0, %1, %2, %3;", 0x0000ffffu, 0x0000fffeu, 0, 0x0000fffeu },
    };
    long bad = 0;
    for (auto &k : cases) {
        uint32_t got = reference(k.text, k.a, k.b, k.c);
        if (got != k.want) {
            printf("REFERENCE %s a=%08x b=%08x c=%08x: %08x, worked by hand %08x\n", k.text, k.a, k.b, k.c, got,
                   k.want);
            bad++;
        }
    }
    return bad;
}

// Edge values of bytes, half-words and words, small shift counts, and
// random words.
static void make_inputs(int n, std::vector<uint32_t> &A, std::vector<uint32_t> &B, std::vector<uint32_t> &C)
{
    static const uint32_t edges[] = { 0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000,
                                      0x7fffffff, 0x80000000u, 0xffffffffu, 0xfffffffeu, 0x807f80ffu,
                                      0x7f80ff01u, 0x80008000u, 0x7fff7fffu, 0xff00ff00u, 0x01020304u };
    const int ne = (int)(sizeof edges / sizeof edges[0]);
    lcg r(20261130);
    A.resize(n), B.resize(n), C.resize(n);
    // Even inputs walk the pairs of edges, odd ones are random (a quarter
    // of them b a shift count up to 40), so that every size has both.
    for (int i = 0; i < n; i++) {
        int k = i / 2;
        bool edge = i % 2 == 0 && k < ne * ne;
        A[i] = edge ? edges[k % ne] : r.next();
        B[i] = edge ? edges[k / ne] : (i % 8 == 1 ? r.next() % 41 : r.next());
        C[i] = i % 3 == 0 ? edges[(i / 3) % ne] : r.next();
    }
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "video_forms");
    int n = size == SIZE_TINY ? 256 : size == SIZE_SMALL ? 4096 : 32768;
    long mismatches = self_test_reference();

    std::vector<uint32_t> A, B, C;
    make_inputs(n, A, B, C);
    uint32_t *dA, *dB, *dC, *dD;
    CHECK(cudaMalloc(&dA, n * sizeof(uint32_t)));
    CHECK(cudaMalloc(&dB, n * sizeof(uint32_t)));
    CHECK(cudaMalloc(&dC, n * sizeof(uint32_t)));
    CHECK(cudaMalloc(&dD, (size_t)NUM_FORMS * n * sizeof(uint32_t)));
    CHECK(cudaMemcpy(dA, A.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, B.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dC, C.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    const int bs = 256;
    video_kernel<<<dim3((n + bs - 1) / bs, NUM_FORMS), bs>>>(dA, dB, dC, dD, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<uint32_t> D((size_t)NUM_FORMS * n);
    CHECK(cudaMemcpy(D.data(), dD, D.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    // VIDEO_FORMS_DUMP=FILE keeps every answer (n, the forms' count, then
    // A, B, C and D as little-endian words): a GPU's answers, to hold
    // ptxsim and the reference to them where no GPU is at hand.
    if (const char *dump = getenv("VIDEO_FORMS_DUMP")) {
        FILE *f = fopen(dump, "wb");
        uint32_t head[2] = { (uint32_t)n, (uint32_t)NUM_FORMS };
        if (!f || fwrite(head, 4, 2, f) != 2 || fwrite(A.data(), 4, n, f) != (size_t)n ||
            fwrite(B.data(), 4, n, f) != (size_t)n || fwrite(C.data(), 4, n, f) != (size_t)n ||
            fwrite(D.data(), 4, D.size(), f) != D.size() || fclose(f) != 0) {
            printf("FAIL video_forms: cannot write %s\n", dump);
            return 1;
        }
    }

    int bad_forms = 0;
    for (int f = 0; f < NUM_FORMS; f++) {
        long count = 0;
        for (int i = 0; i < n; i++) {
            uint32_t want = reference(forms[f], A[i], B[i], C[i]), got = D[(size_t)f * n + i];
            if (got != want && count++ < 3)
                printf("MISMATCH %s a=%08x b=%08x c=%08x: got %08x, want %08x\n", forms[f], A[i], B[i], C[i], got,
                       want);
        }
        mismatches += count;
        bad_forms += count != 0;
    }
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    CHECK(cudaFree(dD));
    if (mismatches) {
        printf("FAIL video_forms (%s): %ld mismatches in %d of %d forms\n", size_name(size), mismatches, bad_forms,
               NUM_FORMS);
        return 1;
    }
    printf("PASS video_forms (%s): %d forms x %d inputs\n", size_name(size), NUM_FORMS, n);
    return 0;
}
