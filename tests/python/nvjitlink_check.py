"""ptxsim's libnvJitLink.so.13 on its own (no GPU stack needed): a PTX link
returns the PTX as the image; two -rdc units are linked into one module; a
name defined twice, a cubin and a missing -arch are refused as nvJitLink.h
says.  Usage: nvjitlink_check.py LIBDIR"""
import ctypes
import sys

lib = ctypes.CDLL(f"{sys.argv[1]}/libnvJitLink.so.13")
SUCCESS, MISSING_ARCH, INVALID_INPUT, UNRECOGNIZED_INPUT = 0, 2, 3, 8
INPUT_CUBIN, INPUT_PTX, INPUT_ANY = 1, 2, 10
PTX = b""".version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p) { ret; }
"""
# Two units: the kernel calls a function the other defines.
UNIT_A = b""".version 8.0
.target sm_90
.address_size 64
.extern .func (.param .b32 r) twice(.param .b32 x);
.visible .entry apply(.param .u64 p)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    ld.global.u32 %r1, [%rd1];
    {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], %r1;
    call.uni (b), twice, (a);
    ld.param.b32 %r2, [b];
    }
    st.global.u32 [%rd1], %r2;
    ret;
}
"""
UNIT_B = b""".version 8.0
.target sm_90
.address_size 64
.visible .func (.param .b32 r) twice(.param .b32 x)
{
    .reg .b32 %r<3>;
    ld.param.b32 %r1, [x];
    add.s32 %r2, %r1, %r1;
    st.param.b32 [r], %r2;
    ret;
}
"""
failures = 0


def check(what, got, want):
    global failures
    if got == want:
        print(f"ok   {what}")
    else:
        failures += 1
        print(f"FAIL {what}: got {got!r}, want {want!r}")


def create(*opts):
    h = ctypes.c_void_p()
    arr = (ctypes.c_char_p * len(opts))(*opts)
    return lib.nvJitLinkCreate(ctypes.byref(h), len(opts), arr), h


def error_log(h):
    n = ctypes.c_size_t()
    lib.nvJitLinkGetErrorLogSize(h, ctypes.byref(n))
    buf = ctypes.create_string_buffer(n.value)
    lib.nvJitLinkGetErrorLog(h, buf)
    return buf.value.decode()


major, minor = ctypes.c_uint(), ctypes.c_uint()
check("version", (lib.nvJitLinkVersion(ctypes.byref(major), ctypes.byref(minor)), major.value), (SUCCESS, 13))
check("no -arch", create(b"-O3")[0], MISSING_ARCH)

r, h = create(b"-arch=sm_90", b"-maxrregcount=32")
check("create", r, SUCCESS)
check("add PTX (as ANY)", lib.nvJitLinkAddData(h, INPUT_ANY, PTX, len(PTX), b"k.ptx"), SUCCESS)
check("a cubin", lib.nvJitLinkAddData(h, INPUT_CUBIN, b"\x7fELF" + bytes(60), 64, b"k.cubin"), UNRECOGNIZED_INPUT)
check("error log names the input", "k.cubin" in error_log(h), True)
check("complete", lib.nvJitLinkComplete(h), SUCCESS)
n = ctypes.c_size_t()
check("cubin size", (lib.nvJitLinkGetLinkedCubinSize(h, ctypes.byref(n)), n.value), (SUCCESS, len(PTX) + 1))
img = ctypes.create_string_buffer(n.value)
check("the image is the PTX", (lib.nvJitLinkGetLinkedCubin(h, img), img.raw), (SUCCESS, PTX + b"\0"))
check("destroy", lib.nvJitLinkDestroy(ctypes.byref(h)), SUCCESS)

r, h = create(b"-arch=sm_90")
for unit, name in ((UNIT_A, b"a.ptx"), (UNIT_B, b"b.ptx")):
    lib.nvJitLinkAddData(h, INPUT_PTX, unit, len(unit), name)
check("link two units", lib.nvJitLinkComplete(h), SUCCESS)
lib.nvJitLinkGetLinkedPtxSize(h, ctypes.byref(n))
img = ctypes.create_string_buffer(n.value)
lib.nvJitLinkGetLinkedPtx(h, img)
text = img.value.decode()
check("one module with both", (text.count(".version"), ".entry apply" in text, "twice(" in text), (1, True, True))
lib.nvJitLinkDestroy(ctypes.byref(h))

r, h = create(b"-arch=sm_90")
for name in (b"b1.ptx", b"b2.ptx"):
    lib.nvJitLinkAddData(h, INPUT_PTX, UNIT_B, len(UNIT_B), name)
check("a name defined twice", lib.nvJitLinkComplete(h), INVALID_INPUT)
check("... is in the error log", "twice" in error_log(h), True)
lib.nvJitLinkDestroy(ctypes.byref(h))

if failures:
    print(f"FAIL nvjitlink_check: {failures} check(s) failed")
    sys.exit(1)
print("PASS nvjitlink_check")
