"""keys (futhark-benchmarks jgf/crypt/keys.fut): the IDEA encryption and decryption keys
of user keys, a wholly sequential program: every step reads key words and writes one,
and the modular inverse is a while loop. Before reduce-device-syncs every read and every
write is synchronous; after, the host neither reads nor writes a scalar (the reads and
the inverse run in gpu_bodies and the writes become one-element copies on the device):
the study's biggest speedup. Size: user keys (the benchmark computes one)."""

import numpy as np

RTOL = 0.0
DEFAULT_SIZE = 16
SMALL_SIZE = 2


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    return (rng.integers(0, 1 << 16, size=(max(size, 1), 8)).astype(np.int64),)


def inv(a: int) -> int:
    """The multiplicative inverse of a modulo 0x10001, as keys.fut computes it."""
    a, b, u, v = a & 0xFFFF, 0x10001, 0, 1
    while a > 0:
        q, r = b // a, b % a
        b, a = a, r
        u, v = v, u - q * v
    return (u + 0x10001 if u < 0 else u) & 0xFFFF


def encryption_key(userkey: list[int]) -> list[int]:
    z = [0] * 52
    z[:8] = [k & 0xFFFF for k in userkey]
    for i in range(8, 52):
        j = i % 8
        if j < 6:
            z[i] = (z[i - 7] >> 9) | ((z[i - 6] << 7) & 0xFFFF)
        elif j == 6:
            z[i] = (z[i - 7] >> 9) | ((z[i - 14] << 7) & 0xFFFF)
        else:
            z[i] = (z[i - 15] >> 9) | ((z[i - 14] << 7) & 0xFFFF)
    return z


def decryption_key(z: list[int]) -> list[int]:
    neg = lambda x: -x & 0xFFFF  # noqa: E731
    dk = [0] * 52
    dk[51], dk[50], dk[49], dk[48] = inv(z[3]), neg(z[2]), neg(z[1]), inv(z[0])
    for i in range(7):
        kb, jb = 4 + 6 * i, 47 - 6 * i
        dk[jb], dk[jb - 1] = z[kb + 1], z[kb]
        dk[jb - 2], dk[jb - 3], dk[jb - 4], dk[jb - 5] = inv(z[kb + 5]), neg(z[kb + 3]), neg(z[kb + 4]), inv(z[kb + 2])
    kb, jb = 46, 5
    dk[jb], dk[jb - 1] = z[kb + 1], z[kb]
    dk[jb - 2], dk[jb - 3], dk[jb - 4], dk[jb - 5] = inv(z[kb + 5]), neg(z[kb + 4]), neg(z[kb + 3]), inv(z[kb + 2])
    return dk


def reference(userkeys):
    zs = [encryption_key([int(k) for k in row]) for row in userkeys]
    return np.array(zs, np.int64), np.array([decryption_key(z) for z in zs], np.int64)
