"""Loading the compiled loops' cached object code without LLVM: `native.py` compiles its
loops once into an ELF object (x86-64, LLVM's large code model: the code reaches its
constants by 64-bit absolute addresses), and a later run places that object's sections in
executable memory itself and fills in those addresses, in about a millisecond, where
importing llvmlite and its JIT linker costs 25-30 ms of CPU and maps 50 MiB of LLVM into
the process.

Only what these loops' objects hold is accepted: allocated sections (code and constant
pools), R_X86_64_64 relocations against symbols defined in them, no undefined symbol.
Anything else (another machine, another relocation, an external call such as libm's fma
on a CPU without the instruction) returns None, and native.py links the object with
llvmlite's JIT as before.  The unwind tables (.eh_frame) are not loaded: the loops never
throw (the memory
handler's functions call only libc's allocator and copies, which do not)."""

from __future__ import annotations

import mmap
import struct

_SHF_ALLOC = 0x2
_SHT_PROGBITS, _SHT_SYMTAB, _SHT_RELA, _SHT_NOBITS = 1, 2, 4, 8
_R_X86_64_64 = 1
_EM_X86_64 = 62


def load(obj, address_of):
    """(the executable mapping, {function name: address}) of the ELF object `obj`, or None
    where it holds anything this loader does not take; address_of(buffer) gives the
    address of a writable buffer's first byte."""
    try:
        return _load(obj, address_of)
    except (struct.error, ValueError, IndexError, OSError, KeyError):
        return None


def _load(obj, address_of):
    if obj[:4] != b"\x7fELF" or obj[4] != 2 or obj[5] != 1:  # ELF64, little-endian
        return None
    (machine,) = struct.unpack_from("<H", obj, 18)
    if machine != _EM_X86_64:
        return None
    (shoff,) = struct.unpack_from("<Q", obj, 40)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", obj, 58)
    secs = [
        struct.unpack_from("<IIQQQQIIQQ", obj, shoff + i * shentsize) for i in range(shnum)
    ]  # name, type, flags, addr, offset, size, link, info, addralign, entsize
    names = secs[shstrndx][4]

    def sec_name(s):
        end = obj.index(b"\0", names + s[0])
        return obj[names + s[0] : end].decode()

    # the allocated sections, laid out one after the other at their alignments
    place, size = {}, 0
    for i, s in enumerate(secs):
        if s[2] & _SHF_ALLOC and s[1] in (_SHT_PROGBITS, _SHT_NOBITS):
            if sec_name(s) == ".eh_frame":
                continue
            align = max(s[8], 1)
            size = -(-size // align) * align
            place[i] = size
            size += s[5]
    if not place:
        return None
    mem = mmap.mmap(-1, max(size, 1), prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    base = address_of(mem)
    for i, at in place.items():
        s = secs[i]
        if s[1] == _SHT_PROGBITS:
            mem[at : at + s[5]] = obj[s[4] : s[4] + s[5]]

    symtab = next(s for s in secs if s[1] == _SHT_SYMTAB)
    strtab = secs[symtab[6]][4]
    syms = []
    for k in range(symtab[5] // 24):
        st_name, st_info, _, shndx, value, _ = struct.unpack_from(
            "<IBBHQQ", obj, symtab[4] + k * 24
        )
        end = obj.index(b"\0", strtab + st_name)
        syms.append((obj[strtab + st_name : end].decode(), st_info, shndx, value))

    def sym_address(k):
        _, _, shndx, value = syms[k]
        if shndx not in place:  # undefined, absolute or in a section not loaded
            raise ValueError("symbol outside the loaded sections")
        return base + place[shndx] + value

    for s in secs:
        if s[1] != _SHT_RELA or s[7] not in place:
            continue
        target = place[s[7]]
        for k in range(s[5] // 24):
            offset, info, addend = struct.unpack_from("<QQq", obj, s[4] + k * 24)
            if info & 0xFFFFFFFF != _R_X86_64_64:
                return None
            value = (sym_address(info >> 32) + addend) & 0xFFFFFFFFFFFFFFFF
            struct.pack_into("<Q", mem, target + offset, value)

    fns = {
        name: base + place[shndx] + value
        for name, info, shndx, value in syms
        if info & 0xF == 2 and shndx in place  # STT_FUNC
    }
    return mem, fns
