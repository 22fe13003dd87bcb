# Talks BOINC's GUI RPC (the protocol BOINC Manager uses) to a running client.
import socket, hashlib, re, sys
def rpc(s, body):
    s.sendall(("<boinc_gui_rpc_request>\n" + body + "\n</boinc_gui_rpc_request>\n\003").encode())
    buf = b""
    while not buf.endswith(b"\003"):
        buf += s.recv(65536)
    return buf[:-1].decode()
s = socket.create_connection(("127.0.0.1", 31416))
nonce = re.search(r"<nonce>(.*)</nonce>", rpc(s, "<auth1/>")).group(1)
print(rpc(s, "<auth2><nonce_hash>%s</nonce_hash></auth2>" % hashlib.md5((nonce + "secretpw").encode()).hexdigest()), file=sys.stderr)
cmd = sys.argv[1]
if cmd == "set_override":
    prefs = open(sys.argv[2]).read()
    print(rpc(s, "<set_global_prefs_override>\n" + prefs + "\n</set_global_prefs_override>"))
    print(rpc(s, "<read_global_prefs_override/>"))
else:
    print(rpc(s, "<%s/>" % cmd))
