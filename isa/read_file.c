/*
 * read_file.c -- a whole file in memory: PTX, fat binaries, programs and
 * config files all arrive this way.
 */
#include "isa.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

char *ptx_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *grown = realloc(buf, cap * 2 + 1);
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    bool failed = ferror(f);
    fclose(f);
    if (buf && failed) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    if (!buf) {
        errno = ENOMEM;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}
