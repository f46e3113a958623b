/*
 * jit_none.c -- the compiling tier's interface in a build without libLLVM
 * (jit/CMakeLists.txt): nothing compiles, and jit_available says why.
 */
#include "jit.h"

#include <stdio.h>

static const char why_not[] = "ptxsim was built without libLLVM (llvm-22-dev and clang-22)";

bool jit_available(const char **why)
{
    if (why)
        *why = why_not;
    return false;
}

bool jit_inst_compilable(const isa_inst *in)
{
    (void)in;
    return false;
}

uint32_t jit_find_regions(const isa_inst *code, uint32_t ncode, const uint8_t *leader, jit_region *out)
{
    (void)code, (void)ncode, (void)leader, (void)out;
    return 0;
}

jit_code *jit_compile(const isa_inst *code, jit_region *regions, uint32_t n, char *err, size_t errlen)
{
    (void)code, (void)regions, (void)n;
    snprintf(err, errlen, "%s", why_not);
    return NULL;
}

void jit_free(jit_code *c) { (void)c; }
double jit_compile_seconds(const jit_code *c) { (void)c; return 0; }
uint32_t jit_compiled_insts(const jit_code *c) { (void)c; return 0; }
