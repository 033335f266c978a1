#!/usr/bin/env python3
"""Makes tests/provider/data/pkcs1_implicit_rejection.json: RSA PKCS#1 v1.5 decryptions with
implicit rejection as OpenSSL 3.2+ performs them (draft-irtf-cfrg-rsa-guidance), the oracle for
the mpbatch provider's (tests/provider/prov_rsa.cpp).

Needs pyca/cryptography built with OpenSSL >= 3.2 (its manylinux wheels bundle one; checked
below). For keys of 1024, 2048 and 3072 bits it encrypts chosen encoded messages with the raw
public operation (valid paddings and many kinds of bad ones) and records what the library's
RSA decryption returns for each: the message, or for a bad padding the synthetic message. The
file is committed; this script documents how it was made:

    python3 tests/provider/gen_implicit_rejection.py > tests/provider/data/pkcs1_implicit_rejection.json
"""
import json
import os
import sys

from cryptography.hazmat.backends.openssl import backend
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa


def encoded_messages(k):
    """(comment, em) pairs: k-byte encoded messages, valid and invalid."""
    def ps(n):
        return bytes((b % 255) + 1 for b in os.urandom(n))  # nonzero padding bytes

    out = []
    for mlen in (0, 1, 16, 48, k - 11):  # valid, up to the longest message
        out.append((f"valid, {mlen}-byte message", b"\x00\x02" + ps(k - 3 - mlen) + b"\x00" + os.urandom(mlen)))
    out.append(("valid, padding of exactly 8 bytes", b"\x00\x02" + ps(8) + b"\x00" + os.urandom(k - 11)))
    good = b"\x00\x02" + ps(k - 3 - 32) + b"\x00" + os.urandom(32)
    out.append(("first byte 01", b"\x01" + good[1:]))
    out.append(("second byte 01 (signature padding)", b"\x00\x01" + good[2:]))
    out.append(("second byte 00", b"\x00\x00" + good[2:]))
    out.append(("second byte 03", b"\x00\x03" + good[2:]))
    out.append(("no zero separator", b"\x00\x02" + ps(k - 2)))
    for z in (2, 5, 9):  # the separator too early: padding shorter than 8 bytes
        out.append((f"zero byte at index {z}", b"\x00\x02" + ps(z - 2) + b"\x00" + os.urandom(k - z - 1)))
    out.append(("valid, the zero separator as the last byte (an empty message)", b"\x00\x02" + ps(k - 3) + b"\x00"))
    out.append(("all zeros", bytes(k)))
    for i in range(6):
        out.append((f"random {i}", b"\x00" + os.urandom(k - 1)))
    return out


def main():
    v = backend.openssl_version_number()
    if v < 0x30200000:
        sys.exit(f"needs OpenSSL >= 3.2 (implicit rejection); cryptography has {backend.openssl_version_text()}")
    doc = {"source": f"pyca/cryptography with {backend.openssl_version_text()}, gen_implicit_rejection.py",
           "groups": []}
    for bits in (1024, 2048, 3072):
        key = rsa.generate_private_key(65537, bits)
        pub = key.public_key().public_numbers()
        k = (bits + 7) // 8
        tests = []
        for comment, em in encoded_messages(k):
            c = pow(int.from_bytes(em, "big"), pub.e, pub.n).to_bytes(k, "big")
            if int.from_bytes(em, "big") >= pub.n:
                continue
            out = key.decrypt(c, padding.PKCS1v15())
            tests.append({"comment": comment, "ct": c.hex(), "out": out.hex(),
                          "valid_padding": comment.startswith("valid")})
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
        doc["groups"].append({"bits": bits, "privateKeyPem": pem, "tests": tests})
    json.dump(doc, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
