/*
 * fuzz_fatbin.c -- libFuzzer target: bytes as a fat binary: the container
 * walk, every entry's decompression, and the PTX chosen from it parsed.
 */
#include "fuzz.h"
#include "frontend.h"

#include <stdlib.h>

static bool each(void *ctx, const fe_fatbin_entry *e)
{
    (void)ctx;
    ptx_diag d = {0};
    char *text;
    size_t len;
    if (fe_fatbin_payload(e, &text, &len, &d) == PTX_OK)
        free(text);
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ptx_diag d = {0};
    size_t bytes;
    fe_fatbin_size(data, size, &bytes, &d);
    fe_fatbin_walk(data, size, each, NULL, &d);
    char *text = NULL;
    size_t len;
    if (fe_fatbin_ptx(data, size, 75, &text, &len, &d) == PTX_OK) {
        isa_module *m = fe_parse(text, len, "fuzz.ptx", &d);
        isa_module_free(m);
        free(text);
    }
    return 0;
}
