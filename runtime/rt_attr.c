/*
 * rt_attr.c -- launch attributes as streams and kernel nodes keep them
 * (cudaStreamSetAttribute, cudaGraphKernelNodeSetAttribute and their Get
 * and Copy forms).
 *
 * Every value is checked as CUDA documents it and read back as it was set,
 * but none changes what a kernel computes, and none changes timing either:
 * the access policy window asks the L2 to keep a range persisting, and the
 * timing model has no persisting lines (the device reports
 * cudaDevAttrMaxPersistingL2CacheSize 0); priorities order work between
 * streams, which ptxsim runs in issue order; synchronisation policies and
 * memory synchronisation domains concern how the host waits and how fences
 * reach other devices, of which there are none.  So no limit is put on the
 * window's size either: there is no persisting cache for it to exceed.
 */
#include "rt_int.h"

#include <string.h>

void rt_attrs_init(rt_attrs *a)
{
    memset(a, 0, sizeof *a);
    a->sync_policy = cudaSyncPolicyAuto;
    /* Both kinds of kernel in domain 0: the device has one domain
     * (cudaDevAttrMemSyncDomainCount). */
    a->domain_map = (cudaLaunchMemSyncDomainMap){ 0, 0 };
    a->domain = cudaLaunchMemSyncDomainDefault;
}

/* Which attributes each holder has (cudaLaunchAttributeID's "Valid for"). */
static bool holds(int holder, int id)
{
    switch (id) {
    case cudaLaunchAttributeAccessPolicyWindow:
    case cudaLaunchAttributePriority:
    case cudaLaunchAttributeMemSyncDomainMap:
    case cudaLaunchAttributeMemSyncDomain:
    case cudaLaunchAttributeNvlinkUtilCentricScheduling:
        return true;
    case cudaLaunchAttributeSynchronizationPolicy:
        return holder == RT_ATTRS_STREAM;
    case cudaLaunchAttributeCooperative:
    case cudaLaunchAttributeClusterSchedulingPolicyPreference:
    case cudaLaunchAttributePreferredClusterDimension:
        return holder == RT_ATTRS_KERNEL;
    default:
        return false;
    }
}

static bool good_window(const struct cudaAccessPolicyWindow *w)
{
    /* The hit ratio is a fraction (a NaN fails both tests); a miss cannot
     * persist. */
    return w->hitRatio >= 0.0f && w->hitRatio <= 1.0f && (unsigned)w->hitProp <= cudaAccessPropertyPersisting &&
           (unsigned)w->missProp <= cudaAccessPropertyStreaming;
}

cudaError_t rt_attr_set(rt_attrs *a, int holder, int id, const cudaLaunchAttributeValue *v)
{
    if (!v || !holds(holder, id))
        return cudaErrorInvalidValue;
    int domains = 1;
    rt_device_attribute(cudaDevAttrMemSyncDomainCount, &domains);
    switch (id) {
    case cudaLaunchAttributeAccessPolicyWindow:
        if (!good_window(&v->accessPolicyWindow))
            return cudaErrorInvalidValue;
        a->window = v->accessPolicyWindow;
        break;
    case cudaLaunchAttributeSynchronizationPolicy:
        if (v->syncPolicy < cudaSyncPolicyAuto || v->syncPolicy > cudaSyncPolicyBlockingSync)
            return cudaErrorInvalidValue;
        a->sync_policy = v->syncPolicy;
        break;
    case cudaLaunchAttributePriority: {
        /* Clamped into the device's range, as stream creation does. */
        const rt_device *d = rt_device_get();
        int p = v->priority;
        a->priority = p > d->stream_prio_least ? d->stream_prio_least
                      : p < d->stream_prio_greatest ? d->stream_prio_greatest : p;
        break;
    }
    case cudaLaunchAttributeMemSyncDomainMap:
        if (v->memSyncDomainMap.default_ >= domains || v->memSyncDomainMap.remote >= domains)
            return cudaErrorInvalidValue;
        a->domain_map = v->memSyncDomainMap;
        break;
    case cudaLaunchAttributeMemSyncDomain:
        if ((unsigned)v->memSyncDomain > cudaLaunchMemSyncDomainRemote)
            return cudaErrorInvalidValue;
        a->domain = v->memSyncDomain;
        break;
    case cudaLaunchAttributeNvlinkUtilCentricScheduling:
        if (v->nvlinkUtilCentricScheduling > 1)
            return cudaErrorInvalidValue;
        a->nvlink = v->nvlinkUtilCentricScheduling;
        break;
    case cudaLaunchAttributeCooperative:
        a->cooperative = v->cooperative != 0;
        break;
    case cudaLaunchAttributeClusterSchedulingPolicyPreference:
        if ((unsigned)v->clusterSchedulingPolicyPreference > cudaClusterSchedulingPolicyLoadBalancing)
            return cudaErrorInvalidValue;
        a->cluster_policy = v->clusterSchedulingPolicyPreference;
        break;
    case cudaLaunchAttributePreferredClusterDimension:
        a->preferred_cluster[0] = v->preferredClusterDim.x;
        a->preferred_cluster[1] = v->preferredClusterDim.y;
        a->preferred_cluster[2] = v->preferredClusterDim.z;
        break;
    }
    return cudaSuccess;
}

cudaError_t rt_attr_get(const rt_attrs *a, int holder, int id, cudaLaunchAttributeValue *v)
{
    if (!v || !holds(holder, id))
        return cudaErrorInvalidValue;
    memset(v, 0, sizeof *v);
    switch (id) {
    case cudaLaunchAttributeAccessPolicyWindow: v->accessPolicyWindow = a->window; break;
    case cudaLaunchAttributeSynchronizationPolicy: v->syncPolicy = (enum cudaSynchronizationPolicy)a->sync_policy; break;
    case cudaLaunchAttributePriority: v->priority = a->priority; break;
    case cudaLaunchAttributeMemSyncDomainMap: v->memSyncDomainMap = a->domain_map; break;
    case cudaLaunchAttributeMemSyncDomain: v->memSyncDomain = (cudaLaunchMemSyncDomain)a->domain; break;
    case cudaLaunchAttributeNvlinkUtilCentricScheduling: v->nvlinkUtilCentricScheduling = a->nvlink; break;
    case cudaLaunchAttributeCooperative: v->cooperative = a->cooperative; break;
    case cudaLaunchAttributeClusterSchedulingPolicyPreference:
        v->clusterSchedulingPolicyPreference = (enum cudaClusterSchedulingPolicy)a->cluster_policy;
        break;
    case cudaLaunchAttributePreferredClusterDimension:
        v->preferredClusterDim.x = a->preferred_cluster[0];
        v->preferredClusterDim.y = a->preferred_cluster[1];
        v->preferredClusterDim.z = a->preferred_cluster[2];
        break;
    }
    return cudaSuccess;
}
