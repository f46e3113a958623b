/*
 * rt_regs.c -- how many registers each kernel really uses.
 *
 * PTX registers are virtual: a kernel names hundreds where ptxas allocates
 * a few dozen, and occupancy (how many blocks an SM holds) follows from the
 * allocated count.  A driver on a real GPU uses the machine code built for
 * the device if the program carries it, and compiles the PTX for the device
 * otherwise.  ptxsim does the same, in this order:
 *
 *   1. the program's cubin for the simulated architecture (nvcc and clang
 *      embed one next to the PTX): "cubin sm_90";
 *   2. ptxas, when it is installed, run on the module's PTX for the
 *      simulated architecture, once per module (the cubin is kept in a
 *      cache folder, PTXSIM_CACHE_DIR or ~/.cache/ptxsim): "ptxas sm_90";
 *   3. the program's cubin for the nearest other architecture: "cubin sm_75
 *      (nearest)";
 *   4. none: the PTX count, as exec/ estimates it.
 *
 * PTXSIM_PTXAS names the ptxas to run (default: the one on PATH, else the
 * toolkit's); PTXSIM_PTXAS=off skips step 2.  The count is resolved lazily,
 * when a timing-mode launch or a program's attribute query needs it, so
 * functional runs never start ptxas.
 */
#define _GNU_SOURCE   /* memmem */
#include "rt_int.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef struct regs_apply {
    rt_module *m;
    uint32_t found;
} regs_apply;

static bool apply_one(void *ctx, const fe_kernel_res *r)
{
    regs_apply *a = ctx;
    int k = exec_program_kernel(a->m->prog, r->name);
    if (k >= 0) {
        exec_program_set_machine_regs(a->m->prog, k, r->regs, a->m->regs_from);
        a->found++;
    }
    return true;
}

/* Take the counts of a cubin; true if it named at least one kernel of m. */
static bool apply_cubin(rt_module *m, const uint8_t *elf, size_t len)
{
    regs_apply a = { m, 0 };
    ptx_diag d = {0};
    if (fe_cubin_kernels(elf, len, apply_one, &a, &d) != PTX_OK) {
        rt_say("%s: the machine code's register counts are unreadable (%s); using the PTX's", m->name, d.msg);
        return false;
    }
    return a.found > 0;
}

/* ---- ptxas ------------------------------------------------------------------ */

static bool executable(const char *path) { return access(path, X_OK) == 0; }

/* The ptxas to run, or false. */
static bool find_ptxas(char *out, size_t n)
{
    const char *env = getenv("PTXSIM_PTXAS");
    if (env && *env) {
        if (!strcmp(env, "off") || !strcmp(env, "0"))
            return false;
        snprintf(out, n, "%s", env);
        return executable(out);
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t len = strcspn(path, ":");
        if (len && (size_t)snprintf(out, n, "%.*s/ptxas", (int)len, path) < n && executable(out))
            return true;
        path += len + (path[len] == ':');
    }
    snprintf(out, n, "/usr/local/cuda/bin/ptxas");
    return executable(out);
}

static bool cache_dir(char *out, size_t n)
{
    const char *env = getenv("PTXSIM_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (env && *env)
        snprintf(out, n, "%s", env);
    else if (xdg && *xdg)
        snprintf(out, n, "%s/ptxsim", xdg);
    else if (home && *home)
        snprintf(out, n, "%s/.cache/ptxsim", home);
    else
        return false;
    /* Make each missing level (mkdir -p). */
    for (char *p = out + 1;; p++) {
        if (*p == '/' || !*p) {
            char c = *p;
            *p = '\0';
            if (mkdir(out, 0755) != 0 && errno != EEXIST)
                return false;
            if (!(*p = c))
                break;
        }
    }
    return true;
}

/* FNV-1a over the PTX, the architecture and the ptxas binary's identity:
 * the cached cubin is only reused for exactly what made it. */
static uint64_t cache_key(const char *ptx, size_t len, uint32_t sm, const char *ptxas)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)ptx[i]) * 1099511628211ull;
    struct stat st;
    uint64_t id[3] = { sm, 0, 0 };
    if (stat(ptxas, &st) == 0) {
        id[1] = (uint64_t)st.st_size;
        id[2] = (uint64_t)st.st_mtime;
    }
    for (size_t i = 0; i < sizeof id; i++)
        h = (h ^ ((const uint8_t *)id)[i]) * 1099511628211ull;
    return h;
}

static bool write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* The architecture-specific suffix ("a" or "f") of the PTX's target when
 * it names sm itself (.target sm_90a, as Numba-CUDA writes for a 9.0
 * device): ptxas compiles such PTX only for that variant ("PTX with
 * .target 'sm_90a' cannot be compiled for architecture 'sm_90'"), whose
 * register allocation is sm's. */
static const char *target_suffix(const char *ptx, size_t len, uint32_t sm)
{
    const char *end = ptx + len;
    for (const char *p = ptx; p + 8 < end; p++) {
        if (memcmp(p, ".target", 7) != 0)
            continue;
        p += 7;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        char name[16];
        int k = snprintf(name, sizeof name, "sm_%u", sm);
        if (end - p > k && memcmp(p, name, (size_t)k) == 0) {
            if (p[k] == 'a')
                return "a";
            if (p[k] == 'f')
                return "f";
        }
        return "";
    }
    return "";
}

/* Run ptxas on the PTX for sm (with the target's suffix) into `cubin`;
 * its messages go to `log`. */
static bool run_ptxas(const char *ptxas, const char *ptx_path, const char *cubin, const char *log, uint32_t sm,
                      const char *suffix)
{
    char arch[32];
    snprintf(arch, sizeof arch, "-arch=sm_%u%s", sm, suffix);
    char *argv[] = { (char *)ptxas, arch, (char *)"-o", (char *)cubin, (char *)ptx_path, NULL };
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    /* ptxas is an outside tool: it runs without what LD_PRELOAD loads into
     * this process (a sanitizer's runtime, say). */
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 1, sizeof *env);
    if (!env) {
        posix_spawn_file_actions_destroy(&fa);
        return false;
    }
    for (size_t i = 0, k = 0; i < n; i++)
        if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
            env[k++] = environ[i];
    pid_t pid;
    int rc = posix_spawn(&pid, ptxas, &fa, NULL, argv, env);
    free(env);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return false;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* The first line of a file, for a message. */
static void first_line(const char *path, char *out, size_t n)
{
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (fgets(out, (int)n, f))
        out[strcspn(out, "\n")] = '\0';
    fclose(f);
}

/* Run ptxas on `len` bytes of PTX into the file `cubin`; on failure the
 * first line of its messages is in why. */
static bool compile(const char *ptxas, const char *dir, const char *ptx, size_t len, uint32_t sm, const char *cubin,
                    char *why, size_t why_len)
{
    /* Made under temporary names and renamed into place, so processes
     * that share the cache never see half a file. */
    char src[1100], tmp[1100], log[1100];
    snprintf(src, sizeof src, "%s/ptx-XXXXXX", dir);
    int fd = mkstemp(src);
    if (fd < 0) {
        snprintf(why, why_len, "cannot write in %s: %s", dir, strerror(errno));
        return false;
    }
    bool ok = write_all(fd, ptx, len);
    close(fd);
    snprintf(tmp, sizeof tmp, "%s.cubin", src);
    snprintf(log, sizeof log, "%s.log", src);
    ok = ok && run_ptxas(ptxas, src, tmp, log, sm, target_suffix(ptx, len, sm)) && rename(tmp, cubin) == 0;
    if (!ok) {
        first_line(log, why, why_len);
        unlink(tmp);
    }
    unlink(src);
    unlink(log);
    return ok;
}

/* The PTX again, its .version lowered to `version` ("9.0"), or NULL:
 * PTX from a newer toolkit (NVIDIA Warp brings NVRTC 13.4) for an older
 * ptxas, which refuses the version although the instructions are
 * mostly the same. */
static char *lower_version(const char *ptx, size_t len, const char *version, size_t *out_len)
{
    const char *v = memmem(ptx, len, ".version", 8);
    if (!v)
        return NULL;
    const char *num = v + 8;
    while (num < ptx + len && (*num == ' ' || *num == '\t'))
        num++;
    const char *end = num;
    while (end < ptx + len && ((*end >= '0' && *end <= '9') || *end == '.'))
        end++;
    size_t vlen = strlen(version);
    char *out = malloc(len - (size_t)(end - num) + vlen + 1);
    if (!out)
        return NULL;
    size_t head = (size_t)(num - ptx);
    memcpy(out, ptx, head);
    memcpy(out + head, version, vlen);
    memcpy(out + head + vlen, end, len - (size_t)(end - ptx));
    *out_len = len - (size_t)(end - num) + vlen;
    out[*out_len] = '\0';
    return out;
}

/* The cubin ptxas makes of m's PTX for sm, from the cache or made now
 * (malloc'd; caller frees), or NULL. */
static uint8_t *ptxas_cubin(rt_module *m, const char *ptx, size_t len, uint32_t sm, size_t *out_len)
{
    char ptxas[1024], dir[1024];
    if (!find_ptxas(ptxas, sizeof ptxas) || !cache_dir(dir, sizeof dir))
        return NULL;
    char cubin[1100];
    snprintf(cubin, sizeof cubin, "%s/%016llx-sm_%u.cubin", dir,
             (unsigned long long)cache_key(ptx, len, sm, ptxas), sm);
    uint8_t *img = (uint8_t *)ptx_read_file(cubin, out_len);
    if (img)
        return img;
    char why[300] = "";
    bool ok = compile(ptxas, dir, ptx, len, sm, cubin, why, sizeof why);
    /* "Unsupported .version 9.4; current version is '9.0'" */
    const char *newest = strstr(why, "current version is '");
    if (!ok && newest && strstr(why, "Unsupported .version")) {
        char version[16];
        if (sscanf(newest + 20, "%15[0-9.]", version) == 1) {
            size_t lower_len;
            char *lower = lower_version(ptx, len, version, &lower_len);
            char again[300] = "";
            if (lower && compile(ptxas, dir, lower, lower_len, sm, cubin, again, sizeof again))
                ok = true;
            else
                snprintf(why + strlen(why), sizeof why - strlen(why), "; as PTX %s: %s", version, again);
            free(lower);
        }
    }
    if (ok)
        return (uint8_t *)ptx_read_file(cubin, out_len);
    rt_say("%s: %s could not compile the PTX for sm_%u%s%s", m->name, ptxas, sm, *why ? ": " : "", why);
    return NULL;
}

/* The module's PTX text, for ptxas (malloc'd or m->ptx), or NULL. */
static char *module_ptx(rt_module *m, size_t *len)
{
    if (m->ptx) {
        *len = m->ptx_len;
        return m->ptx;
    }
    char *text = NULL;
    if (!m->fatbin || fe_fatbin_ptx(m->fatbin, m->fatbin_bytes, rt.cfg.sm, &text, len, NULL) != PTX_OK)
        return NULL;
    return text;
}

void rt_module_machine_regs(rt_module *m)
{
    if (m->regs_done || !m->prog)
        return;
    m->regs_done = true;
    uint32_t want = rt.cfg.sm, got = 0;
    uint8_t *elf = NULL;
    size_t n = 0;
    if (m->fatbin)
        fe_fatbin_cubin(m->fatbin, m->fatbin_bytes, want, &elf, &n, &got, NULL);
    if (elf && got == want) {
        snprintf(m->regs_from, sizeof m->regs_from, "cubin sm_%u", got);
        if (apply_cubin(m, elf, n)) {
            free(elf);
            return;
        }
    }
    /* Several translation units (-rdc=true) have no one PTX to compile. */
    size_t len;
    char *ptx = m->nprelinked ? NULL : module_ptx(m, &len);
    if (ptx) {
        size_t clen;
        uint8_t *compiled = ptxas_cubin(m, ptx, len, want, &clen);
        if (ptx != m->ptx)
            free(ptx);
        snprintf(m->regs_from, sizeof m->regs_from, "ptxas sm_%u", want);
        bool ok = compiled && apply_cubin(m, compiled, clen);
        free(compiled);
        if (ok) {
            free(elf);
            return;
        }
    }
    if (elf) {
        snprintf(m->regs_from, sizeof m->regs_from, "cubin sm_%u (nearest)", got);
        apply_cubin(m, elf, n);
    }
    free(elf);
}
