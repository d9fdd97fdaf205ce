#!/usr/bin/env python3
"""tests/tarparity/run.py — the checker's tar reader (check/tar.c) against Go's
archive/tar, the reader podman 4.3.1 and dockerd 20.10 extract with (Go 1.19).

Writes a seeded, deterministic corpus of odd tar streams (the red team's
desyncs: two PAX 'x' headers in a row, a GNU header whose times do not parse,
empty GNU long names and links; then every header field spelled every way:
V7/USTAR/GNU/STAR magics, prefixes, octal and base-256 numbers, both
checksums, PAX records and their lengths, 'g' headers, GNU long names,
sparse markers, types, truncations and ends), prints how each reader reads
each of them (tests/tarparity/gotar.go, built module-less with the standard
library only; tests/helpers/tar_print) and compares entry by entry:
typeflag, name, linkname, mode, size, uid, gid, device numbers, xattrs, PAX
records, and where and whether the stream ends (EOF) or fails (ERR).

The checker may stop earlier than Go only where it refuses on purpose (and
says so in check/tar.h): a GNU sparse entry, a name or link over 4096
bytes, a 'g' header with a value Go does not parse. Anything else that
differs fails the test, as does a verdict that changes when the bytes are
fed one piece at a time.

  tests/tarparity/run.py [--seed N] [--count N] [--keep DIR] [-v]

Needs Go 1.19 (Debian's golang-go; scripts/install-deps.sh) and a built
tests/helpers/tar_print (make test-programs). Exit 77 when Go is missing.
Last line: "N passed, M failed" (N, M: tar files).
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# ---------------------------------------------------------------- a raw tar writer

def oct_field(n, width, style="nul"):
    """n in a numeric field of width bytes, spelled as style says."""
    if style == "nul":          # GNU tar, Go: zero-padded, NUL-terminated
        return ("%0*o" % (width - 1, n)).encode()[-(width - 1):] + b"\0"
    if style == "space":        # old tars: space-terminated
        return ("%0*o" % (width - 1, n)).encode()[-(width - 1):] + b" "
    if style == "lead":         # leading spaces, NUL at the end
        return ("%*o" % (width - 1, n)).encode()[-(width - 1):] + b"\0"
    if style == "full":         # every byte a digit (no terminator)
        return ("%0*o" % (width, n)).encode()[-width:]
    if style == "short":        # a few digits, then NULs
        return ("%o" % n).encode()[:width].ljust(width, b"\0")
    if style == "b256":         # base-256, positive
        return bytes([0x80]) + (n & ((1 << (8 * (width - 1))) - 1)).to_bytes(width - 1, "big")
    if style == "b256neg":      # base-256, two's complement of -n-1 (negative)
        v = (1 << (8 * width)) - 1 - n
        b = bytearray(v.to_bytes(width, "big"))
        b[0] |= 0xc0
        return bytes(b)
    if style == "b256big":      # base-256 that overflows int64
        return b"\x80" + b"\xff" * (width - 1)
    if style == "junk":
        return b"12x4".ljust(width, b"\0")
    if style == "nulmid":       # digits, a NUL, more digits
        return b"1\x007".ljust(width, b"\0")
    if style == "huge":         # more octal than 64 bits hold
        return b"7" * width
    if style == "empty":
        return b"\0" * width
    if style == "spaces":
        return b" " * width
    if style == "sign":
        return b"+1".ljust(width, b"\0")
    raise ValueError(style)


NUM_STYLES = ["nul", "nul", "nul", "space", "lead", "full", "short", "b256", "b256neg",
              "b256big", "junk", "nulmid", "huge", "empty", "spaces", "sign"]


def header(name=b"f", size=0, typ=b"0", link=b"", mode=0o644, uid=0, gid=0, mtime=0,
           fmt="ustar", prefix=b"", devmaj=0, devmin=0, styles=None, chk="u",
           gnu_times=None, star_times=None, patch=None):
    """One 512-byte header block. styles: {field: style} for the numeric fields
    (mode uid gid size mtime devmaj devmin); chk: u (unsigned sum), s (signed),
    bad, b256, lead (leading spaces); gnu_times/star_times: raw bytes for the
    atime+ctime fields; patch: [(offset, bytes)] applied before the checksum."""
    styles = styles or {}
    b = bytearray(512)
    name = name.encode() if isinstance(name, str) else name
    link = link.encode() if isinstance(link, str) else link
    b[0:len(name[:100])] = name[:100]
    b[100:108] = oct_field(mode, 8, styles.get("mode", "nul"))
    b[108:116] = oct_field(uid, 8, styles.get("uid", "nul"))
    b[116:124] = oct_field(gid, 8, styles.get("gid", "nul"))
    b[124:136] = oct_field(size, 12, styles.get("size", "nul"))
    b[136:148] = oct_field(mtime, 12, styles.get("mtime", "nul"))
    b[156:157] = typ
    b[157:157 + len(link[:100])] = link[:100]
    if fmt in ("ustar", "star", "ustar-oddver"):
        b[257:263] = b"ustar\0"
        b[263:265] = b"00" if fmt != "ustar-oddver" else b"xy"
    elif fmt == "gnu":
        b[257:263] = b"ustar "
        b[263:265] = b" \0"
    elif fmt == "gnu-oddver":
        b[257:263] = b"ustar "
        b[263:265] = b"00"
    if fmt != "v7":
        b[265:270] = b"root\0"
        b[297:302] = b"root\0"
        b[329:337] = oct_field(devmaj, 8, styles.get("devmaj", "nul"))
        b[337:345] = oct_field(devmin, 8, styles.get("devmin", "nul"))
    if fmt == "star":
        b[508:512] = b"tar\0"
        if star_times is not None:
            b[476:500] = star_times[:24].ljust(24, b"\0")
    if prefix:
        lim = 131 if fmt == "star" else 155
        b[345:345 + len(prefix[:lim])] = prefix[:lim]
    if gnu_times is not None:
        b[345:369] = gnu_times[:24].ljust(24, b"\0")
    for off, data in patch or []:
        b[off:off + len(data)] = data
    b[148:156] = b" " * 8
    if chk == "s":
        s = sum(c - 256 if c >= 128 else c for c in b)
        b[148:156] = ("%06o" % (s & 0o777777)).encode() + b"\0 " if s >= 0 else b"-1\0     "
    elif chk == "bad":
        s = sum(b) + 1
        b[148:156] = ("%06o" % s).encode() + b"\0 "
    elif chk == "b256":
        s = sum(b)
        b[148:156] = b"\x80" + s.to_bytes(7, "big")
    elif chk == "lead":
        s = sum(b)
        b[148:156] = ("  %o" % s).encode().ljust(8, b"\0")
    else:
        s = sum(b)
        b[148:156] = ("%06o" % s).encode() + b"\0 "
    return bytes(b)


def pad(data):
    return data + b"\0" * ((-len(data)) % 512)


def pax_rec(k, v, lenform="ok"):
    """One PAX record; lenform spells its length: ok, plus ("+N"), zeros ("00N"),
    short and long (off by one), nonl (no newline at its end)."""
    k = k.encode() if isinstance(k, str) else k
    v = v.encode() if isinstance(v, str) else v
    body = b" " + k + b"=" + v + b"\n"
    lead = {"plus": "+", "zeros": "00"}.get(lenform, "")
    n = len(body) + 1
    while len(lead + str(n)) + len(body) != n:
        n = len(lead + str(n)) + len(body)
    if lenform == "short":
        return str(n - 1).encode() + body
    if lenform == "long":
        return str(n + 1).encode() + body
    if lenform == "nonl":
        return str(n).encode() + body[:-1] + b"x"
    return (lead + str(n)).encode() + body


def pax(records, typ=b"x", name=b"PaxHeaders/x", raw=None, **kw):
    data = raw if raw is not None else b"".join(pax_rec(*r) for r in records)
    return header(name, len(data), typ, **kw) + pad(data)


def gnu_long(data, typ=b"L", size=None):
    return header(b"././@LongLink", len(data) if size is None else size, typ, fmt="gnu") + pad(data)


def entry(name, data=b"", typ=b"0", link=b"", mode=0o644, **kw):
    size = kw.pop("size", len(data))
    return header(name, size, typ, link, mode, **kw) + pad(data)


END = b"\0" * 1024
ZERO = b"\0" * 512

# ---------------------------------------------------------------- named cases

def named_cases():
    c = {}
    victim = "/tmp/victim"
    # F1: two PAX 'x' headers in a row (Go keeps only the second's records)
    c["f1-path-link"] = (pax([("path", "decoy1"), ("linkpath", "decoy2")]) + pax([("comment", "x")]) +
                         entry("h", typ=b"2", link=victim) +
                         pax([("path", "decoy3")]) + pax([("comment", "x")]) +
                         entry("h/pwned", b"written\n") + entry("Dockerfile", b"FROM a\n") + END)
    hidden = (entry("mem", typ=b"3", mode=0o666, devmaj=1, devmin=1) +
              entry("suid", b"#!/bin/sh\nid\n", mode=0o4755) +
              pax([("SCHILY.xattr.security.capability", b"\x01\0\0\x02\x80" + b"\0" * 15)]) +
              entry("capfile", b"x\n", mode=0o755))
    c["f1-size"] = (pax([("size", str(len(hidden)))]) + pax([("comment", "x")]) +
                    entry("cover", b"", size=0) + hidden + entry("plain.txt", b"ordinary\n") + END)
    c["f1-long-between"] = (pax([("path", "a")]) + gnu_long(b"b") + pax([("uid", "5")]) +
                            entry("c", b"x") + END)
    c["f1-empty-second"] = pax([("size", "1024")]) + header(b"PaxHeaders/y", 0, b"x") + entry("c", b"x") + END
    c["f1-xattr"] = (pax([("SCHILY.xattr.security.capability", "c")]) + pax([("SCHILY.xattr.user.a", "b")]) +
                     entry("f", b"x") + END)
    # F2: a GNU header whose times do not parse: Go reads bytes 345.. as a prefix
    c["f2-gnu-prefix"] = (entry("sub/Dockerfile", b"FROM a\n", fmt="gnu", gnu_times=b"x") +
                          entry("Dockerfile", b"FROM b\n", fmt="gnu", gnu_times=b"sub") + END)
    c["f2-gnu-ctime"] = entry("n", b"", fmt="gnu", gnu_times=b"\0" * 12 + b"junk") + END
    c["f2-gnu-valid-times"] = entry("n", b"", fmt="gnu", gnu_times=b"00000000017\0" + b"00000000017\0") + END
    c["f2-gnu-nonascii"] = entry("n", b"", fmt="gnu", gnu_times=b"\xc3\xa9x") + END
    c["f2-gnu-b256-time"] = entry("n", b"", fmt="gnu", gnu_times=b"\x80" + b"\0" * 11 + b"\xff" * 12) + END
    # F3: empty GNU long names and links keep the header's own
    c["f3-empty-K"] = gnu_long(b"\0", b"K") + entry("h", typ=b"2", link=victim) + END
    c["f3-empty-K0"] = gnu_long(b"", b"K") + entry("h", typ=b"2", link=victim) + END
    c["f3-empty-L"] = gnu_long(b"", b"L") + entry("name", b"x") + END
    c["f3-L-then-empty"] = gnu_long(b"long") + gnu_long(b"\0") + entry("hdr", b"x") + END
    c["f3-L-nul-inside"] = gnu_long(b"a\0b") + entry("hdr", b"x") + END
    c["f3-pax-and-L"] = pax([("path", "p")]) + gnu_long(b"l") + entry("h", b"x") + END
    c["f3-pax-and-emptyL"] = pax([("path", "p")]) + gnu_long(b"") + entry("h", b"x") + END
    # global headers
    c["g-path"] = pax([("path", "gp"), ("mtime", "1")], typ=b"g") + entry("f", b"x") + END
    c["g-bad-mtime"] = pax([("path", "gp"), ("mtime", "x")], typ=b"g") + entry("f", b"x") + END
    c["x-then-g"] = pax([("path", "lost")]) + pax([("comment", "g")], typ=b"g") + entry("f", b"x") + END
    c["L-then-g"] = gnu_long(b"lost") + pax([], typ=b"g") + entry("f", b"x") + END
    c["g-malformed"] = pax(None, typ=b"g", raw=b"9 a=b\n") + entry("f") + END
    # PAX values
    for v in ["+5", "-1", "0x10", "", "00012", " 12", "9223372036854775807", "9223372036854775808", "1_0"]:
        c["pax-size-" + v] = pax([("size", v)]) + entry("f", b"hello", size=5) + END
        c["pax-size-link-" + v] = pax([("size", v)]) + entry("l", typ=b"2", link="t") + END
        c["pax-uid-" + v] = pax([("uid", v)]) + entry("f", b"x") + END
    for v in ["1", "1.5", "-1.5", "1.", ".5", "1e3", "x", "1.5x", "+1.25", ""]:
        c["pax-mtime-" + v] = pax([("mtime", v)]) + entry("f", b"x") + END
    c["pax-dup-last-empty"] = pax([("path", "a"), ("path", "")]) + entry("h", b"x") + END
    c["pax-dup-mtime"] = pax([("mtime", "x"), ("mtime", "1")]) + entry("h", b"x") + END
    c["pax-xattr-then-empty"] = pax([("SCHILY.xattr.security.capability", "c"),
                                      ("SCHILY.xattr.security.capability", "")]) + entry("h", b"x") + END
    c["pax-nul-path"] = pax([("path", "a\0b")]) + entry("h", b"x") + END
    c["pax-nul-value-other"] = pax([("comment", "a\0b")]) + entry("h", b"x") + END
    c["pax-nul-key"] = pax([("a\0b", "v")]) + entry("h", b"x") + END
    for form in ["plus", "zeros", "short", "long", "nonl"]:
        c["pax-len-" + form] = pax(None, raw=pax_rec("path", "abc", form)) + entry("h", b"x") + END
    c["pax-no-eq"] = pax(None, raw=b"9 abcde\n") + entry("h", b"x") + END
    c["pax-empty-key"] = pax(None, raw=b"7 =abc\n") + entry("h", b"x") + END
    c["pax-trailing-nul"] = pax(None, raw=pax_rec("path", "p") + b"\0\0") + entry("h", b"x") + END
    c["pax-long-len"] = pax(None, raw=b"0" * 30 + b"40 path=p\n") + entry("h", b"x") + END
    c["pax-sparse-order"] = pax([("GNU.sparse.numbytes", "1"), ("GNU.sparse.offset", "0")]) + entry("h", b"x") + END
    c["pax-sparse-pair"] = pax([("GNU.sparse.offset", "0"), ("GNU.sparse.numbytes", "1")]) + entry("h", b"x") + END
    c["pax-sparse-unknown"] = pax([("GNU.sparse.major", "9")]) + entry("h", b"x") + END
    c["pax-sparse-name-only"] = pax([("GNU.sparse.name", "n")]) + entry("h", b"x") + END
    c["old-sparse"] = entry("s", b"", typ=b"S", fmt="gnu") + END
    c["old-sparse-ustar"] = entry("s", b"", typ=b"S") + END
    # numbers, checksums, formats
    c["chk-signed"] = entry("\xe9t\xe9".encode("latin1"), b"x", chk="s") + END
    c["chk-bad"] = entry("f", b"x", chk="bad") + END
    c["chk-b256"] = entry("f", b"x", chk="b256") + END
    c["chk-lead"] = entry("f", b"x", chk="lead") + END
    c["neg-size-link"] = entry("l", typ=b"2", link="t", size=5, styles={"size": "b256neg"}) + END
    c["neg-size-file"] = entry("f", b"", size=5, styles={"size": "b256neg"}) + END
    c["neg-size-x"] = header(b"x", 5, b"x", styles={"size": "b256neg"}) + END
    c["star-prefix"] = entry("n", b"x", fmt="star", prefix=b"pre") + END
    c["star-bad-times"] = entry("n", b"x", fmt="star", star_times=b"junk") + END
    c["ustar-prefix"] = entry("n", b"x", prefix=b"pre/fix") + END
    c["v7-prefix-ignored"] = entry("n", b"x", fmt="v7", patch=[(345, b"pre")]) + END
    c["v7-bad-dev"] = entry("n", b"x", fmt="v7", patch=[(329, b"junk")]) + END
    c["ustar-bad-dev"] = entry("n", b"x", patch=[(329, b"junk")]) + END
    c["regA-dir"] = entry("d/", b"", typ=b"\0") + END
    c["regA-dir-data"] = entry("d/", b"abc", typ=b"\0") + END
    c["regA-pax-dir"] = pax([("path", "p/")]) + entry("f", b"", typ=b"\0") + END
    c["type-7"] = entry("c", b"abc", typ=b"7") + END
    c["type-A"] = entry("c", b"abc", typ=b"A") + END
    c["symlink-size"] = entry("s", typ=b"2", link="t", size=700) + entry("z", b"bytes") + END
    # ends
    f = entry("a", b"0123456789")
    c["end-none"] = f
    c["end-one-zero"] = f + ZERO
    c["end-zero-then-header"] = f + ZERO + entry("b", b"y") + END
    c["end-zero-then-partial"] = f + ZERO + b"\0" * 100
    c["end-in-padding"] = f[:512 + 100]
    c["end-in-data"] = f[:512 + 5]
    c["end-in-header"] = f + entry("b")[:300]
    c["end-after-x"] = pax([("path", "p")])
    c["end-in-x-padding"] = pax([("path", "p")])[:512 + 20]
    c["end-in-x"] = pax([("path", "pppppppp")])[:512 + 5]
    c["end-x-then-zeros"] = pax([("path", "p")]) + END
    c["end-L-then-zero"] = gnu_long(b"n") + ZERO
    c["end-junk-after"] = f + END + b"garbage" * 100
    c["special-over-1MiB"] = header(b"PaxHeaders/x", (1 << 20) + 1, b"x") + END
    c["special-1MiB-L"] = gnu_long(b"a" * (1 << 20)) + entry("h", b"x") + END
    c["name-4096"] = pax([("path", "a" * 4096)]) + entry("h", b"x") + END
    c["name-4097"] = pax([("path", "a" * 4097)]) + entry("h", b"x") + END
    c["link-4097"] = gnu_long(b"l" * 4097, b"K") + entry("h", typ=b"2", link="t") + END
    return c

# ---------------------------------------------------------------- random cases

NAMES = [b"a", b"b/c", b"h/pwned", b"./x", b"d/", b"Dockerfile", b"x//y", b"../z", b"/abs",
         b"a" * 100, b"\xc3\xa9", b"sp ace", b"", b"."]
VALUES = [b"", b"p", b"h/pwned", b"0", b"512", b"1024", b"+0", b"-1", b"v", b"a/", b"1.5", b"x y",
          b"\xff", b"9" * 20, b"=", b"\0"]
KEYS = ["path", "linkpath", "size", "uid", "gid", "mtime", "atime", "ctime", "uname", "gname",
        "comment", "SCHILY.xattr.security.capability", "SCHILY.xattr.user.x", "SCHILY.xattr.",
        "GNU.sparse.major", "GNU.sparse.minor", "GNU.sparse.map", "GNU.sparse.offset",
        "GNU.sparse.numbytes", "GNU.sparse.name", "GNU.sparse.size", "charset"]


def random_case(R):
    def rhdr(name, size, typ):
        fmt = R.choice(["ustar", "ustar", "gnu", "gnu", "v7", "star", "ustar-oddver", "gnu-oddver"])
        styles = {}
        if R.random() < 0.2:
            for _ in range(R.randint(1, 2)):
                styles[R.choice(["mode", "uid", "gid", "size", "mtime", "devmaj", "devmin"])] = R.choice(NUM_STYLES)
        kw = dict(fmt=fmt, styles=styles, mode=R.choice([0o644, 0o4755, 0o755, 0o2755, 0o7777]),
                  uid=R.choice([0, 1000, 65534, 2 ** 21]), link=R.choice([b"", b"t", b"/etc", b"h"]),
                  chk=R.choice(["u"] * 20 + ["s", "bad", "b256", "lead"]),
                  devmaj=R.choice([0, 1, 8]), devmin=R.choice([0, 1, 3]))
        r = R.random()
        if fmt.startswith("gnu") and r < 0.4:
            kw["gnu_times"] = R.choice([b"x", b"sub", b"\xc3", b"00000000017\0", b"\0" * 12 + b"zz",
                                        b"12345670123\0" * 2, b"h", b"\x80\0\0\0\0\0\0\0\0\0\0\x01"])
        elif fmt in ("ustar", "star") and r < 0.3:
            kw["prefix"] = R.choice([b"pre", b"h", b"\x01q", b"12345670123", b"\x80abc", b"a" * 155])
        if fmt == "star" and R.random() < 0.3:
            kw["star_times"] = R.choice([b"junk", b"00000000017\0" * 2, b"\x80" + b"\0" * 11])
        return header(name, size, typ, **kw)

    def component():
        k = R.random()
        if k < 0.25:
            recs = []
            for _ in range(R.randint(0, 4)):
                keys = KEYS if R.random() < 0.3 else [k for k in KEYS if not k.startswith("GNU.")]
                recs.append((R.choice(keys), R.choice(VALUES),
                             R.choice(["ok"] * 40 + ["plus", "zeros", "short", "long", "nonl"])))
            typ = R.choice([b"x", b"x", b"x", b"g"])
            data = b"".join(pax_rec(*r) for r in recs)
            if R.random() < 0.05:
                data += R.choice([b"\0", b"junk", b"3 a\n"])
            return rhdr(b"PaxHeaders/" + R.choice(NAMES)[:80], len(data), typ) + pad(data)
        if k < 0.37:
            data = R.choice([b"h/pwned", b"lname\0junk", b"z" * 200, b"", b"\0", b"\0\0x", b"a" * 600])
            size = len(data)
            return header(b"././@LongLink", size, R.choice([b"L", b"K"]),
                          fmt=R.choice(["gnu", "gnu", "ustar"])) + pad(data)
        data = R.choice([b"", b"hello", b"x" * 600, ZERO, b"y" * 1024])
        typ = R.choice([b"0", b"0", b"0", b"2", b"2", b"1", b"5", b"5", b"\0", b"3", b"4", b"6"] +
                       ([b"7", b"S", b"A", b"V"] if R.random() < 0.2 else []))
        size = len(data)
        if R.random() < 0.05:
            size = R.choice([0, 1, 511, 512, 513, 2000])
        h = rhdr(R.choice(NAMES)[:100], size, typ)
        if typ in (b"1", b"2", b"3", b"4", b"5", b"6"):
            return h if R.random() < 0.9 else h + pad(data)
        return h + pad(data)

    parts = [component() for _ in range(R.randint(1, 6))]
    data = b"".join(parts)
    tail = R.random()
    if tail < 0.5:
        data += END
    elif tail < 0.6:
        data += ZERO
    elif tail < 0.7:
        data += ZERO + entry("late", b"x")
    elif tail < 0.85 and data:
        data = data[:R.randrange(len(data))]     # cut anywhere
    elif tail < 0.9:
        data += END + b"after the end"
    return data

# ---------------------------------------------------------------- comparison

def unesc_len(s):
    n = i = 0
    while i < len(s):
        i += 4 if s.startswith("\\x", i) else 1
        n += 1
    return n


def field(line, key):
    for part in line.split(" "):
        if part.startswith(key + "="):
            return part[len(key) + 1:]
    return ""


def justified(stop, go_line):
    """May the checker stop with `stop` where Go read go_line?"""
    if go_line is None or go_line.startswith("ERR"):
        return True
    if not go_line.startswith("E "):
        return False
    if stop == "STOP sparse":
        return field(go_line, "t") == "S" or "GNU.sparse." in field(go_line, "p")
    if stop == "ERR a name is too long":
        return unesc_len(field(go_line, "n")) > 4096 or unesc_len(field(go_line, "l")) > 4096
    if stop == "ERR a PAX global header with a value Go does not parse":
        return field(go_line, "t") == "g"
    return False


def split_outputs(text):
    out, cur = {}, None
    for line in text.splitlines():
        if line.startswith("== "):
            cur = line[3:]
            out[cur] = []
        elif cur is not None:
            out[cur].append(line)
    return out


def compare(c_lines, go_lines):
    """None when the readings agree (or the checker refuses on purpose), else why."""
    for i, cl in enumerate(c_lines):
        gl = go_lines[i] if i < len(go_lines) else None
        if cl.startswith("ERR") and gl is not None and gl.startswith("ERR"):
            return None
        if cl == gl:
            if cl == "EOF":
                return None
            continue
        if (cl.startswith("ERR") or cl.startswith("STOP")) and justified(cl, gl):
            return None
        return "line %d: checker %r, Go %r" % (i + 1, cl, gl)
    return "checker output ended early"


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, **kw).stdout.decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=20261207)
    ap.add_argument("--count", type=int, default=6000, help="random cases (besides the named ones)")
    ap.add_argument("--keep", help="write the corpus here and keep it")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()

    go = shutil.which("go") or ("/usr/lib/go-1.19/bin/go" if os.path.exists("/usr/lib/go-1.19/bin/go") else None)
    if go is None:
        print("SKIP tarparity: no Go toolchain (package golang-go; scripts/install-deps.sh)")
        return 77
    ver = run([go, "version"])
    if "go1.19" not in ver:
        print("FAIL tarparity: the daemons' reader is Go 1.19's archive/tar; this is " + ver.strip())
        print("0 passed, 1 failed")
        return 1
    tar_print = os.path.join(REPO, "tests/helpers/tar_print")
    if not os.access(tar_print, os.X_OK):
        print("FAIL tarparity: %s is not built (make test-programs)" % tar_print)
        print("0 passed, 1 failed")
        return 1

    # thousands of small files: in memory where there is a tmpfs (on this
    # loaded machine's disk, creating and removing them took 7 of 10 s)
    shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    work = a.keep or tempfile.mkdtemp(prefix="cg-tarparity.", dir=shm)
    os.makedirs(work, exist_ok=True)
    try:
        cache = os.path.join(REPO, "build", "gocache")
        os.makedirs(cache, exist_ok=True)
        env = dict(os.environ, GO111MODULE="off", GOPATH=os.path.join(work, "gopath"), GOCACHE=cache,
                   GOFLAGS="", CGO_ENABLED="0")
        gotar = os.path.join(work, "gotar")
        subprocess.run([go, "build", "-o", gotar, os.path.join(HERE, "gotar.go")], check=True, env=env)

        R = random.Random(a.seed)
        cases = named_cases()
        for i in range(a.count):
            cases["r%05d" % i] = random_case(R)
        files = []
        cdir = os.path.join(work, "corpus")
        os.makedirs(cdir, exist_ok=True)
        for name, data in cases.items():
            p = os.path.join(cdir, name.replace("/", "_") + ".tar")
            with open(p, "wb") as f:
                f.write(data)
            files.append(p)

        go_out = {}
        c_out = {}
        c_out7 = {}
        for i in range(0, len(files), 500):
            batch = files[i:i + 500]
            go_out.update(split_outputs(run([gotar] + batch)))
            c_out.update(split_outputs(run([tar_print] + batch)))
            c_out7.update(split_outputs(run([tar_print, "-p", "7"] + batch)))

        passed = failed = 0
        kinds = {"EOF": 0, "ERR": 0, "refused on purpose": 0}
        for p in files:
            name = os.path.basename(p)
            why = compare(c_out.get(p, []), go_out.get(p, []))
            if why is None and c_out.get(p) != c_out7.get(p):
                why = "fed 7 bytes at a time the checker read it otherwise: %r" % (c_out7.get(p),)
            if why is None:
                passed += 1
                last = c_out[p][-1]
                kinds["EOF" if last == "EOF" else
                      ("ERR" if go_out[p][len(c_out[p]) - 1].startswith("ERR") else "refused on purpose")] += 1
                if a.v:
                    print("PASS %s" % name)
            else:
                failed += 1
                if failed <= 25:
                    print("FAIL %s: %s" % (name, why))
                    if a.v:
                        print("   checker: %s\n   go:      %s" % (c_out.get(p), go_out.get(p)))
        print("# %d tars (seed %d): both read to the end %d, both refused %d, the checker refused on purpose %d"
              % (len(files), a.seed, kinds["EOF"], kinds["ERR"], kinds["refused on purpose"]))
        print("%d passed, %d failed" % (passed, failed))
        return 0 if failed == 0 else 1
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
