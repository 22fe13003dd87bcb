#!/bin/bash
# How the files under this directory were produced (as root, on Debian 12 with `apt-get install -y boinc-client`,
# boinc-client 7.20.5+dfsg-1.1): a real BOINC client in a scratch data directory, driven over its GUI RPC the way
# BOINC Manager drives it. Not run by the build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d) && chown boinc:boinc "$dir" && cd "$dir"
printf secretpw > gui_rpc_auth.cfg && chown boinc gui_rpc_auth.cfg
su -s /bin/sh boinc -c "cd $dir && timeout 60 boinc --dir $dir --gui_rpc_port 31416 --allow_multiple_clients > $dir/out.log 2>&1" &
until grep -q "Initialization completed" out.log 2>/dev/null; do sleep 0.5; done
# the client's defaults, as it writes preferences (global_prefs.xml's format)
python3 "$here/boinc_gui_rpc.py" get_global_prefs_working 2>/dev/null | sed -n '/<global_preferences>/,/<\/global_preferences>/p' \
  > "$dir/defaults.xml"
# what BOINC Manager's "Computing preferences" sends; the client writes global_prefs_override.xml itself
python3 "$here/boinc_gui_rpc.py" set_override "$here/manager-override-request.xml" >/dev/null 2>&1
cp "$dir/global_prefs_override.xml" "$dir/override.xml"
boinccmd --host 127.0.0.1:31416 --passwd secretpw --quit
grep -E "Disk:|max disk usage|max (up|down)load rate|suspend work|compute while active" out.log
echo "in $dir: defaults.xml, override.xml, out.log"
