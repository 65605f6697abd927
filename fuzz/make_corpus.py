#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_wire (fuzz/corpus/): the golden files of tests/golden with the
selector byte of their type in front, plus a few small valid messages of the other types.
Run: python3 fuzz/make_corpus.py"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'tests', 'golden'))
import make_golden as g  # noqa: E402

seeds = {
    'list': (0, g.shared_cyclic_list()),
    'shape': (1, g.nested_struct()),
    'ints': (2, g.int_vector()),
    'string': (3, g.utf8_string()),
    # tree{value 1, kids [tree{value 2, kids [], parent -> 1}], parent null} as &tree
    'tree': (4, g.ref_new(1) + g.i32(1) + g.size(1) + g.ref_new(2) + g.i32(2) + g.size(0) +
             g.ref_old(1) + g.NULL),
    # unode{"a", child unode{"b", null, null}, next unode{"c", null, null}}
    'unode': (5, g.string('a') + g.ref_new(1) + g.string('b') + g.NULL + g.NULL +
              g.ref_new(2) + g.string('c') + g.NULL + g.NULL),
    # nest{inner [nest{inner [], label "x"}], label empty}
    'nest': (6, g.size(1) + g.size(0) + g.boolean(False) + g.string('x') + g.boolean(True)),
    # mixed{a -> 5, d -> 2.5, fixed [1,2,3], t (true, -1, "t")}
    'mixed': (7, g.ref_new(1) + g.i32(5) + g.ref_new(2) + g.f64(2.5) + g.size(3) +
              struct.pack('<HHH', 1, 2, 3) + g.boolean(True) + struct.pack('<b', -1) + g.string('t')),
    'map': (8, g.size(1) + g.string('k') + g.size(2) + g.f64(1.0) + g.f64(-1.0)),
    'nested_strings': (9, g.size(2) + g.size(1) + g.string('a') + g.size(0)),
    # chain{[1], "a"} -> chain{[], ""} -> chain{[2, 3], "bc"} -> back to the second (a rho)
    'chain': (10, g.ref_new(1) + g.i32_array([1]) + g.string('a') + g.ref_new(2) + g.i32_array([]) +
              g.string('') + g.ref_new(3) + g.i32_array([2, 3]) + g.string('bc') + g.ref_old(2)),
    # the same rho as a compact chain (wire 1.1): marker, n = 3, close = 2, nodes with varint sizes
    'compact_chain': (10, g.u32(g.NEW) + g.u32(3) + g.u32(2) +
                      g.varint(1) + g.i32(1) + g.varint(1) + b'a' + g.varint(0) + g.varint(0) +
                      g.varint(2) + g.i32(2) + g.i32(3) + g.varint(2) + b'bc'),
}



def nest_claiming_all(length):
    """nest whose every level claims as many elements as bytes are left (issue 25: the reader
    allocated with the square of the message size, 1 GiB for these 16 KiB)."""
    return b''.join(struct.pack('<Q', length - at - 8) for at in range(0, length, 8))


seeds['nest_claims'] = (6, nest_claiming_all(16384))

out = os.path.join(HERE, 'corpus')
os.makedirs(out, exist_ok=True)
for name, (selector, body) in seeds.items():
    with open(os.path.join(out, name + '.bin'), 'wb') as f:
        f.write(bytes([selector]) + body)
print(len(seeds), 'seeds in', out)
