"""hook_harness.py NAME PAYLOAD CMD...: stand in for an agent's harness around the hook.

Runs CMD with PAYLOAD on its stdin, its stdout and stderr to NAME.out and NAME.err,
then creates NAME.done and lives on until NAME.end exists. A python process, not a
shell: the hook takes the first ancestor that is not a shell as the session's process
(contrib/hooks/container-gateway-hook, session_pid), so this process is the session.
Used by tests/ops/hook.sh and tests/integration/rootless_user.sh.
"""
import os
import subprocess
import sys
import time

name, payload = sys.argv[1], sys.argv[2].encode()
with open(name + ".out", "wb") as o, open(name + ".err", "wb") as e:
    subprocess.run(sys.argv[3:], input=payload, stdout=o, stderr=e)
open(name + ".done", "w").close()
while not os.path.exists(name + ".end"):
    time.sleep(0.05)
