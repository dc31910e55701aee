MemcpyHtoD,0x00007f0000000000,4096
kernel-1.traceg
MemcpyHtoD,0x00007f0000001000,256
kernel-2.traceg
