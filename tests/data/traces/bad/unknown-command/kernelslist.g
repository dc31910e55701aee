MemcpyHtoD,0x1000,16
launch kernel-1.traceg
