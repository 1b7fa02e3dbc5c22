"""How long one drand beacon's BLS verification takes, per backend.

Run: python bench/drand_verify.py [--runs N]
Prints the median and best time of verify_beacon on real quicknet rounds 1 and 2 with each
installed backend (py_arkworks_bls12381, py_ecc), plus the first call (which also
decompresses and subgroup-checks the public key).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.proof import drand
from bot.proof.drand import BACKENDS, Beacon, verify_beacon

R1 = Beacon(
    1,
    bytes.fromhex("1466a6cd24e327188770752f6134001c64d6efcc590ccc26b721611ad96f165a"),
    bytes.fromhex(
        "b55e7cb2d5c613ee0b2e28d6750aabbb78c39dcc96bd9d38"
        "c2c2e12198df95571de8e8e402a0cc48871c7089a2b3af4b"
    ),
)
R2 = Beacon(
    2,
    bytes.fromhex("5782d6987841c654515a0e72b2d1ebb4e741234042c37cb19608ae50d93fb60c"),
    bytes.fromhex(
        "b6b6a585449b66eb12e875b64fcbab3799861a00e4dbf092"
        "d99e969a5eac57dd3f798acf61e705fe4f093db926626807"
    ),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="verifications per backend")
    args = parser.parse_args()
    print(f"default backend: {drand.backend_name()}")
    for name, make in BACKENDS.items():
        try:
            backend = make()
        except ImportError:
            print(f"{name:9s} not installed")
            continue
        message = drand.round_message
        t0 = time.perf_counter()
        first = backend.verify(drand.QUICKNET_PUBLIC_KEY, message(1), R1.signature)
        first_s = time.perf_counter() - t0
        times = []
        for i in range(args.runs):
            b = (R1, R2)[i % 2]
            t0 = time.perf_counter()
            ok = backend.verify(drand.QUICKNET_PUBLIC_KEY, message(b.round), b.signature)
            times.append(time.perf_counter() - t0)
            assert ok, f"{name} failed to verify round {b.round}"
        assert first
        print(
            f"{name:9s} first call {first_s * 1000:8.1f} ms   "
            f"median {statistics.median(times) * 1000:8.2f} ms   "
            f"best {min(times) * 1000:8.2f} ms   ({args.runs} runs)"
        )
    t0 = time.perf_counter()
    n = 0
    while n < 5 or time.perf_counter() - t0 < 0.2:
        assert verify_beacon((R1, R2)[n % 2])
        n += 1
    print(
        "verify_beacon (default, incl. sha256 check): "
        f"{(time.perf_counter() - t0) / n * 1e3:.2f} ms"
    )


if __name__ == "__main__":
    main()
