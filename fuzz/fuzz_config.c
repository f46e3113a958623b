/*
 * fuzz_config.c -- libFuzzer target: bytes as a timing configuration file,
 * as a GPGPU-Sim gpgpusim.config and as a command-line override string.
 */
#include "fuzz.h"
#include "timing.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tm_config c;
    tm_config_defaults(&c);
    ptx_diag d = {0};
    tm_config_parse(&c, (const char *)data, size, "fuzz.cfg", &d);
    tm_config_check(&c, &d);
    tm_config_defaults(&c);
    tm_gpgpusim_parse(&c, (const char *)data, size, "fuzz.config", NULL, &d);
    char *s = malloc(size + 1);
    if (s) {
        memcpy(s, data, size);
        s[size] = '\0';
        tm_config_set(&c, s, &d);
        free(s);
    }
    return 0;
}
