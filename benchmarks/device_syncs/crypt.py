"""crypt (futhark-benchmarks jgf/crypt): IDEA encryption and decryption of a text. The
eight round keys the final transform uses are read by the host (as Futhark's compiler
hoists them out of the map): eight synchronous reads per run, none after
reduce-device-syncs. Size: 8-byte blocks (the benchmark's medium text is 3 MB)."""

import numpy as np

from keys import decryption_key, encryption_key

RTOL = 0.0
DEFAULT_SIZE = 375_000
SMALL_SIZE = 16


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    userkey = rng.integers(0, 1 << 16, size=8)
    z = encryption_key([int(k) for k in userkey])
    dk = decryption_key(z)
    text = rng.integers(0, 256, size=(max(size, 1), 8)).astype(np.int64)
    return np.array(z, np.int64), np.array(dk, np.int64), text


def _mulmod(x, k):
    return (x * k) % 0x10001 & 0xFFFF


def _cipher(key, blocks):
    b = blocks & 0xFF
    x1, x2, x3, x4 = (b[:, 1] << 8) | b[:, 0], (b[:, 3] << 8) | b[:, 2], (b[:, 5] << 8) | b[:, 4], (b[:, 7] << 8) | b[:, 6]
    for i in range(8):
        k = key[6 * i : 6 * i + 6]
        x1 = _mulmod(x1, k[0])
        x2 = (x2 + k[1]) & 0xFFFF
        x3 = (x3 + k[2]) & 0xFFFF
        x4 = _mulmod(x4, k[3])
        t2 = _mulmod(x1 ^ x3, k[4])
        t1 = _mulmod((t2 + (x2 ^ x4)) & 0xFFFF, k[5])
        t2 = (t1 + t2) & 0xFFFF
        x1, x4, t2 = x1 ^ t1, x4 ^ t2, t2 ^ x2
        x2, x3 = x3 ^ t1, t2
    y1 = _mulmod(x1, key[48])
    y3 = (x3 + key[49]) & 0xFFFF
    y2 = (x2 + key[50]) & 0xFFFF
    y4 = _mulmod(x4, key[51])
    return np.stack([y1 & 0xFF, y1 >> 8, y3 & 0xFF, y3 >> 8, y2 & 0xFF, y2 >> 8, y4 & 0xFF, y4 >> 8], axis=1)


def reference(z, dk, text):
    enc = _cipher(z, text)
    return enc, _cipher(dk, enc)
