#!/usr/bin/env python3
"""Writes the golden files of wire format v1 (docs/wire-format.md) byte by byte from the
specification, independently of the C++ code: tests/test_serialization.cpp checks that oompi
writes exactly these bytes and reads them back; the Java, C# and Python tests read them too.

Run from anywhere:  python3 tests/golden/make_golden.py   (rewrites tests/golden/*.bin)
Every file is described in README.md next to it.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
NEW = 0x80000000  # top bit of a reference id: the object follows


def u8(v): return struct.pack('<B', v)
def i32(v): return struct.pack('<i', v)
def u32(v): return struct.pack('<I', v)
def i64(v): return struct.pack('<q', v)
def u64(v): return struct.pack('<Q', v)
def f32(v): return struct.pack('<f', v)
def f64(v): return struct.pack('<d', v)
def boolean(v): return u8(1 if v else 0)
def size(n): return u64(n)
def string(s):
    b = s.encode('utf-8')
    return size(len(b)) + b
def i32_array(values): return size(len(values)) + b''.join(i32(v) for v in values)
def ref_new(i): return u32(NEW | i)   # first occurrence of object i, its fields follow
def ref_old(i): return u32(i)         # a later occurrence of object i
NULL = u32(0)


def int_vector():
    # std::vector<std::int32_t>{1, -2, 3, 2147483647, -2147483648}
    return i32_array([1, -2, 3, 2147483647, -2147483648])


def utf8_string():
    # std::string "héllo, wörld ✓" (UTF-8)
    return string('h\u00e9llo, w\u00f6rld \u2713')


def nested_struct():
    # struct point { double x, y; };                 OOMPI_TRANSPORTABLE(point, x, y)
    # struct shape { std::string name; std::int64_t id; bool closed; point origin;
    #                std::vector<point> corners; std::vector<std::int32_t> tags; float scale;
    #                std::uint8_t layer; std::int16_t depth; };
    # OOMPI_TRANSPORTABLE(shape, name, id, closed, origin, corners, tags, scale, layer, depth)
    def point(x, y): return f64(x) + f64(y)
    return (string('triangle') + i64(-1234567890123) + boolean(True) + point(0.5, -1.25) +
            size(3) + point(0, 0) + point(4, 0) + point(0, 3) +
            i32_array([7, 11]) + f32(2.5) + u8(200) + struct.pack('<h', -300))


def shared_cyclic_list():
    # struct list_node { std::vector<std::int32_t> data; std::shared_ptr<list_node> other, next; };
    # OOMPI_TRANSPORTABLE(list_node, data, other, next)
    # sent as the std::shared_ptr<list_node> a of this graph:
    #   a{data [1, 2], other -> c, next -> b}
    #   b{data [3],    other -> c, next -> c}   c is shared (three references)
    #   c{data [],     other -> null, next -> a} and closes a cycle back to a
    # Ids follow first occurrence in the stream: a = 1, c = 2 (reached first, via a.other), b = 3.
    a = ref_new(1) + i32_array([1, 2])
    c = ref_new(2) + i32_array([]) + NULL + ref_old(1)       # a.other: c, then c's fields
    b = ref_new(3) + i32_array([3]) + ref_old(2) + ref_old(2)  # a.next: b, then b's fields
    return a + c + b


def varint(n):
    # unsigned LEB128, shortest form: sizes inside a compact chain (section 2.1)
    out = b''
    while True:
        byte, n = n & 0x7F, n >> 7
        if n == 0:
            return out + u8(byte)
        out += u8(byte | 0x80)


def compact_chain():
    # struct chain_item { std::string name; std::int64_t id; bool flag; double weight;
    #                     std::vector<std::int32_t> data; std::shared_ptr<chain_item> next; };
    # OOMPI_TRANSPORTABLE(chain_item, name, id, flag, weight, data, next): a chain type (2.1).
    #   1 {"first", -5, true, 0.5, [1, 2, 3]} -> 2 {"", 2^40, false, -2.25, [0 .. 199]}
    #   -> 3 {"drei \u2713", 7, true, 1e300, []} -> back to 2
    def node(name, id_, flag, weight, data):
        b = name.encode('utf-8')
        return (varint(len(b)) + b + i64(id_) + boolean(flag) + f64(weight) +
                varint(len(data)) + b''.join(i32(v) for v in data))
    return (u32(NEW) + u32(3) + u32(2) +
            node('first', -5, True, 0.5, [1, 2, 3]) +
            node('', 1 << 40, False, -2.25, list(range(200))) +
            node('drei \u2713', 7, True, 1e300, []))


FILES = {
    'int_vector.bin': int_vector,
    'string.bin': utf8_string,
    'nested_struct.bin': nested_struct,
    'shared_cyclic_list.bin': shared_cyclic_list,
    'compact_chain.bin': compact_chain,
}

if __name__ == '__main__':
    for name, make in FILES.items():
        with open(os.path.join(HERE, name), 'wb') as f:
            f.write(make())
        print(name, len(make()), 'bytes')
