/*
 * elf_check.c -- reading just enough of an ELF64 file to find its
 * .nv_fatbin and __nv_relfatbin sections and its DT_NEEDED libraries.  All offsets are checked
 * against the file size: the file is untrusted.
 */
#include "elf_check.h"

#include <elf.h>
#include <string.h>

static bool in_file(size_t n, uint64_t off, uint64_t len)
{
    return off <= n && len <= n - off;
}

bool elf_inspect(const uint8_t *img, size_t n, elf_info *out, const char **why)
{
    memset(out, 0, sizeof *out);
    if (n < EI_NIDENT || memcmp(img, ELFMAG, SELFMAG) != 0)
        return true;                        /* not ELF: the caller decides */
    out->is_elf = true;
    if (img[EI_CLASS] != ELFCLASS64 || n < sizeof(Elf64_Ehdr)) {
        *why = "not a 64-bit ELF file";
        return false;
    }
    Elf64_Ehdr eh;
    memcpy(&eh, img, sizeof eh);
    if (eh.e_shentsize != sizeof(Elf64_Shdr) || !in_file(n, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr)) ||
        eh.e_shstrndx >= eh.e_shnum) {
        *why = "its section headers are corrupt or truncated";
        return false;
    }
    const uint8_t *sh = img + eh.e_shoff;
    Elf64_Shdr strs;
    memcpy(&strs, sh + (size_t)eh.e_shstrndx * sizeof strs, sizeof strs);
    if (!in_file(n, strs.sh_offset, strs.sh_size)) {
        *why = "its section name table lies outside the file";
        return false;
    }
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr s;
        memcpy(&s, sh + (size_t)i * sizeof s, sizeof s);
        if (s.sh_name >= strs.sh_size)
            continue;
        const char *name = (const char *)img + strs.sh_offset + s.sh_name;
        size_t maxlen = strs.sh_size - s.sh_name;
        if (strnlen(name, maxlen) == maxlen)
            continue;
        bool rel = strcmp(name, "__nv_relfatbin") == 0;
        if ((rel || strcmp(name, ".nv_fatbin") == 0) && s.sh_type != SHT_NOBITS) {
            if (!in_file(n, s.sh_offset, s.sh_size)) {
                *why = rel ? "its __nv_relfatbin section lies outside the file (truncated?)"
                           : "its .nv_fatbin section lies outside the file (truncated?)";
                return false;
            }
            *(rel ? &out->relfatbin : &out->fatbin) = img + s.sh_offset;
            *(rel ? &out->relfatbin_bytes : &out->fatbin_bytes) = s.sh_size;
        } else if (s.sh_type == SHT_DYNAMIC && s.sh_link < eh.e_shnum) {
            Elf64_Shdr ds;
            memcpy(&ds, sh + (size_t)s.sh_link * sizeof ds, sizeof ds);
            if (!in_file(n, s.sh_offset, s.sh_size) || !in_file(n, ds.sh_offset, ds.sh_size))
                continue;
            for (uint64_t off = 0; off + sizeof(Elf64_Dyn) <= s.sh_size; off += sizeof(Elf64_Dyn)) {
                Elf64_Dyn d;
                memcpy(&d, img + s.sh_offset + off, sizeof d);
                if (d.d_tag == DT_NULL)
                    break;
                if (d.d_tag != DT_NEEDED || d.d_un.d_val >= ds.sh_size)
                    continue;
                const char *lib = (const char *)img + ds.sh_offset + d.d_un.d_val;
                if (strncmp(lib, "libcudart.so", 12) == 0)
                    out->needs_cudart = true;
            }
        }
    }
    return true;
}
