#pragma once
// Element types of the multiplicands and of the accumulator.
enum { TY_F16, TY_BF16, TY_TF32, TY_E4M3, TY_E5M2, TY_S8, TY_U8 };
enum { DT_F32, DT_F16, DT_S32 };
