"""A linked list of Transportable nodes goes round the ring in wire format v1 (the bytes C++, Java
and C# read): each rank appends a node and passes the list on; rank 0 checks it when it comes
back, then broadcasts it. mpirun -np 4 python3 linked_list.py"""
from dataclasses import dataclass, field
from typing import Optional

import oompi


@oompi.transportable
@dataclass(eq=False)
class Node:
    data: list[oompi.int32] = field(default_factory=list)
    next: Optional["Node"] = None


NODE = oompi.Ref(Node)  # sent as a reference: id, then the node (like C++ std::shared_ptr)


def values(head):
    out = []
    while head is not None:
        out.extend(head.data)
        head = head.next
    return out


with oompi.Environment():
    world = oompi.Comm.world()
    rank, size = world.rank, world.size
    nxt, prv = (rank + 1) % size, (rank - 1) % size
    if rank == 0:
        head = Node([0])
        if size > 1:
            world.osend(head, nxt, 0, type=NODE)
            head = world.orecv(prv, 0, type=NODE)
    else:
        head = world.orecv(prv, 0, type=NODE)
        tail = head
        while tail.next is not None:
            tail = tail.next
        tail.next = Node([rank, rank * rank])
        world.osend(head, nxt, 0, type=NODE)
    head = world.obcast(head if rank == 0 else None, 0, type=NODE)
    expect = [0] + [v for r in range(1, size) for v in (r, r * r)]
    if values(head) != expect:
        raise SystemExit(f"rank {rank}: list {values(head)} != {expect}")
    if rank == 0:
        print(f"linked list round the ring: {values(head)}")
