/*
 * elf_check.h -- what `ptxsim` learns from a program file before running it.
 */
#ifndef PTXSIM_ELF_CHECK_H
#define PTXSIM_ELF_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct elf_info {
    bool is_elf;
    bool needs_cudart;          /* DT_NEEDED names libcudart.so.* */
    const uint8_t *fatbin;      /* the .nv_fatbin section, inside the file image */
    size_t fatbin_bytes;
    const uint8_t *relfatbin;   /* __nv_relfatbin (-rdc=true): the translation
                                   units' fat binaries, with their PTX */
    size_t relfatbin_bytes;
} elf_info;

/* Inspect an in-memory file image.  Returns false (with why) for an ELF
 * file whose headers are corrupt; true otherwise (is_elf tells if ELF). */
bool elf_inspect(const uint8_t *img, size_t n, elf_info *out, const char **why);

#endif /* PTXSIM_ELF_CHECK_H */
