"""The rules site's build from clean, in CPU time: `make site`'s target is under 2 minutes of
CPU (issue 37), self-play figures of the Strategy page included.

Run: ``.venv/bin/python benchmarks/site_build.py`` (``--cached`` keeps the Strategy page's
cached rounds in build/cache, to time a rebuild; ``--keep`` keeps the output). The build runs
in a child process with ``--strict``, into a temporary folder; its CPU time is the child's
user + system time (``resource.getrusage(RUSAGE_CHILDREN)``), its wall time beside it. The
CPU time, not the wall time, is what the target bounds: on a shared machine the wall time
grows with the other work, the CPU time does not.

Exit status 1 when the build fails or takes 2 minutes of CPU or more.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "build" / "cache"
LIMIT_SECONDS = 120.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cached", action="store_true",
                        help="keep build/cache (time a rebuild, not a build from clean)")
    parser.add_argument("--keep", action="store_true", help="keep the built site")
    args = parser.parse_args()
    if not args.cached:
        for cached in CACHE.glob("strategy-*.json"):
            cached.unlink()
    out = Path(tempfile.mkdtemp(prefix="site-build-"))
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
         "-f", str(ROOT / "site" / "mkdocs.yml"), "-d", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    pages = sum(1 for _ in out.rglob("*.html"))
    if not args.keep:
        shutil.rmtree(out, ignore_errors=True)
    if result.returncode != 0:
        print(result.stdout + result.stderr, file=sys.stderr)
        return 1
    kind = "rebuild (cached self-play)" if args.cached else "build from clean"
    print(f"site {kind}: {cpu:.1f} s CPU, {wall:.1f} s wall, {pages} pages "
          f"(target: under {LIMIT_SECONDS:.0f} s CPU)")
    return 0 if cpu < LIMIT_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
