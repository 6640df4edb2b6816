// compat.h: the driver API calls whose signatures CUDA 13 changed, behind
// one signature that compiles against CUDA 11.8, 12.x and 13.x cuda.h.
// perfgate's patch; see README.md.
#ifndef PERFGATE_CU_COMPAT_H
#define PERFGATE_CU_COMPAT_H
#include <cuda.h>

static inline CUresult pgCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev) {
#if CUDA_VERSION >= 13000
	return cuCtxCreate(pctx, NULL, flags, dev); // cuCtxCreate_v4, no execution affinity
#else
	return cuCtxCreate(pctx, flags, dev);
#endif
}

#if CUDA_VERSION >= 13000
// pgLocation names a device ordinal as CUDA 13 does; CU_DEVICE_CPU is the host.
static inline CUmemLocation pgLocation(CUdevice dev) {
	CUmemLocation l;
	l.type = dev == CU_DEVICE_CPU ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE;
	l.id = dev == CU_DEVICE_CPU ? 0 : (int)dev;
	return l;
}
#endif

static inline CUresult pgMemAdvise(CUdeviceptr p, size_t n, CUmem_advise a, CUdevice dev) {
#if CUDA_VERSION >= 13000
	return cuMemAdvise(p, n, a, pgLocation(dev));
#else
	return cuMemAdvise(p, n, a, dev);
#endif
}

static inline CUresult pgMemPrefetchAsync(CUdeviceptr p, size_t n, CUdevice dev, CUstream s) {
#if CUDA_VERSION >= 13000
	return cuMemPrefetchAsync(p, n, pgLocation(dev), 0, s);
#else
	return cuMemPrefetchAsync(p, n, dev, s);
#endif
}

// CUDA 13's graph edge calls take edge data; NULL means default edges.
static inline CUresult pgGraphAddDependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to, size_t n) {
#if CUDA_VERSION >= 13000
	return cuGraphAddDependencies(g, from, to, NULL, n);
#else
	return cuGraphAddDependencies(g, from, to, n);
#endif
}

static inline CUresult pgGraphGetEdges(CUgraph g, CUgraphNode *from, CUgraphNode *to, size_t *n) {
#if CUDA_VERSION >= 13000
	return cuGraphGetEdges(g, from, to, NULL, n);
#else
	return cuGraphGetEdges(g, from, to, n);
#endif
}
#endif
