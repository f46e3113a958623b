/*
 * fp_round.c -- switching the host rounding mode for PTX's directed
 * rounding modifiers (.rz .rm .rp and their integer forms).  The common .rn
 * path never calls these, so ordinary arithmetic runs at full speed and
 * nothing leaks into the host program's floating-point state.
 */
#include "isa_int.h"

#include <fenv.h>

int isa_round_begin(uint8_t rnd)
{
    int saved = fegetround();
    int mode = FE_TONEAREST;
    switch (rnd) {
    case ISA_RND_RZ: case ISA_RND_RZI: mode = FE_TOWARDZERO; break;
    case ISA_RND_RM: case ISA_RND_RMI: mode = FE_DOWNWARD; break;
    case ISA_RND_RP: case ISA_RND_RPI: mode = FE_UPWARD; break;
    default: break;
    }
    if (mode != saved)
        fesetround(mode);
    return saved;
}

void isa_round_end(int saved)
{
    if (fegetround() != saved)
        fesetround(saved);
}
