/*
 * cu_interop.c -- the driver's graphics interop entry points (cudaGL.h,
 * cudaEGL.h, cudaVDPAU.h), which ptxsim has no graphics stack to share
 * with.
 *
 * A real libcuda exports them whether or not a display exists, and
 * libraries look every one up at start through cuGetProcAddress (NVIDIA
 * Warp prints an error for each it cannot find).  They exist here so the
 * look-up succeeds; a call names itself once and returns
 * CUDA_ERROR_NOT_SUPPORTED, as the stubs of cuda.h's unimplemented entry
 * points do.  Their parameters are never read, so they are declared
 * without them: the headers need GL, EGL and VDPAU's own.
 */
#include "cu_int.h"

#define INTEROP_ENTRY_POINTS(X) \
    X(cuGLCtxCreate) X(cuGLCtxCreate_v2) X(cuGLGetDevices) X(cuGLGetDevices_v2) X(cuGLInit) \
    X(cuGLMapBufferObject) X(cuGLMapBufferObject_v2) X(cuGLMapBufferObject_v2_ptds) \
    X(cuGLMapBufferObjectAsync) X(cuGLMapBufferObjectAsync_v2) X(cuGLMapBufferObjectAsync_v2_ptsz) \
    X(cuGLRegisterBufferObject) X(cuGLSetBufferObjectMapFlags) X(cuGLUnmapBufferObject) \
    X(cuGLUnmapBufferObjectAsync) X(cuGLUnregisterBufferObject) X(cuGraphicsGLRegisterBuffer) \
    X(cuGraphicsGLRegisterImage) X(cuWGLGetDevice) \
    X(cuEGLStreamConsumerAcquireFrame) X(cuEGLStreamConsumerConnect) X(cuEGLStreamConsumerConnectWithFlags) \
    X(cuEGLStreamConsumerDisconnect) X(cuEGLStreamConsumerReleaseFrame) X(cuEGLStreamProducerConnect) \
    X(cuEGLStreamProducerDisconnect) X(cuEGLStreamProducerPresentFrame) X(cuEGLStreamProducerReturnFrame) \
    X(cuEventCreateFromEGLSync) X(cuGraphicsEGLRegisterImage) X(cuGraphicsResourceGetMappedEglFrame) \
    X(cuGraphicsVDPAURegisterOutputSurface) X(cuGraphicsVDPAURegisterVideoSurface) X(cuVDPAUCtxCreate) \
    X(cuVDPAUCtxCreate_v2) X(cuVDPAUGetDevice)

#define INTEROP_STUB(name) \
    CUresult name(void); \
    CUresult name(void) { return (CUresult)rt_unimplemented(#name); }
INTEROP_ENTRY_POINTS(INTEROP_STUB)
