/*
 * fuzz_ptx.c -- libFuzzer target: PTX text through the parser, the
 * analysis, the printer and the engine's layout.  Nothing may crash, leak
 * or hang, whatever the bytes.
 */
#include "fuzz.h"
#include "exec.h"
#include "frontend.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ptx_diag d = {0};
    isa_module *m = fe_parse((const char *)data, size, "fuzz.ptx", &d);
    if (!m)
        return 0;
    FILE *sink = fopen("/dev/null", "w");
    if (sink) {
        fe_print(sink, m);
        fclose(sink);
    }
    exec_memory *mem = exec_memory_new(1u << 26);
    exec_program *p = NULL;
    if (mem && exec_program_load(mem, m, &p, &d) == PTX_OK)
        exec_program_free(p);
    exec_memory_free(mem);
    isa_module_free(m);
    return 0;
}
