#!/usr/bin/env python3
# Lists the memory-area headers of a DMTCP 5 checkpoint image (written with --no-gzip):
#   it/tools/dmtcp-areas.py IMAGE [N]   -> (file offset, address, size, properties, data bytes, name)
import struct,sys
f=open(sys.argv[1],'rb'); data=f.read()
off=8192; out=[]
while off+4096<=len(data):
    addr,end,size,offset,prot,flags,dmaj,dmin,ino,mfs,props=struct.unpack_from('<QQqQQQQQQqQ',data,off)
    name=data[off+88:off+88+64].split(b'\0')[0].decode(errors='replace')
    if size==-1: out.append((off,'END')); break
    n=0
    if not (props&1) and not (props&2): n = mfs if (not flags&0x20 and mfs>0) else size
    out.append((off,hex(addr),size,hex(props),n,name))
    off+=4096+n
for o in out[:int(sys.argv[2]) if len(sys.argv) > 2 else 40]: print(o)
print(len(out),'headers')
