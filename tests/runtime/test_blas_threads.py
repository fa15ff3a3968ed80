"""NumPy's OpenBLAS workers sleep at once instead of spinning: a process that imports
gradcli and then NumPy is not charged for a worker thread's busy wait."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PROBE = """
import os, time
import gradcli
import numpy
a = numpy.ones((400, 400))
a @ a  # a threaded product: the workers wake, then would spin again
time.sleep(0.4)
me = os.getpid()
ticks = 0
for t in os.listdir("/proc/self/task"):
    if int(t) != me:
        f = open(f"/proc/self/task/{t}/stat").read().rsplit(")", 1)[1].split()
        ticks += int(f[11]) + int(f[12])
print(os.environ.get("OPENBLAS_THREAD_TIMEOUT"), ticks)
"""


def probe(env):
    r = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert r.returncode == 0, r.stderr
    value, ticks = r.stdout.split()
    return value, int(ticks)


@pytest.mark.skipif(
    not os.path.isdir("/proc/self/task") or (os.cpu_count() or 1) < 2,
    reason="needs Linux's /proc and two cores (OpenBLAS makes no worker on one)",
)
def test_openblas_workers_do_not_spin():
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_THREAD_TIMEOUT"}
    value, ticks = probe(env)
    assert value == "4"
    # a spinning worker burns some 100 ms (10 ticks) after the import and again after
    # the product; a sleeping one next to nothing
    assert ticks <= 3


def test_the_users_setting_is_kept():
    env = dict(os.environ, OPENBLAS_THREAD_TIMEOUT="20")
    assert probe(env)[0] == "20"
