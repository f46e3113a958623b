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

const char *jit_inst_left(const isa_inst *in)
{
    (void)in;
    return why_not;
}

bool jit_block_starts(const isa_inst *code, uint32_t start, uint32_t end, const uint8_t *leader, uint32_t pc)
{
    (void)code, (void)start, (void)end, (void)leader, (void)pc;
    return false;
}

jit_code *jit_compile(jit_level level, const isa_inst *code, const uint8_t *leader, jit_unit *units, uint32_t n,
                      char *err, size_t errlen)
{
    (void)level, (void)code, (void)leader, (void)units, (void)n;
    snprintf(err, errlen, "%s", why_not);
    return NULL;
}

bool jit_is_cached(jit_level level, const isa_inst *code, const uint8_t *leader, uint32_t start, uint32_t n)
{
    (void)level, (void)code, (void)leader, (void)start, (void)n;
    return false;
}

void jit_free(jit_code *c) { (void)c; }
double jit_compile_seconds(const jit_code *c) { (void)c; return 0; }
uint32_t jit_compiled_insts(const jit_code *c) { (void)c; return 0; }
uint32_t jit_cached_insts(const jit_code *c) { (void)c; return 0; }
