/* Symbol visibility: only functions marked GPURF_API leave the library. */
#ifndef GPURF_EXPORT_H
#define GPURF_EXPORT_H

#if defined(__GNUC__)
#define GPURF_API __attribute__((visibility("default")))
#else
#define GPURF_API
#endif

#ifdef __cplusplus
#define GPURF_BEGIN_DECLS extern "C" {
#define GPURF_END_DECLS }
#else
#define GPURF_BEGIN_DECLS
#define GPURF_END_DECLS
#endif

#endif
