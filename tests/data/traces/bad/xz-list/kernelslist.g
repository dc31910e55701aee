MemcpyHtoD,0x1000,16
kernel-1.traceg.xz
