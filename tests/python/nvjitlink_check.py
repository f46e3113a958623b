"""ptxsim's libnvJitLink.so.13 on its own (no GPU stack needed): a PTX link
returns the PTX as the image; a second module, a cubin and a missing -arch
are refused as nvJitLink.h says.  Usage: nvjitlink_check.py LIBDIR"""
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
check("a second module", lib.nvJitLinkAddData(h, INPUT_PTX, PTX, len(PTX), b"k2.ptx"), INVALID_INPUT)
check("a cubin", lib.nvJitLinkAddData(h, INPUT_CUBIN, b"\x7fELF" + bytes(60), 64, b"k.cubin"), UNRECOGNIZED_INPUT)
check("error log names the input", "k2.ptx" in error_log(h), True)
check("complete", lib.nvJitLinkComplete(h), SUCCESS)
n = ctypes.c_size_t()
check("cubin size", (lib.nvJitLinkGetLinkedCubinSize(h, ctypes.byref(n)), n.value), (SUCCESS, len(PTX) + 1))
img = ctypes.create_string_buffer(n.value)
check("the image is the PTX", (lib.nvJitLinkGetLinkedCubin(h, img), img.raw), (SUCCESS, PTX + b"\0"))
check("destroy", lib.nvJitLinkDestroy(ctypes.byref(h)), SUCCESS)

if failures:
    print(f"FAIL nvjitlink_check: {failures} check(s) failed")
    sys.exit(1)
print("PASS nvjitlink_check")
