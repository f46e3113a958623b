/*
 * device_calls.c -- the host side of functions kernels call but do not
 * define: vprintf (device printf) and __assertfail (device assert).
 *
 * Device printf packs its arguments into a buffer, each aligned to its own
 * size; the format string says what they are.  The whole format is printed
 * with one variadic call to the host's fprintf built at run time with
 * libffi, so every conversion, flag, width and precision behaves exactly as
 * the C library's.  It goes to the call's stream: stdout, or the buffer of
 * the unit of CTAs a host thread runs (exec/grid.c prints those in launch
 * order when the launch ends).
 */
#include "rt_int.h"

#include <ffi.h>
#include <stdio.h>
#include <string.h>

#define MAX_PRINTF_ARGS 64

/* A NUL-terminated string at a device address, or NULL if it runs out of
 * valid memory first. */
static const char *device_string(const exec_host_call *c, uint64_t addr)
{
    uint64_t avail;
    const char *s = exec_host_ptr(c, addr, &avail);
    if (!s || !memchr(s, '\0', avail > (1u << 20) ? (1u << 20) : avail))
        return NULL;
    return s;
}

typedef union { int i; long long ll; double d; void *p; } ffi_slot;

static ptx_status do_vprintf(const exec_host_call *c, uint64_t *ret)
{
    const char *fmt = device_string(c, c->args[0]);
    if (!fmt) {
        rt_say("printf in a kernel: the format string is not a valid device string");
        return PTX_OK;
    }
    uint64_t avail = 0;
    const uint8_t *buf = c->args[1] ? exec_host_ptr(c, c->args[1], &avail) : NULL;
    uint64_t at = 0;
    ffi_type *types[MAX_PRINTF_ARGS + 2];
    ffi_slot slots[MAX_PRINTF_ARGS + 2];
    void *values[MAX_PRINTF_ARGS + 2];
    unsigned n = 0;
    types[n] = &ffi_type_pointer;
    slots[n].p = c->out ? c->out : stdout;
    values[n] = &slots[n];
    n++;
    types[n] = &ffi_type_pointer;
    slots[n].p = (void *)fmt;
    values[n] = &slots[n];
    n++;
    /* Take the next argument of `bytes` bytes from the buffer. */
#define TAKE(bytes, dst)                                                     \
    do {                                                                     \
        at = (at + (bytes) - 1) / (bytes) * (bytes);                         \
        if (!buf || at + (bytes) > avail) goto truncated;                    \
        memcpy(&(dst), buf + at, (bytes));                                   \
        at += (bytes);                                                       \
    } while (0)
    for (const char *p = fmt; *p; p++) {
        if (*p != '%')
            continue;
        if (p[1] == '%') {
            p++;
            continue;
        }
        p++;
        while (*p && strchr("-+ #0", *p))
            p++;
        for (int field = 0; field < 2; field++) {   /* width, then precision */
            if (field == 1) {
                if (*p != '.')
                    break;
                p++;
            }
            if (*p == '*') {
                if (n == MAX_PRINTF_ARGS + 1)
                    goto too_many;
                int v = 0;
                TAKE(4, v);
                types[n] = &ffi_type_sint;
                slots[n].i = v;
                values[n] = &slots[n];
                n++;
                p++;
            } else {
                while (*p >= '0' && *p <= '9')
                    p++;
            }
        }
        int longs = 0;
        while (*p && strchr("hlLqjzt", *p)) {
            if (*p == 'l' || *p == 'L' || *p == 'q' || *p == 'j' || *p == 'z' || *p == 't')
                longs++;
            p++;
        }
        if (!*p)
            break;
        if (n == MAX_PRINTF_ARGS + 1)
            goto too_many;
        switch (*p) {
        case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c':
            if (longs) {
                long long v = 0;
                TAKE(8, v);
                types[n] = &ffi_type_sint64;
                slots[n].ll = v;
            } else {
                int v = 0;
                TAKE(4, v);
                types[n] = &ffi_type_sint;
                slots[n].i = v;
            }
            break;
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
            double v = 0;       /* device printf passes floats as double */
            TAKE(8, v);
            types[n] = &ffi_type_double;
            slots[n].d = v;
            break;
        }
        case 's': {
            uint64_t v = 0;
            TAKE(8, v);
            const char *s = v ? device_string(c, v) : "(null)";
            types[n] = &ffi_type_pointer;
            slots[n].p = (void *)(s ? s : "(invalid string)");
            break;
        }
        case 'p': {
            uint64_t v = 0;
            TAKE(8, v);
            types[n] = &ffi_type_pointer;
            slots[n].p = (void *)(uintptr_t)v;
            break;
        }
        default:
            continue;           /* not a conversion printf knows; printed as is */
        }
        values[n] = &slots[n];
        n++;
    }
#undef TAKE
    ffi_cif cif;
    if (ffi_prep_cif_var(&cif, FFI_DEFAULT_ABI, 2, n, &ffi_type_sint, types) != FFI_OK) {
        rt_say("printf in a kernel: cannot build the call for \"%s\"", fmt);
        return PTX_OK;
    }
    ffi_arg result = 0;
    ffi_call(&cif, FFI_FN(fprintf), &result, values);
    *ret = (uint64_t)(int64_t)(int)result;
    return PTX_OK;
truncated:
    rt_say("printf in a kernel: the arguments of \"%s\" run past their buffer", fmt);
    return PTX_OK;
too_many:
    rt_say("printf in a kernel: more than %d arguments in \"%s\"", MAX_PRINTF_ARGS, fmt);
    return PTX_OK;
}

/* __assertfail(message, file, line, function, charSize): report as the CUDA
 * driver does, then fail the launch with cudaErrorAssert. */
static ptx_status do_assertfail(const exec_host_call *c)
{
    const char *msg = device_string(c, c->args[0]), *file = device_string(c, c->args[1]);
    const char *func = device_string(c, c->args[3]);
    fflush(stdout);
    fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
            file ? file : "?", (unsigned)c->args[2], func ? func : "?", c->ctaid[0], c->ctaid[1],
            c->ctaid[2], c->tid[0], c->tid[1], c->tid[2], msg ? msg : "?");
    return PTX_E_ASSERT;
}

ptx_status rt_device_call(void *ctx, const exec_host_call *c, uint64_t *ret)
{
    if (exec_is_device_runtime(c->name))
        return rt_device_runtime_call(ctx, c, ret);
    if (strcmp(c->name, "vprintf") == 0)
        return do_vprintf(c, ret);
    if (strcmp(c->name, "__assertfail") == 0)
        return do_assertfail(c);
    if (strcmp(c->name, "cudaGraphSetConditional") == 0)
        return rt_cond_device_set(c->args[0], (unsigned)c->args[1]);
    if (strcmp(c->name, "cudaGraphLaunch") == 0) {
        /* Device graph launch: the module loads and its other kernels run;
         * a launch returns cudaErrorNotSupported to the kernel, which
         * cudaGraphInstantiateFlagDeviceLaunch's refusal already told. */
        static bool said;
        if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
            rt_say("cudaGraphLaunch in a kernel: device graph launch is not implemented (cudaErrorNotSupported)");
        *ret = cudaErrorNotSupported;
        return PTX_OK;
    }
    return PTX_E_UNSUPPORTED;
}
